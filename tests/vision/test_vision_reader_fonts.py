"""The reader's font-rendered glyphs, the labels that are no card, and fine index warps."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from tools.glyph_fonts import (
    RANK_FONTS,
    SUIT_FONTS,
    FontMissingError,
    blobs,
    find_font,
    font_ranks,
    font_suits,
    render_text,
    require_font,
    slender_suits,
)
from tools.scenes import paste_card, table_background
from tools.synthetic import suit_shape
from vision.config import VisionConfig
from vision.glyphs import index_views, split_index
from vision.model import GlyphModel
from vision.read import BLOB, read_corner, read_outline

MISSING = [name for name in (*RANK_FONTS, *SUIT_FONTS) if find_font(name) is None]
needs_fonts = pytest.mark.skipif(bool(MISSING), reason=f"fonts not installed: {MISSING}")


def _view(rank_text: str, below: np.ndarray) -> np.ndarray:
    """An upright 88x204 corner view: a Hershey rank with the given glyph mask below it."""
    view = np.full((204, 88, 3), 245, np.uint8)
    cv2.putText(view, rank_text, (10, 66), cv2.FONT_HERSHEY_DUPLEX, 2.0, (20, 20, 20), 5,
                cv2.LINE_AA)
    shape = cv2.resize(below, (44, 48), interpolation=cv2.INTER_AREA)
    view[88:136, 14:58][shape > 127] = (20, 20, 20)
    return view


def test_the_repository_font_renders_a_cropped_glyph() -> None:
    path = find_font("DejaVuSans-Bold.ttf")
    assert path is not None
    glyph = render_text(path, "K", 96)
    assert glyph.dtype == np.uint8 and set(np.unique(glyph).tolist()) == {0, 255}
    # Cropped to the ink: every border row and column holds some.
    assert glyph[0].any() and glyph[-1].any() and glyph[:, 0].any() and glyph[:, -1].any()


@needs_fonts
def test_font_ranks_cover_every_rank_and_the_german_letters() -> None:
    labels = {label for label, _ in font_ranks(32, np.random.default_rng(0), per_weight=1)}
    assert set("9TJQKA") <= labels and "1" in labels


@needs_fonts
def test_font_suits_and_blobs_are_square_glyphs() -> None:
    rng = np.random.default_rng(0)
    found = [*font_suits(32, rng, per_weight=1), *blobs(32, rng, count=3)]
    assert {label for label, _ in found} == {*"CDHS", BLOB}
    assert all(glyph.shape == (32, 32) and glyph.any() for _, glyph in found)


def test_slender_clubs_and_spades_are_one_piece_each() -> None:
    found = list(slender_suits(32, np.random.default_rng(3), count=4))
    assert {label for label, _ in found} == {"C", "S"}
    for _, glyph in found:
        assert cv2.connectedComponents((glyph > 127).astype(np.uint8), connectivity=8)[0] == 2


def test_a_thin_stemmed_club_is_read_as_a_club() -> None:
    model, config = GlyphModel.load(), VisionConfig()
    club = np.zeros((130, 120), np.uint8)
    for centre in ((60, 30), (36, 62), (84, 62)):
        cv2.circle(club, centre, 17, 255, -1)
    cv2.circle(club, (60, 52), 8, 255, -1)
    cv2.rectangle(club, (59, 60), (61, 112), 255, -1)
    cv2.fillPoly(club, [np.array([[60, 92], [48, 115], [72, 115]], np.int32)], 255)
    glyphs = split_index(_view("K", club), config)
    assert glyphs is not None
    reading = read_corner(glyphs, model, config)
    assert reading is not None and (reading.rank.label, reading.suit.label) == ("K", "C")
    assert reading.confidence >= 0.9


def test_a_lone_one_is_not_read_as_a_rank() -> None:
    model, config = GlyphModel.load(), VisionConfig()
    spade = suit_shape("S", 0.9)
    king = split_index(_view("K", spade), config)
    one = split_index(_view("1", spade), config)
    assert king is not None and one is not None
    reading = read_corner(king, model, config)
    assert reading is not None and reading.rank.label == "K"
    assert read_corner(one, model, config) is None


def test_a_round_lobe_below_the_rank_is_no_suit() -> None:
    model, config = GlyphModel.load(), VisionConfig()
    lobe = np.zeros((120, 120), np.uint8)
    cv2.ellipse(lobe, (60, 60), (55, 40), 0, 0, 360, 255, -1)
    glyphs = split_index(_view("K", lobe), config)
    assert glyphs is not None
    assert read_corner(glyphs, model, config) is None


def _large_card_frame() -> tuple[np.ndarray, np.ndarray]:
    """A 1600x1200 frame with one large card whose index is written in thin strokes."""
    face = np.full((1015, 700, 3), 250, np.uint8)
    index = np.full((300, 140, 3), 250, np.uint8)
    cv2.putText(index, "A", (12, 110), cv2.FONT_HERSHEY_COMPLEX, 3.4, (25, 25, 25), 3,
                cv2.LINE_AA)
    shape = cv2.resize(suit_shape("C", 0.9), (80, 88), interpolation=cv2.INTER_AREA)
    index[140:228, 24:104][shape > 127] = (25, 25, 25)
    face[12:312, 10:150] = index
    face[-312:-12, -150:-10] = cv2.rotate(index, cv2.ROTATE_180)
    frame = table_background(1600, 1200, seed=5)
    quad = paste_card(frame, face, (800, 600), 1000, angle=12)
    return frame, quad


def test_a_large_card_is_warped_finer_and_read() -> None:
    frame, quad = _large_card_frame()
    config = VisionConfig()
    views = index_views(frame, quad, config)
    nominal = (round(config.index_height * config.card_height),
               round(config.index_width * config.card_width))
    assert views[0].shape[:2] == (nominal[0] * 3, nominal[1] * 3)
    coarse = index_views(frame, quad, replace(config, max_index_zoom=1))
    assert coarse[0].shape[:2] == nominal
    reading = read_outline(frame, quad, GlyphModel.load(), config)[0]
    assert reading is not None
    assert (reading.rank.value, reading.suit.value) == ("A", "C")


def test_a_missing_font_is_named_in_the_error() -> None:
    with pytest.raises(FontMissingError, match=r"NoSuchFont\.ttf"):
        require_font("NoSuchFont.ttf")
    assert issubclass(FontMissingError, FileNotFoundError)
