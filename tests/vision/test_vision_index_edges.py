"""A strip of the card's edge (or the table) in a top corner of an index view is no glyph."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tools.synthetic import suit_shape
from vision.config import VisionConfig
from vision.glyphs import split_index
from vision.model import GlyphModel
from vision.read import read_corner

RED = (30, 30, 200)


def _corner_past_the_edge(strip: int, mirrored: bool = False) -> np.ndarray:
    """A 44x102 corner view of a '9' and a diamond whose outline was found a little outside the
    card: a dark strip `strip` pixels wide (of the 88-pixel drawing) runs down its left side
    from the top (its right side when `mirrored`)."""
    view = np.full((204, 88, 3), 245, np.uint8)
    cv2.putText(view, "9", (18, 64), cv2.FONT_HERSHEY_COMPLEX, 1.6, RED, 3, cv2.LINE_AA)
    shape = cv2.resize(suit_shape("D", 0.9), (32, 40), interpolation=cv2.INTER_AREA)
    view[84:124, 16:48][shape > 127] = RED
    view[:60, : 4 + strip] = (60, 50, 45)
    if mirrored:
        view = np.ascontiguousarray(view[:, ::-1])
    return cv2.resize(view, (44, 102), interpolation=cv2.INTER_AREA)


@pytest.mark.parametrize("strip", [4, 8, 12])
def test_index_beside_the_card_edge_is_read(strip: int) -> None:
    config = VisionConfig()
    glyphs = split_index(_corner_past_the_edge(strip), config)
    assert glyphs is not None
    reading = read_corner(glyphs, GlyphModel.load(), config)
    assert reading is not None
    assert (reading.rank.label, reading.suit.label) == ("9", "D")


def test_index_at_the_right_beside_the_card_edge_is_found() -> None:
    glyphs = split_index(_corner_past_the_edge(8, mirrored=True), VisionConfig())
    assert glyphs is not None
    assert glyphs.rank_parts == 1
    # The rank is the mirrored '9' (an upright glyph), not the edge strip (a thin bar).
    ink_rows = np.nonzero(glyphs.rank.any(axis=1))[0]
    ink_cols = np.nonzero(glyphs.rank.any(axis=0))[0]
    assert ink_cols.size > 0.4 * ink_rows.size
