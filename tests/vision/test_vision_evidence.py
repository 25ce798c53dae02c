"""The evidence of each name: today's readers' cues, judged on rendered decks at the table's
card sizes."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from tools.decision_data import scene
from vision.cards import CardObservation, Rank, Reading, Suit, inside, parse_card
from vision.config import VisionConfig
from vision.evidence import FEATURES, Evidence, frame_evidence, log_odds, proposals
from vision.live import LiveConfig, view_config
from vision.model import GlyphModel
from vision.pipeline import read_frame, recognise

OTHER_COLOUR = {"C": "H", "S": "D", "H": "S", "D": "C"}


def _named(design: str, length: float, seed: int) -> tuple[np.ndarray, list[CardObservation],
                                                            list[bool], VisionConfig]:
    """A rendered scene read as the table reads its view (each name with its stage's
    confidence); whether each name is right."""
    frame, labels = scene(design, length, seed)
    config = replace(view_config(VisionConfig(), LiveConfig()), card_length=length)
    observations = read_frame(frame, GlyphModel.load(), config)
    right = [any(label["card"] == o.name and inside(o.corners.mean(axis=0),
                                                     np.array(label["quad"], np.float32))
                 for label in labels) for o in observations]
    return frame, observations, right, config


@pytest.mark.parametrize(("design", "length"), [("drawn", 140.0), ("artwork", 95.0)])
def test_right_names_have_the_networks_and_the_ink_behind_them(design: str,
                                                               length: float) -> None:
    frame, observations, right, config = _named(design, length, seed=3)
    evidence = frame_evidence(frame, observations, config)
    named = [k for k, o in enumerate(observations) if o.name is not None and right[k]]
    assert len(named) >= 4
    for k, cues in enumerate(evidence):
        assert (cues is None) == (observations[k].name is None)
    whole = [k for k in named if observations[k].whole]
    cues_of = [evidence[k] for k in whole]
    assert all(c is not None and set(c) == set(FEATURES) for c in cues_of)
    assert np.median([c["card_high"] for c in cues_of if c]) > log_odds(0.5)
    assert sum(c["ink"] > 0 for c in cues_of if c) >= len(whole) // 2
    assert not any(c["ink"] < 0 for c in cues_of if c)


@pytest.mark.parametrize(("design", "length"), [("artwork", 140.0), ("artwork", 95.0)])
def test_a_name_of_the_other_colour_loses_the_networks_and_the_ink(design: str,
                                                                  length: float) -> None:
    frame, observations, right, config = _named(design, length, seed=5)
    chosen = [o for k, o in enumerate(observations) if right[k] and o.whole and o.reading]
    assert len(chosen) >= 4
    wrong = []
    for o in chosen:
        assert o.reading is not None and o.reading.suit is not None
        suit = Suit(OTHER_COLOUR[o.reading.suit.value])
        wrong.append(replace(o, reading=Reading(o.reading.rank, suit, o.confidence)))
    truthful = frame_evidence(frame, chosen, config)
    renamed = frame_evidence(frame, wrong, config)
    for good, bad in zip(truthful, renamed, strict=True):
        assert good is not None and bad is not None
        assert bad["card_high"] < good["card_high"]
        assert bad["index_high"] < good["index_high"]
        assert bad["ink"] <= 0 <= good["ink"]


def test_a_ten_named_a_nine_or_a_nine_a_ten_is_told_by_its_pips() -> None:
    told = 0
    for seed in range(11, 21):
        frame, observations, right, config = _named("artwork", 140.0, seed)
        chosen = [o for k, o in enumerate(observations) if right[k] and o.whole
                  and o.reading is not None and o.reading.rank in (Rank.NINE, Rank.TEN)]
        swapped = [replace(o, reading=replace(o.reading, rank=Rank.NINE
                                              if o.reading.rank is Rank.TEN else Rank.TEN))
                   for o in chosen if o.reading is not None]
        for good, bad in zip(frame_evidence(frame, chosen, config),
                             frame_evidence(frame, swapped, config), strict=True):
            assert good is not None and bad is not None
            assert good["pips"] >= 0 >= bad["pips"]
            told += good["pips"] > 0 > bad["pips"]
        if told >= 3:
            break
    assert told >= 3


@pytest.mark.parametrize(("design", "length"), [("artwork", 140.0), ("artwork", 95.0)])
def test_an_outline_left_unread_is_proposed_the_card_it_shows(design: str, length: float) -> None:
    frame, observations, right, _ = _named(design, length, seed=7)
    named = [o for k, o in enumerate(observations) if right[k] and o.whole]
    assert len(named) >= 4
    unread = [replace(o, reading=None, confidence=0.0) for o in named]
    proposed = proposals(frame, [*unread, *named])
    assert all(p is None for p in proposed[len(unread):])
    agreeing = sum(p is not None and p.name == o.name
                   for p, o in zip(proposed, named, strict=False))
    assert agreeing >= len(named) - 1


def _apart(design: str, length: float, seeds: range) -> list[tuple[np.ndarray, list[Any]]]:
    """Rendered scenes with the labels of their cards lying apart from every other (nothing
    laid over them)."""
    out = []
    for seed in seeds:
        frame, labels = scene(design, length, seed)
        boxes = [label["box"] for label in labels]
        alone = [label for k, label in enumerate(labels)
                 if all(j == k or b[2] < boxes[k][0] or boxes[k][2] < b[0] or b[3] < boxes[k][1]
                        or boxes[k][3] < b[1] for j, b in enumerate(boxes))]
        out.append((frame, alone))
    return out


def _as_named(label: dict[str, Any], name: str) -> CardObservation:
    """A whole outline at a label's quad, named `name`."""
    rank, suit = parse_card(name)
    return CardObservation(np.array(label["quad"], np.float32), Reading(rank, suit, 0.9), 0.9)


