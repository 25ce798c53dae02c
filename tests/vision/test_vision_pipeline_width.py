"""Loose corners keep their card width when the finder also outlines a blob or a scrap."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tools.scenes import paste_card, plain_card, table_background
from vision.config import VisionConfig
from vision.detect import card_masks
from vision.finder_corners import read_loose_corners, typical_width
from vision.model import GlyphModel


def _rect(x0: float, y0: float, width: float, height: float) -> np.ndarray:
    return np.array([[x0, y0], [x0 + width, y0], [x0 + width, y0 + height], [x0, y0 + height]],
                    np.float32)


@pytest.fixture(scope="module")
def model() -> GlyphModel:
    return GlyphModel.load()


def test_typical_width_is_that_of_the_read_cards_when_any_is_read() -> None:
    read = [_rect(0, 0, 100, 150), _rect(200, 0, 120, 180)]
    blob = _rect(0, 0, 500, 400)
    assert typical_width(read, [*read, blob], VisionConfig()) == pytest.approx(110)


def test_typical_width_is_the_middle_one_of_the_unread_outlines_when_none_is_read() -> None:
    quads = [_rect(0, 0, 520, 530), _rect(10, 10, 20, 30), _rect(100, 100, 150, 220)]
    assert typical_width([], quads, VisionConfig()) == pytest.approx(150)
    assert typical_width([], [], VisionConfig()) is None


def test_corner_is_read_beside_an_unread_outline_of_no_card_size(model: GlyphModel) -> None:
    scene = table_background(960, 540, seed=10)
    card = paste_card(scene, plain_card("Q", "H"), (420, 250), 320, -10)
    cover = np.array([[420, 330], [700, 250], [760, 470], [470, 530]], np.int32)
    cv2.fillPoly(scene, [cover], (60, 40, 30))
    config = VisionConfig()
    blob, scrap = _rect(5, 5, 940, 520), _rect(800, 40, 30, 45)
    unread = [blob, scrap, scrap + 60]
    found = read_loose_corners(scene, card_masks(scene, config), unread, [], model, config)
    assert [o.name for o in found] == ["QH"]
    assert np.linalg.norm(found[0].corners[0] - card[0]) < 25
