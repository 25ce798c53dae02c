"""Ink colour is judged relative to the ink's depth: pale red print still counts as red."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tools.synthetic import suit_shape
from vision.config import VisionConfig
from vision.glyphs import split_index
from vision.read import BLACK_SUITS, RED_SUITS, suits_for_colour

PAPER = (252, 251, 250)


def _pale_corner(ink: tuple[int, int, int], suit: str) -> np.ndarray:
    """A 44x102 corner view printed faintly (as a washed-out photo shows it), slightly blurred."""
    view = np.full((204, 88, 3), PAPER, np.uint8)
    cv2.putText(view, "J", (10, 60), cv2.FONT_HERSHEY_COMPLEX, 1.6, ink, 3, cv2.LINE_AA)
    shape = cv2.resize(suit_shape(suit, 0.9), (36, 40), interpolation=cv2.INTER_AREA)
    view[80:120, 10:46][shape > 127] = ink
    view = cv2.GaussianBlur(view, (5, 5), 1.5)
    return cv2.resize(view, (44, 102), interpolation=cv2.INTER_AREA)


@pytest.mark.parametrize(("ink", "suit", "allowed"), [
    ((208, 189, 243), "H", RED_SUITS),   # washed-out red: pink with a bluish cast
    ((150, 140, 235), "D", RED_SUITS),
    ((40, 30, 200), "H", RED_SUITS),     # full red
    ((200, 200, 200), "S", BLACK_SUITS),  # washed-out black: grey
    ((215, 205, 200), "C", BLACK_SUITS),  # grey with a bluish cast
    ((30, 30, 30), "C", BLACK_SUITS),
])
def test_ink_colour_is_judged_by_hue_not_depth(ink: tuple[int, int, int], suit: str,
                                               allowed: frozenset[str]) -> None:
    config = VisionConfig()
    glyphs = split_index(_pale_corner(ink, suit), config)
    assert glyphs is not None
    assert suits_for_colour(glyphs.redness, config) == allowed
