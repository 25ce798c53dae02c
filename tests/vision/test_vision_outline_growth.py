"""An unread card whose index views are blurred is read again from its outline moved outward."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.glyphs_only import glyph_config
from tools.synthetic import artwork_cards
from vision.cards import Image, Quad, Reading
from vision.deblur import edge_width
from vision.deblur_outline import grown_outline, long_side, short_side
from vision.glyphs import index_views
from vision.model import GlyphModel
from vision.read import read_outline, read_views

ARTWORK = Path(__file__).resolve().parents[2] / "vision" / "data" / "artwork"
CARD_WIDTH = 140
TABLE = 90
BORDER = 30


def _face(name: str) -> Image:
    faces = dict(artwork_cards(ARTWORK))
    assert name in faces, f"no artwork face {name} in {ARTWORK}"
    return faces[name]


def _on_table(name: str, sigma: float, inset: float) -> tuple[Image, Quad]:
    """An artwork card at a webcam card's width on a grey table, blurred by a Gaussian of
    `sigma` pixels, and its outline `inset` pixels inside its edge (as found on a blurred
    edge)."""
    face = _face(name)
    height = round(face.shape[0] * CARD_WIDTH / face.shape[1])
    card = cv2.resize(face, (CARD_WIDTH, height), interpolation=cv2.INTER_AREA)
    frame = np.full((height + 2 * BORDER, CARD_WIDTH + 2 * BORDER, 3), TABLE, np.uint8)
    frame[BORDER : BORDER + height, BORDER : BORDER + CARD_WIDTH] = card
    if sigma:
        frame = cv2.GaussianBlur(frame, (0, 0), sigma)
    x0, y0 = BORDER + inset, BORDER + inset
    x1, y1 = BORDER + CARD_WIDTH - 1 - inset, BORDER + height - 1 - inset
    quad = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    return frame, quad


def _name(reading: Reading | None) -> str | None:
    return None if reading is None else reading.rank.value + (reading.suit.value
                                                             if reading.suit else "")


def test_grown_outline_moves_every_side_out_by_the_distance() -> None:
    square = np.array([[10, 20], [110, 20], [110, 170], [10, 170]], np.float32)
    grown = grown_outline(square, 3.0)
    np.testing.assert_allclose(grown, [[7, 17], [113, 17], [113, 173], [7, 173]], atol=1e-4)
    assert short_side(grown) == pytest.approx(short_side(square) + 6.0)
    assert long_side(grown) == pytest.approx(long_side(square) + 6.0)


@pytest.mark.parametrize("turn", [0, 1, 2, 3])
def test_a_quads_sides_are_measured_whichever_corner_comes_first(turn: int) -> None:
    slanted = np.array([[0, 0], [100, 10], [90, 160], [-10, 150]], np.float32)
    quad = np.roll(slanted, turn, axis=0)
    assert short_side(quad) == pytest.approx(float(np.hypot(100, 10)))
    assert long_side(quad) == pytest.approx(float(np.hypot(10, 150)))


def test_grown_outline_of_a_turned_card_keeps_its_shape() -> None:
    square = np.array([[10, 20], [110, 20], [110, 170], [10, 170]], np.float64)
    turn = cv2.getRotationMatrix2D((60.0, 95.0), 30.0, 1.0)
    turned = (square @ turn[:, :2].T + turn[:, 2]).astype(np.float32)
    grown = grown_outline(turned, 4.0)
    sides = np.linalg.norm(grown - np.roll(grown, -1, axis=0), axis=1)
    np.testing.assert_allclose(sorted(sides), [108, 108, 158, 158], atol=1e-3)


@pytest.mark.parametrize(("name", "sigma", "inset"), [("KC", 1.0, 2.0), ("JH", 1.5, 0.0)])
def test_blurred_rendered_card_outlined_inside_its_edge_is_read_grown(
        name: str, sigma: float, inset: float) -> None:
    model = GlyphModel.load()
    config = glyph_config()
    frame, quad = _on_table(name, sigma, inset)
    assert read_views(index_views(frame, quad, config), model, config)[0] is None
    assert _name(read_outline(frame, quad, model, config)[0]) == name
    off = replace(config, blurred_outline_growth=0.0)
    assert read_outline(frame, quad, model, off)[0] is None


def test_sharp_unread_card_is_not_grown(monkeypatch: pytest.MonkeyPatch) -> None:
    # Sharp, but outlined 6 px inside its edge: the nine's index shows, cut, and reads nothing.
    frame, quad = _on_table("9C", sigma=0.0, inset=6.0)
    measured: list[float] = []

    def measuring(view: Image) -> float:
        measured.append(edge_width(view))
        return measured[-1]

    def no_growth(corners: Quad, distance: float) -> Quad:
        raise AssertionError(f"a sharp card's outline was grown by {distance:.1f} px")

    monkeypatch.setattr("vision.read.edge_width", measuring)
    monkeypatch.setattr("vision.read.grown_outline", no_growth)
    reading, _ = read_outline(frame, quad, GlyphModel.load(), glyph_config())
    assert reading is None
    assert measured
    assert max(measured) < glyph_config().sharpen_min_edge_width


def test_grown_outlines_read_no_rendered_card_wrongly_that_the_outline_did_not() -> None:
    model = GlyphModel.load()
    config = glyph_config()
    gained = 0
    for name in ("9C", "AD", "JH", "JS", "QH", "KC", "TC", "TH", "KS"):
        for sigma, inset in ((1.0, 0.0), (1.0, 2.0), (1.5, 0.0)):
            frame, quad = _on_table(name, sigma, inset)
            plain = _name(read_views(index_views(frame, quad, config), model, config)[0])
            grown = _name(read_outline(frame, quad, model, config)[0])
            if grown != plain:
                assert plain is None and grown == name
                gained += 1
    assert gained >= 2
