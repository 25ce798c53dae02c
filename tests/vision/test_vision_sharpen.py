"""Blurred indices are unsharp-masked and read again; sharp ones are left alone."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.glyphs_only import glyph_config
from tools.synthetic import artwork_cards
from vision.cards import Image
from vision.deblur import edge_width, sharpened
from vision.glyphs import index_views
from vision.model import GlyphModel
from vision.read import read_views

CARD_WIDTH = 140


def _artwork(shared_dir: Path) -> list[tuple[str, Image]]:
    cards = list(artwork_cards(shared_dir / "vision" / "artwork"))
    if not cards:
        pytest.skip("no artwork")
    return cards


def _views(face: Image, sigma: float) -> list[Image]:
    """The index views of an artwork face shrunk to a webcam card's width and blurred by a
    Gaussian kernel of `sigma` pixels (0: not blurred)."""
    height, width = face.shape[:2]
    small = cv2.resize(face, (CARD_WIDTH, round(height * CARD_WIDTH / width)),
                       interpolation=cv2.INTER_AREA)
    if sigma:
        small = cv2.GaussianBlur(small, (0, 0), sigma)
    bottom = small.shape[0] - 1
    quad = np.array([[0, 0], [CARD_WIDTH - 1, 0], [CARD_WIDTH - 1, bottom], [0, bottom]],
                    np.float32)
    return index_views(small, quad, glyph_config())


def test_edge_width_tells_blurred_views_from_sharp_ones(shared_dir: Path) -> None:
    config = glyph_config()
    for _, face in _artwork(shared_dir)[::4]:
        assert max(edge_width(v) for v in _views(face, 0.0)) < config.sharpen_min_edge_width
        assert min(edge_width(v) for v in _views(face, 1.5)) >= config.sharpen_min_edge_width


def test_sharpening_steepens_a_blurred_view(shared_dir: Path) -> None:
    _, face = _artwork(shared_dir)[0]
    view = _views(face, 1.5)[0]
    assert edge_width(sharpened(view, glyph_config())) < edge_width(view)


def test_blurred_artwork_corners_read_more_and_never_wrong(shared_dir: Path) -> None:
    model = GlyphModel.load()
    config = glyph_config()
    plain = replace(config, sharpen_looks=())
    counts = {"sharpened": 0, "plain": 0}
    for name, face in _artwork(shared_dir):
        views = _views(face, 1.5)
        for key, cfg in (("sharpened", config), ("plain", plain)):
            reading, _ = read_views(views, model, cfg)
            if reading is not None:
                assert reading.rank.value + reading.suit.value == name
                counts[key] += 1
    assert counts["sharpened"] >= counts["plain"] + 5
