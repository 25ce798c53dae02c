"""Index glyph shapes: a ten needs a '0' with a hole; German B and D indices read as J and Q."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.config import VisionConfig
from vision.glyphs import split_index
from vision.model import GlyphModel
from vision.read import read_corner
from vision.synthetic import suit_shape


def _corner(text: str, suit: str = "S") -> np.ndarray:
    """An upright 44x102 corner view: serif index text with a drawn suit below it."""
    view = np.full((204, 88, 3), 245, np.uint8)
    cv2.putText(view, text, (6, 60), cv2.FONT_HERSHEY_COMPLEX, 1.6 if len(text) == 1 else 1.15,
                (20, 20, 20), 3, cv2.LINE_AA)
    shape = cv2.resize(suit_shape(suit, 0.9), (36, 40), interpolation=cv2.INTER_AREA)
    view[80:120, 14:50][shape > 127] = (20, 20, 20)
    return cv2.resize(view, (44, 102), interpolation=cv2.INTER_AREA)


def test_ten_is_ten_shaped() -> None:
    glyphs = split_index(_corner("10"), VisionConfig())
    assert glyphs is not None
    assert glyphs.rank_parts == 2 and glyphs.ten_shaped


def test_letter_broken_at_its_stem_is_not_a_ten() -> None:
    view = _corner("D")
    # Cut the D between its stem and its bowl, as thin serif joints break on worn prints.
    ink = np.nonzero((view[:40].min(axis=2) < 128).any(axis=0))[0]
    view[:40, ink.min() + 5] = 245
    glyphs = split_index(view, VisionConfig())
    assert glyphs is not None
    assert glyphs.rank_parts == 2 and not glyphs.ten_shaped
    assert read_corner(glyphs, GlyphModel.load(), VisionConfig()) is None


@pytest.mark.parametrize(("letter", "rank"), [("B", "J"), ("D", "Q")])
def test_german_letters_read_as_jack_and_queen(letter: str, rank: str) -> None:
    glyphs = split_index(_corner(letter), VisionConfig())
    assert glyphs is not None
    reading = read_corner(glyphs, GlyphModel.load(), VisionConfig())
    assert reading is not None
    assert (reading.rank.label, reading.suit.label) == (rank, "S")
