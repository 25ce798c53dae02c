"""Two unsure loose-corner readings that agree, at two corners of one card, confirm each other."""

from __future__ import annotations

import numpy as np
import pytest

from vision.cards import CardObservation, Rank, Reading, Suit
from vision.config import VisionConfig
from vision.pipeline import CornerRead, agreeing_pairs

UPRIGHT = ((1.0, 0.0), (0.0, 1.0))
UPSIDE_DOWN = ((-1.0, 0.0), (0.0, -1.0))


def _corner(name: str, tip: tuple[float, float], confidence: float, right: bool = False,
            axes: tuple[tuple[float, float], ...] = UPRIGHT) -> CornerRead:
    """A loose reading at a corner tip: its index view starts there (a top-left corner) or ends
    there (a top-right one), 44 by 102 pixels, on a card 200 pixels wide."""
    across, down = (np.array(axis, np.float32) for axis in axes)
    origin = np.array(tip, np.float32) - (across * 44 if right else 0)
    outline = np.array([origin, origin + across * 44, origin + across * 44 + down * 102,
                        origin + down * 102], np.float32)
    reading = Reading(Rank(name[0]), Suit(name[1]), confidence)
    return CardObservation(outline, reading, confidence, whole=False), np.array(tip), 200.0


def test_two_unsure_corners_of_one_side_make_one_sure_reading() -> None:
    left = _corner("KH", (100, 100), 0.40)
    right = _corner("KH", (290, 100), 0.45, right=True)
    pairs = agreeing_pairs([left, right], VisionConfig())
    assert [o.name for o, _, _ in pairs] == ["KH"]
    assert pairs[0][0].confidence == pytest.approx(0.45 / 0.85 + 0.2, abs=1e-3)
    assert pairs[0][0].confidence >= VisionConfig().min_loose_confidence


def test_unsure_readings_at_opposite_corners_of_one_card_confirm_each_other() -> None:
    top_left = _corner("9S", (100, 100), 0.42)
    bottom_right = _corner("9S", (300, 400), 0.4, axes=UPSIDE_DOWN)
    pairs = agreeing_pairs([bottom_right, top_left], VisionConfig())
    assert [(o.name, o.confidence) for o, _, _ in pairs] == [("9S", round(0.42 / 0.85 + 0.2, 3))]
    assert np.allclose(pairs[0][1], (100, 100))


@pytest.mark.parametrize(
    "other",
    [
        _corner("QH", (290, 100), 0.45, right=True),  # another name
        _corner("KH", (106, 103), 0.45),  # the same corner, seen twice
        _corner("KH", (600, 100), 0.45, right=True),  # too far apart for one card
        _corner("KH", (100, 290), 0.45),  # not along the index line
        _corner("KH", (290, 100), 0.45, axes=UPSIDE_DOWN),  # looking the other way
        _corner("KH", (300, 700), 0.45, axes=UPSIDE_DOWN),  # upside down, but another card
    ],
)
def test_corners_that_do_not_make_one_card_side_stay_unsure(other: CornerRead) -> None:
    left = _corner("KH", (100, 100), 0.40)
    assert agreeing_pairs([left, other], VisionConfig()) == []


def test_a_pair_too_unsure_together_stays_unsure() -> None:
    left, right = _corner("KH", (100, 100), 0.2), _corner("KH", (290, 100), 0.25, right=True)
    assert agreeing_pairs([left, right], VisionConfig()) == []
