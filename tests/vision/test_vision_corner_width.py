"""Loose corners are read at no less than the card width their longest visible edge implies, and
no wider than the table's cards where their length is known."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.finder_switch import without_finders
from tools.scenes import paste_card, plain_card, table_background
from vision.card_size import CARD_ASPECT
from vision.config import VisionConfig
from vision.corners import CardCorner
from vision.detect import card_masks
from vision.finder_corners import corner_widths, read_loose_corners
from vision.model import GlyphModel

NO_EDGE_WIDTH = without_finders(VisionConfig(corner_width_from_edge=False), "index")


@pytest.fixture(scope="module")
def model() -> GlyphModel:
    return GlyphModel.load()


def _corner(shorter: float, longer: float) -> CardCorner:
    first, second = np.array([1, 0], np.float32), np.array([0, 1], np.float32)
    return CardCorner(np.array([50, 50], np.float32), first, second, shorter, longer)


def test_no_width_tried_is_narrower_than_the_longer_edge_allows() -> None:
    config = VisionConfig()
    # A strip 40 wide showing a whole long side of 300: the card is at least 200 wide.
    assert corner_widths(None, 60.0, _corner(40, 300), config) == [pytest.approx(200)]
    assert corner_widths(None, None, _corner(40, 300), config) == [pytest.approx(200)]
    assert corner_widths(120.0, 60.0, _corner(40, 300), config) == [pytest.approx(200)]
    # Edges within a card of the estimated width leave the widths as they were.
    assert corner_widths(None, 150.0, _corner(90, 120), config) == [150, 90]
    assert corner_widths(None, 150.0, _corner(90, 150), config) == [150, 100]
    assert corner_widths(None, 150.0, _corner(40, 300), NO_EDGE_WIDTH) == [150, 40]


def test_no_width_tried_is_wider_than_the_known_cards() -> None:
    known = VisionConfig(card_length=140.0)
    width = 140.0 * CARD_ASPECT
    # An edge longer than one card's (cards lying in line, a box, a picture) widens the card to
    # the known width, no further.
    assert corner_widths(None, 95.0, _corner(40, 300), known) == [pytest.approx(width)]
    assert corner_widths(95.0, 95.0, _corner(60, 420), known) == [pytest.approx(width)]
    assert corner_widths(None, 95.0, _corner(40, 130), known) == [95.0, pytest.approx(86.7, 0.01)]
    # Without a known length the longest edge sets the least width, however long.
    assert corner_widths(None, 95.0, _corner(40, 300), VisionConfig()) == [pytest.approx(200)]


def _rect(x0: float, y0: float, width: float, height: float) -> np.ndarray:
    return np.array([[x0, y0], [x0 + width, y0], [x0 + width, y0 + height], [x0, y0 + height]],
                    np.float32)


def test_covered_card_is_read_at_its_long_side_width_beside_small_outlines(
    model: GlyphModel,
) -> None:
    # A card whose right part lies under a dark object: its whole left side shows, but the only
    # unread outlines are scraps a third of its width.
    scene = table_background(960, 540, seed=3)
    card = paste_card(scene, plain_card("K", "S"), (380, 270), 330, 4)
    cover = np.array([[400, 60], [760, 60], [760, 500], [400, 500]], np.int32)
    cv2.fillPoly(scene, [cover], (50, 35, 30))
    scraps = [_rect(820, 40, 70, 100), _rect(830, 300, 75, 110)]
    for config, expected in ((VisionConfig(), ["KS"]), (NO_EDGE_WIDTH, [])):
        found = read_loose_corners(scene, card_masks(scene, config), scraps, [], model, config)
        assert [o.name for o in found] == expected
        if expected:
            assert np.linalg.norm(found[0].corners[0] - card[0]) < 25

