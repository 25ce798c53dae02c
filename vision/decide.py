"""The calibrated decision: one probability that a name is right, from its evidence."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from vision.cards import CardObservation, Image, Reading
from vision.config import VisionConfig
from vision.deck_faces import DeckFaces
from vision.deck_match import DeckMatcher, matcher_for, touched
from vision.errors import VisionError
from vision.evidence import FEATURES, Evidence, as_vector, frame_evidence, log_odds
from vision.learned import COURTS, shipped_reader
from vision.learned_first import LearnedViews

DECISION_PATH = Path(__file__).resolve().parent / "data" / "decision.json"
EVEN_ODDS = 0.5
"""The probability of a name held in doubt (`decided`): below the table's threshold."""


class DecisionFileError(VisionError, OSError):
    """The decision's manifest is missing or does not match the evidence."""


@dataclass(frozen=True)
class Decision:
    """A logistic regression over `vision.evidence.FEATURES`, its calibration curve and the
    threshold the table names from."""

    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float
    curve_scores: np.ndarray
    """The model's scores at which the calibrated probability is known (ascending)."""
    curve_probabilities: np.ndarray
    threshold: float
    """The calibrated probability from which the table takes a name."""

    def score(self, evidence: Evidence) -> float:
        """The model's log-odds for the evidence, before calibration."""
        standard = (as_vector(evidence) - self.mean) / self.scale
        return float(standard @ self.weights + self.bias)

    def calibrated(self, score: float) -> float:
        """The calibrated probability of a model score (`score`)."""
        return float(np.interp(score, self.curve_scores, self.curve_probabilities))

    def probability(self, evidence: Evidence) -> float:
        """The calibrated probability that the name the evidence backs is right."""
        return self.calibrated(self.score(evidence))


def decision_of(manifest: dict[str, Any]) -> Decision:
    """A Decision from its manifest; raises DecisionFileError where it does not match."""
    try:
        if tuple(manifest["features"]) != FEATURES:
            raise DecisionFileError("the decision's features are not the evidence's")
        curve = manifest["calibration"]
        decision = Decision(
            np.asarray(manifest["mean"], np.float64), np.asarray(manifest["scale"], np.float64),
            np.asarray(manifest["weights"], np.float64), float(manifest["bias"]),
            np.asarray(curve["scores"], np.float64),
            np.asarray(curve["probabilities"], np.float64), float(manifest["threshold"]))
    except (KeyError, TypeError, ValueError) as error:
        raise DecisionFileError(f"the decision's manifest is malformed: {error!r}") from error
    size = len(FEATURES)
    if (decision.mean.shape != (size,) or decision.scale.shape != (size,)
            or decision.weights.shape != (size,)
            or decision.curve_scores.shape != decision.curve_probabilities.shape
            or decision.curve_scores.size < 2):
        raise DecisionFileError("the decision's arrays have the wrong sizes")
    return decision


def load_decision(path: Path = DECISION_PATH) -> Decision:
    """The decision shipped at `path`."""
    try:
        manifest = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise DecisionFileError(f"cannot load the decision {str(path)!r}: {error}") from error
    return decision_of(manifest)


@cache
def shipped_decision() -> Decision:
    """The decision shipped in vision/data, loaded once."""
    return load_decision()


def shipped_threshold() -> float:
    """The calibrated probability from which the table takes a name (the shipped decision's)."""
    return shipped_decision().threshold


def decided(frame: Image, observations: Sequence[CardObservation], config: VisionConfig,
            settled: Sequence[CardObservation] = (), deck: DeckFaces | None = None,
            scores: LearnedViews | None = None) -> list[CardObservation]:
    """The observations with each name's confidence the shipped decision's calibrated
    probability that it is right, from the evidence the frame gives (its reading keeps the
    confidence of the stage that read it); observations that are one of `settled` (decided when
    first read) are left as they are.

    The decision was fitted without an enrolled deck (`deck`): a whole card the enrolled faces
    surely name as the name given (`DeckMatcher.is_sure`) carries evidence it has no cue for,
    and is given at least the decision's threshold, as the known-deck stage gives it at least
    the table's cut."""
    fresh = [not any(o is s for s in settled) for o in observations]
    decision = shipped_decision()
    support = log_odds((scores.reader if scores is not None else shipped_reader()).rule.support)
    matcher = matcher_for(deck) if deck is not None and len(deck) else None
    out = list(observations)
    for k, evidence in enumerate(frame_evidence(frame, observations, config, fresh, scores)):
        observation = observations[k]
        if evidence is None or observation.reading is None:
            continue
        probability = name_probability(decision, observation.reading, evidence, support)
        if (matcher is not None and observation.whole and probability < decision.threshold
                and _enrolled_as(matcher, frame, observations, k)):
            probability = decision.threshold
        out[k] = replace(observation, confidence=probability)
    return out


def name_probability(decision: Decision, reading: Reading, evidence: Evidence,
                     support: float) -> float:
    """The calibrated probability that the `reading`'s name is right, from its evidence; a
    court card's name that rests on its index glyphs alone (`on_glyphs_alone`) is held at even
    odds. The regression's card-network cue for a court is its support for any court of the suit
    (no network tells apart the figures of a deck never seen), so it has no cue that says no
    reader but the glyphs backs the rank: a German deck's jack, "B", read as the queen was
    taken."""
    probability = round(decision.probability(evidence), 6)
    return (min(probability, EVEN_ODDS) if on_glyphs_alone(reading, evidence, support)
            else probability)


def on_glyphs_alone(reading: Reading, evidence: Evidence, support: float) -> bool:
    """Whether a jack, queen or king is named on its index glyphs alone: the card network gives
    the name less than its support (`support`, log-odds: `vision.learned.Rule.support`) at its
    surer end and another first choice at an end, and the index network less than even odds at
    its surer end."""
    return (reading.rank.value in COURTS and evidence["card_agree"] == 0.0
            and evidence["card_high"] < support and evidence["index_high"] < 0.0)


def _enrolled_as(matcher: DeckMatcher, frame: Image, observations: Sequence[CardObservation],
                 k: int) -> bool:
    """Whether the enrolled deck's faces surely name observation `k`'s card as it is named, in
    its own outline, no other whole outline sharing area with it (`deck_match.touched`)."""
    observation = observations[k]
    if touched(k, observations):
        return False
    match = matcher.match(frame, observation.corners)
    return match is not None and match.name == observation.name and matcher.is_sure(match)
