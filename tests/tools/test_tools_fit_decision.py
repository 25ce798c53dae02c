"""Fitting the calibrated decision: the regression, the calibration curve and the threshold."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tools.decision_data import collect, render_scenes
from tools.fit_decision import (
    SIGNS,
    deck_kept,
    fit,
    fit_logistic,
    isotonic,
    labelled_candidates,
    measure,
    standardised_fit,
    threshold_of,
)
from vision.cards import CardObservation, Reading, parse_card
from vision.decide import DecisionFileError, decision_of
from vision.deck_limit import within_deck
from vision.evidence import FEATURES


def test_the_regression_finds_the_cue_that_tells_right_from_wrong() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(2000, 3))
    y = (x[:, 1] + 0.3 * rng.normal(size=2000) > 0).astype(float)
    weights, _ = fit_logistic(x, y)
    assert abs(weights[1]) > 5 * max(abs(weights[0]), abs(weights[2]))
    assert weights[1] > 0


def test_the_calibration_curve_rises_and_keeps_the_share_right() -> None:
    rng = np.random.default_rng(1)
    scores = rng.normal(size=3000)
    y = (rng.uniform(size=3000) < 1 / (1 + np.exp(-2 * scores))).astype(float)
    at, share = isotonic(scores, y)
    assert np.all(np.diff(share) >= 0) and share[-1] > share[0]
    assert np.all(np.diff(at) > 0)
    calibrated = np.interp(scores, at, share)
    assert abs(calibrated.mean() - y.mean()) < 0.01


def test_the_threshold_keeps_the_names_whose_wrong_share_is_at_most_the_limit() -> None:
    probabilities = np.array([1.0] * 900 + [0.999] * 100 + [0.99] * 50 + [0.9] * 10)
    threshold = threshold_of(probabilities, 0.001)
    assert threshold == 0.99
    taken = probabilities[probabilities >= threshold]
    assert (1 - taken).mean() <= 0.001 < (1 - probabilities).mean()
    assert threshold_of(np.array([0.5, 0.6]), 0.001) == 1.0


def test_the_names_fitted_on_are_those_the_deck_constraint_leaves_to_the_table() -> None:
    rng = np.random.default_rng(5)
    for _ in range(50):
        cards: list[dict[str, Any]] = [
            {"card": [None, "AS", "KH", "9D"][int(rng.integers(4))],
             "whole": bool(rng.uniform() < 0.5), "confidence": float(rng.uniform())}
            for _ in range(int(rng.integers(1, 8)))]
        observations = [CardObservation(np.zeros((4, 2), np.float32),
                                        None if c["card"] is None else Reading(
                                            *parse_card(c["card"]), c["confidence"]),
                                        c["confidence"], c["whole"]) for c in cards]
        named = [o.name for o in within_deck(observations) if o.name is not None]
        kept = [c["card"] for c, keep in zip(cards, deck_kept(cards), strict=True)
                if keep and c["card"] is not None]
        assert sorted(kept) == sorted(named)


@pytest.fixture(scope="module")
def candidates(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Candidates of rendered scenes of two designs at the table's two card sizes."""
    root = tmp_path_factory.mktemp("scenes")
    for design in ("artwork", "plain"):
        for length in (140.0, 95.0):
            render_scenes(root, design, length, 4, seed=7)
    out = root / "candidates.jsonl"
    collect(root, out, None)
    return out, root


def test_every_name_of_rendered_scenes_is_labelled_by_the_scorers_matching(
        candidates: tuple[Path, Path]) -> None:
    out, root = candidates
    rows = list(labelled_candidates(out, root))
    lines = [json.loads(text) for text in out.read_text().splitlines()]
    cards = [card for line in lines for card in line["cards"]]
    names = sum(card["card"] is not None and kept for line in lines
                for card, kept in zip(line["cards"], deck_kept(line["cards"]), strict=True))
    assert len(rows) == names > 40
    assert sum(right for *_, right in rows) >= 0.8 * len(rows)
    assert {row[1] for row in rows} == {"artwork_140", "artwork_95", "plain_140", "plain_95"}
    everything = list(labelled_candidates(out, root, proposed=True))
    proposed = sum("proposal" in card for card in cards)
    assert proposed > 0
    assert len(everything) == names + proposed


def test_a_fitted_decision_loads_and_is_measured_old_against_new(
        candidates: tuple[Path, Path]) -> None:
    out, root = candidates
    manifest = fit([(out, root)], penalty=1.0)
    decision = decision_of(manifest)
    assert 0.0 < decision.threshold <= 1.0
    rows = list(measure([(out, root)], decision))
    assert len(rows) == 1 + 4 + 1
    with pytest.raises(DecisionFileError):
        decision_of(dict(manifest, features=list(reversed(FEATURES))))
    with pytest.raises(DecisionFileError):
        decision_of(dict(manifest, weights=[1.0]))


def test_a_cue_that_would_count_the_wrong_way_is_left_out_and_the_others_kept() -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(size=(3000, len(FEATURES)))
    high, low = FEATURES.index("card_high"), FEATURES.index("card_low")
    # Right names here have the network's weaker end lower: against the cue's known sign.
    y = (2.0 * x[:, high] - 1.0 * x[:, low] + 0.3 * rng.normal(size=3000) > 0).astype(float)
    unconstrained, _ = fit_logistic(x, y)
    assert unconstrained[low] < 0
    _, _, weights, _ = standardised_fit(x, y, penalty=1.0)
    assert weights[low] == 0.0
    assert weights[high] > 0
    assert all(weights[k] * SIGNS[name] >= 0 for k, name in enumerate(FEATURES))
