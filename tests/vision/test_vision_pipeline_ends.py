"""Unread outlines shorter than a card are read again as the visible end of a covered card."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tools.scenes import paste_card, plain_card, table_background
from vision.cards import CardObservation
from vision.config import CornerFinderConfig, VisionConfig
from vision.corners import end_corners
from vision.detect import card_masks
from vision.model import GlyphModel
from vision.pipeline import read_loose_corners


@pytest.fixture(scope="module")
def model() -> GlyphModel:
    return GlyphModel.load()


def test_end_corners_are_the_short_ends_seen_from_outside() -> None:
    quad = np.array([[0, 0], [100, 0], [100, 150], [0, 150]], np.float32)
    corners = list(end_corners(quad, 100.0))
    tips = [(c.tip.tolist(), first_is_short) for c, first_is_short in corners]
    assert tips == [([0, 0], True), ([100, 0], False), ([100, 150], True), ([0, 150], False)]
    top_left, top_right = corners[0][0], corners[1][0]
    assert top_left.first.tolist() == [1, 0] and top_left.second.tolist() == [0, 1]
    assert top_right.first.tolist() == [0, 1] and top_right.second.tolist() == [-1, 0]


@pytest.mark.parametrize("angle", [-10, 170])
def test_covered_card_is_read_from_the_visible_end_of_its_outline(
    model: GlyphModel, angle: int
) -> None:
    scene = table_background(960, 540, seed=12)
    card = paste_card(scene, plain_card("K", "C"), (480, 270), 320, angle)
    # Everything but the top 65 % of the card is covered by a dark object.
    edge_a = card[0] + 0.65 * (card[3] - card[0])
    edge_b = card[1] + 0.65 * (card[2] - card[1])
    cover = np.array([edge_a, edge_b, card[2] + (card[2] - edge_b), card[3] + (card[3] - edge_a)])
    cv2.fillPoly(scene, [np.round(cover).astype(np.int32)], (40, 30, 30))
    visible = np.array([card[0], card[1], edge_b, edge_a], np.float32)
    unread = CardObservation(visible, None, 0.0)
    # No corner of any mask is searched, so only the outline's visible end can give the card.
    config = VisionConfig(corner_finder=CornerFinderConfig(masks=0))
    found = read_loose_corners(scene, card_masks(scene, config), [visible], [unread], model, config)
    assert [o.name for o in found] == ["KC"]
    assert not found[0].whole
    assert cv2.pointPolygonTest(visible.reshape(-1, 1, 2), tuple(found[0].corners[0]), True) > -5
    none = read_loose_corners(scene, card_masks(scene, config), [visible], [], model, config)
    assert none == []