def _cues(design: str, length: float, seeds: range, rename: Any) -> list[Evidence]:
    """The evidence of every lone card of some rendered scenes named as `rename(name)` gives
    (cards it gives None for left out)."""
    config = replace(view_config(VisionConfig(), LiveConfig()), card_length=length)
    out: list[Evidence] = []
    for frame, labels in _apart(design, length, seeds):
        named = [_as_named(label, rename(label["card"])) for label in labels
                 if rename(label["card"]) is not None]
        out.extend(cues for cues in frame_evidence(frame, named, config) if cues is not None)
    return out


def test_a_blue_diamond_of_a_four_colour_deck_named_a_spade_shows_ink_no_spade_has() -> None:
    seeds = range(30, 34)
    spades = _cues("drawn", 140.0, seeds, lambda n: n if n[1] == "S" else None)
    diamonds = _cues("drawn", 140.0, seeds, lambda n: n[0] + "S" if n[1] == "D" else None)
    assert len(spades) >= 4 and len(diamonds) >= 4
    assert max(c["spade_chroma"] for c in spades) < min(c["spade_chroma"] for c in diamonds)
    assert all(c["heart_redness"] == c["diamond_chroma"] == 0.0 for c in spades + diamonds)


def test_a_court_named_another_court_of_its_suit_keeps_its_weaker_end_not_its_stronger() -> None:
    seeds = range(30, 36)
    queens = _cues("drawn", 140.0, seeds, lambda n: n if n[0] == "Q" else None)
    as_kings = _cues("drawn", 140.0, seeds, lambda n: "K" + n[1] if n[0] == "Q" else None)
    assert len(queens) >= 3
    for queen, king in zip(queens, as_kings, strict=True):
        assert king["card_low"] == pytest.approx(queen["card_low"], abs=1e-6)
        assert king["card_high"] < queen["card_high"]


def test_an_ace_without_its_middle_pip_is_held_against_and_a_low_card_seen_as_one() -> None:
    seeds = range(30, 38)
    aces = _cues("artwork", 140.0, seeds, lambda n: n if n[0] == "A" else None)
    low_as_aces = _cues("plain", 140.0, seeds,
                        lambda n: "A" + n[1] if n[0] in "2345678" else None)
    assert len(aces) >= 3 and len(low_as_aces) >= 6
    assert all(c["pips"] == 1.0 for c in aces)
    assert all(c["pips"] == -1.0 for c in low_as_aces)
    assert (np.median([c["card_low_rank"] for c in low_as_aces])
            > log_odds(0.5) > max(c["card_low_rank"] for c in aces))


def test_a_frame_counts_each_cards_pips_once_for_the_pip_stage_and_the_decision(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.evidence
    import vision.pips

    counted: list[bytes] = []
    count = vision.pips.read_pips

    def counting(frame: Any, quad: Any, config: Any) -> Any:
        counted.append(np.asarray(quad, np.float32).tobytes())
        return count(frame, quad, config)

    monkeypatch.setattr(vision.pips, "read_pips", counting)
    monkeypatch.setattr(vision.evidence, "read_pips", counting, raising=False)
    frame, _ = scene("artwork", 140.0, 3)
    config = replace(view_config(VisionConfig(), LiveConfig()), card_length=140.0)
    observations = recognise(frame, GlyphModel.load(), config)
    assert any(o.name and o.name[0] in "9T" and o.whole for o in observations)
    assert counted and len(counted) == len(set(counted))
