"""The calibrated decision: one probability that a name is right, judged on rendered decks."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from tools.decision_data import scene
from vision.cards import Reading, Suit, inside
from vision.config import VisionConfig
from vision.decide import DecisionFileError, load_decision, shipped_decision
from vision.evidence import FEATURES, frame_evidence
from vision.live import LiveConfig, view_config
from vision.model import GlyphModel
from vision.pipeline import recognise

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
        named = [o for o in recognise(frame, GlyphModel.load(), config)
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
