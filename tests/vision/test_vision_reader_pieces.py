"""Rank glyphs in pieces (a ten, a ten run into a pip, an index at the right); corners with one
edge cut short."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from tools.synthetic import suit_shape
from vision.config import CornerFinderConfig, VisionConfig
from vision.corners import find_corners
from vision.detect import MaskSet
from vision.glyphs import split_index
from vision.model import GlyphModel
from vision.read import read_corner


def _notched_card_mask() -> MaskSet:
    """A card-sized light region whose left edge below the top-left corner runs only 20 px
    before the region turns inwards, as where an index pip meets the card's edge."""
    mask = np.zeros((300, 260), np.uint8)
    outline = np.array([[50, 50], [150, 50], [150, 200], [50, 200], [50, 130], [90, 110],
                        [90, 90], [50, 70]], np.int32)
    cv2.fillPoly(mask, [outline], 255)
    return MaskSet([mask], scale=1.0, pad=0)


def _tips(config: VisionConfig) -> list[tuple[int, int]]:
    corners = find_corners(_notched_card_mask(), config, card_width=100.0)
    return [(round(float(c.tip[0])), round(float(c.tip[1]))) for c in corners]


def test_a_corner_with_one_short_edge_is_found() -> None:
    config = replace(VisionConfig(), corner_finder=CornerFinderConfig(masks=3))
    assert (50, 50) in _tips(config)
    stricter = replace(config.corner_finder, short_edge=1.0)
    assert (50, 50) not in _tips(replace(config, corner_finder=stricter))


def _drawn_index(text: str, x: int, font: int, scale: float, suit: str,
                 box: tuple[int, int, int, int], ink: tuple[int, int, int]) -> np.ndarray:
    """An upright 88x204 corner view: `text` at `x`, the suit drawn in `box` (x0, y0, x1, y1)."""
    view = np.full((204, 88, 3), 245, np.uint8)
    cv2.putText(view, text, (x, 60), font, scale, (20, 20, 20), 4, cv2.LINE_AA)
    x0, y0, x1, y1 = box
    shape = cv2.resize(suit_shape(suit, 0.9), (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    view[y0:y1, x0:x1][shape > 127] = ink
    return view


def test_an_index_at_the_right_of_a_view_is_found_unmirrored() -> None:
    # A top-right corner of a trick pile's covered card: its index sits at the view's right.
    view = _drawn_index("K", 52, cv2.FONT_HERSHEY_DUPLEX, 1.6, "S", (52, 80, 80, 112), (20, 20, 20))
    config = VisionConfig()
    glyphs = split_index(view, config)
    assert glyphs is not None
    reading = read_corner(glyphs, GlyphModel.load(), config)
    assert reading is not None
    assert (reading.rank.label, reading.suit.label) == ("K", "S")
    # The same index at the left gives the same glyphs.
    left = split_index(np.ascontiguousarray(np.roll(view, -44, axis=1)), config)
    assert left is not None
    assert np.array_equal(left.rank, glyphs.rank) and np.array_equal(left.suit, glyphs.suit)


def test_a_ten_shaped_glyph_is_weighed_against_no_other_rank() -> None:
    view = _drawn_index("10", 8, cv2.FONT_HERSHEY_COMPLEX, 1.5, "H", (12, 80, 48, 120),
                        (30, 30, 200))
    config = VisionConfig()
    glyphs = split_index(view, config)
    assert glyphs is not None and glyphs.ten_shaped
    reading = read_corner(glyphs, GlyphModel.load(), config)
    assert reading is not None
    assert (reading.rank.label, reading.suit.label) == ("T", "H")
    # No other label competes, so the whole similarity is the margin.
    assert reading.rank.margin == reading.rank.similarity


def test_a_ten_whose_zero_ran_into_a_large_pip_is_a_ten() -> None:
    view = np.full((204, 88, 3), 245, np.uint8)
    ink = (30, 30, 200)
    cv2.rectangle(view, (6, 9), (10, 45), ink, -1)
    cv2.ellipse(view, (24, 32), (9, 18), 0, 0, 360, ink, 5)
    # A pip of the card's face touches the '0' on its right.
    cv2.circle(view, (44, 48), 12, ink, -1)
    shape = cv2.resize(suit_shape("H", 0.9), (30, 32), interpolation=cv2.INTER_AREA)
    view[76:108, 6:36][shape > 127] = ink
    glyphs = split_index(view, VisionConfig())
    assert glyphs is not None
    assert glyphs.rank_parts == 2 and glyphs.ten_shaped
    reading = read_corner(glyphs, GlyphModel.load(), VisionConfig())
    assert reading is not None and (reading.rank.label, reading.suit.label) == ("T", "H")
