"""The calibrated decision: one probability that a name is right, judged on rendered decks."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tools.decision_data import scene
from vision.cards import CardObservation, Reading, Suit, inside
from vision.config import VisionConfig
from vision.decide import (
    EVEN_ODDS,
    DecisionFileError,
    decided,
    load_decision,
    name_probability,
    shipped_decision,
)
from vision.evidence import FEATURES, frame_evidence, log_odds
from vision.learned import shipped_reader
from vision.live import LiveConfig, view_config
from vision.model import GlyphModel
from vision.pipeline import read_frame, recognise

OTHER_COLOUR = {"C": "H", "S": "D", "H": "S", "D": "C"}


def test_the_shipped_curve_rises_and_its_threshold_lies_on_it() -> None:
    decision = shipped_decision()
    assert np.all(np.diff(decision.curve_scores) > 0)
    assert np.all(np.diff(decision.curve_probabilities) >= 0)
    assert decision.curve_probabilities[0] <= decision.threshold
    assert decision.threshold <= decision.curve_probabilities[-1]


def test_the_shipped_threshold_takes_the_names_of_the_block_it_was_read_at() -> None:
    decision = shipped_decision()
    at = decision.curve_scores[decision.curve_probabilities == decision.threshold]
    assert at.size > 0
    assert all(decision.calibrated(float(score)) >= decision.threshold
               for score in at)


@pytest.mark.parametrize(("design", "length"), [("artwork", 140.0), ("artwork", 95.0)])
def test_names_of_the_other_colour_are_never_taken_and_right_ones_are_surer(
        design: str, length: float) -> None:
    decision = shipped_decision()
    taken = 0
    for seed in (21, 22):
        frame, labels = scene(design, length, seed)
        config = replace(view_config(VisionConfig(), LiveConfig()), card_length=length)
        named = [o for o in read_frame(frame, GlyphModel.load(), config)
                 if o.whole and o.reading is not None and o.reading.suit is not None
                 and any(label["card"] == o.name
                         and inside(o.corners.mean(axis=0), np.array(label["quad"], np.float32))
                         for label in labels)]
        renamed = [replace(o, reading=Reading(o.reading.rank,
                                              Suit(OTHER_COLOUR[o.reading.suit.value]),
                                              o.confidence))
                   for o in named if o.reading is not None and o.reading.suit is not None]
        for good, bad in zip(frame_evidence(frame, named, config),
                             frame_evidence(frame, renamed, config), strict=True):
            assert good is not None and bad is not None
            right, wrong = decision.probability(good), decision.probability(bad)
            assert wrong < decision.threshold
            assert wrong <= right
            taken += right >= decision.threshold
    assert taken >= 6


def test_a_manifest_of_other_features_or_broken_json_is_refused(tmp_path: Path) -> None:
    manifest = json.loads((Path(__file__).resolve().parents[2] / "vision" / "data"
                           / "decision.json").read_text())
    other = tmp_path / "other.json"
    other.write_text(json.dumps(dict(manifest, features=[*FEATURES[1:], FEATURES[0]])))
    with pytest.raises(DecisionFileError, match="features"):
        load_decision(other)
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    with pytest.raises(DecisionFileError, match="cannot load"):
        load_decision(broken)
    with pytest.raises(DecisionFileError, match="cannot load"):
        load_decision(tmp_path / "absent.json")


def _right(observation: CardObservation, labels: list[dict[str, Any]]) -> bool:
    """Whether a name is a label's whose card holds the outline's middle."""
    return any(label["card"] == observation.name
               and inside(observation.corners.mean(axis=0), np.array(label["quad"], np.float32))
               for label in labels)


@pytest.mark.parametrize(("design", "length"), [("artwork", 140.0), ("drawn", 95.0)])
def test_recognition_gives_each_name_the_calibrated_probability_it_is_right(
        design: str, length: float) -> None:
    decision = shipped_decision()
    # Deck enough for any name given twice: the decision alone is judged here.
    config = replace(view_config(VisionConfig(), LiveConfig()), card_length=length, copies=8)
    named = 0
    for seed in (31, 32):
        frame, _ = scene(design, length, seed)
        read = read_frame(frame, GlyphModel.load(), config)
        decided_ = recognise(frame, GlyphModel.load(), config)
        assert [(o.name, o.whole) for o in decided_] == [(o.name, o.whole) for o in read]
        for before, after, evidence in zip(read, decided_, frame_evidence(frame, read, config),
                                           strict=True):
            if before.reading is None:
                assert after.confidence == before.confidence
                continue
            assert evidence is not None and after.reading == before.reading
            assert after.confidence == pytest.approx(decision.probability(evidence), abs=1e-6)
            named += 1
    assert named >= 4


def test_cards_the_caller_knows_lie_still_keep_the_probability_they_were_given() -> None:
    config = replace(view_config(VisionConfig(), LiveConfig()), card_length=140.0)
    frame, _ = scene("artwork", 140.0, 33)
    first = recognise(frame, GlyphModel.load(), config)
    settled = [replace(o, confidence=0.123) for o in first if o.whole and o.name is not None]
    assert settled
    again = recognise(frame, GlyphModel.load(), config, settled=settled)
    kept = [o for o in again if any(o is s for s in settled)]
    assert len(kept) == len(settled)
    assert all(o.confidence == 0.123 for o in kept)


def test_the_decision_takes_fewer_wrong_names_of_a_four_colour_deck_than_the_former_cut(
) -> None:
    config = replace(view_config(VisionConfig(), LiveConfig()), card_length=140.0)
    threshold = shipped_decision().threshold
    old_right = old_wrong = new_right = new_wrong = 0
    for seed in range(40, 46):
        frame, labels = scene("drawn", 140.0, seed)
        read = read_frame(frame, GlyphModel.load(), config)
        for before, after in zip(read, decided(frame, read, config), strict=True):
            if before.name is None:
                continue
            right = _right(before, labels)
            if before.confidence >= 0.7:
                old_right, old_wrong = old_right + right, old_wrong + (not right)
            if after.confidence >= threshold:
                new_right, new_wrong = new_right + right, new_wrong + (not right)
    assert old_wrong >= 1
    assert new_wrong < old_wrong
    assert new_right >= old_right - 2


def test_a_court_named_on_its_index_glyphs_alone_is_held_at_even_odds() -> None:
    # The regression's card-network cue for a court is its support for any court of the suit,
    # so the glyphs' confidence alone can carry a court's name. Real evidence of cards read
    # right, with the networks' cues for the exact name as a misread shows them (a German
    # deck's "B" jack read as the queen: the card network's first choice another card at an
    # end and 5 % at its surer end, the index network 35 % at its surer end).
    decision = shipped_decision()
    support = log_odds(shipped_reader().rule.support)
    carried = backed = others = 0
    for design, length, seed in itertools.product(("artwork", "tango"), (140.0, 95.0), (21, 22)):
        config = replace(view_config(VisionConfig(), LiveConfig()), card_length=length)
        frame, _ = scene(design, length, seed)
        named = [o for o in read_frame(frame, GlyphModel.load(), config)
                 if o.whole and o.reading is not None and o.reading.suit is not None]
        for card, evidence in zip(named, frame_evidence(frame, named, config), strict=True):
            assert card.reading is not None and evidence is not None
            misread = {**evidence, "card_agree": 0.0, "card_high": log_odds(0.05),
                       "index_high": log_odds(0.35)}
            held = name_probability(decision, card.reading, misread, support)
            if card.reading.rank.value not in "JQK":
                # The pips and the card network tell a nine, ten or ace: never held.
                assert held == round(decision.probability(misread), 6)
                others += 1
                continue
            carried += decision.probability(misread) >= decision.threshold
            assert held <= EVEN_ODDS
            if evidence["index_high"] >= 0.0 or evidence["card_high"] >= support:
                as_given = name_probability(decision, card.reading, evidence, support)
                assert as_given == round(decision.probability(evidence), 6)
                backed += as_given >= decision.threshold
    # The regression alone would take such names; a court a network backs is taken as before.
    assert carried >= 2 and backed >= 4 and others >= 4
