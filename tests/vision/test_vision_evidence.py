"""The evidence of each name: today's readers' cues, judged on rendered decks at the table's
card sizes."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tools.decision_data import scene
from vision.cards import CardObservation, Rank, Reading, Suit, inside
from vision.config import VisionConfig
from vision.evidence import FEATURES, frame_evidence, log_odds, proposals
from vision.live import LiveConfig, view_config
from vision.model import GlyphModel
from vision.pipeline import recognise

OTHER_COLOUR = {"C": "H", "S": "D", "H": "S", "D": "C"}


def _named(design: str, length: float, seed: int) -> tuple[np.ndarray, list[CardObservation],
                                                            list[bool], VisionConfig]:
    """A rendered scene read as the table reads its view; whether each name is right."""
    frame, labels = scene(design, length, seed)
    config = replace(view_config(VisionConfig(), LiveConfig()), card_length=length)
    observations = recognise(frame, GlyphModel.load(), config)
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
