"""Frame lines joined to index glyphs are cut out before the glyphs are labelled."""

from __future__ import annotations

import cv2
import numpy as np

from tools.synthetic import suit_shape
from vision.config import VisionConfig
from vision.glyphs import frame_lines, split_index
from vision.model import GlyphModel
from vision.read import read_corner

INK = (20, 20, 20)


def _court_corner(line_x: int, slant: int) -> np.ndarray:
    """A 44x102 corner view of a court card: a 'K' and a spade, and the picture's frame (a
    thin line from the frame's top corner down the view, leaning `slant` pixels) at `line_x`
    of the 88-pixel-wide drawing, where it touches the glyphs."""
    view = np.full((204, 88, 3), 245, np.uint8)
    cv2.putText(view, "K", (6, 60), cv2.FONT_HERSHEY_COMPLEX, 1.6, INK, 3, cv2.LINE_AA)
    shape = cv2.resize(suit_shape("S", 0.9), (34, 40), interpolation=cv2.INTER_AREA)
    view[80:120, 8:42][shape > 127] = INK
    cv2.line(view, (line_x, 40), (line_x + slant, 204), INK, 3, cv2.LINE_AA)
    cv2.line(view, (line_x, 40), (88, 40), INK, 3, cv2.LINE_AA)
    return cv2.resize(view, (44, 102), interpolation=cv2.INTER_AREA)


def test_glyphs_touching_a_frame_line_are_read() -> None:
    config = VisionConfig()
    for line_x, slant in ((43, 0), (42, 4), (44, -3)):
        view = _court_corner(line_x, slant)
        glyphs = split_index(view, config)
        assert glyphs is not None
        reading = read_corner(glyphs, GlyphModel.load(), config)
        assert reading is not None
        assert (reading.rank.label, reading.suit.label) == ("K", "S")


def test_only_the_line_is_taken_as_a_frame_line() -> None:
    view = _court_corner(43, 2)
    ink = (view.min(axis=2) < 128).astype(np.uint8) * 255
    lines = frame_lines(ink)
    columns = np.nonzero(lines.any(axis=0))[0]
    # The line runs down from row 20 near columns 21-23, touching the K and the spade on its
    # left: no more than a sliver of them goes with it.
    assert columns.size and columns.min() >= 19 and columns.max() <= 25
    assert np.count_nonzero(lines[60:]) > 0.9 * np.count_nonzero(ink[60:, 21:25])
    assert np.count_nonzero(lines) < 1.3 * np.count_nonzero(ink[:, 21:25])


def test_a_broad_picture_is_no_frame_line() -> None:
    view = np.zeros((102, 44), np.uint8)
    view[30:, 25:44] = 255
    view[10:95, 5:8] = 255
    lines = frame_lines(view)
    assert not np.any(lines[:, 25:])
    assert np.count_nonzero(lines[:, 5:8]) > 0.9 * np.count_nonzero(view[:, 5:8])
