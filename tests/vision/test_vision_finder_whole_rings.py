"""An edge ring holding a whole card is kept over the pieces of it that the whiteness masks hold."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.cards import Image, Quad
from vision.config import VisionConfig
from vision.detect import MaskSet, find_cards
from vision.outline_boxes import box_iou

CONFIG = VisionConfig()
PAD = 12


def _card(centre: tuple[float, float], angle: float, size: tuple[float, float]) -> Quad:
    """The corners of a card of `size` mask pixels at `centre` of the padded masks."""
    points = cv2.boxPoints((centre, size, angle)).astype(np.float32)
    return points


def _masks(card: Quad, frame_size: tuple[int, int]) -> MaskSet:
    """A whiteness mask holding the lit corner of the card (four fifths of its width, seven
    tenths of its length: card-shaped itself), and the edge-ring mask holding its outline."""
    height, width = frame_size[1] + 2 * PAD, frame_size[0] + 2 * PAD
    origin, across, along = card[0], card[1] - card[0], card[3] - card[0]
    if np.linalg.norm(across) > np.linalg.norm(along):
        across, along = along, across
    corners = [origin + u * across + v * along for u, v in ((0, 0), (0.8, 0), (0.8, 0.7),
                                                            (0, 0.7))]
    piece = np.zeros((height, width), np.uint8)
    cv2.fillConvexPoly(piece, np.round(np.array(corners)).astype(np.int32), 255)
    ring = np.zeros((height, width), np.uint8)
    cv2.polylines(ring, [np.round(card).astype(np.int32)], True, 255, 3)
    return MaskSet([piece, ring], 1.0, PAD, fallback=frozenset({1}))


def _frame(frame_size: tuple[int, int]) -> Image:
    return np.full((frame_size[1], frame_size[0], 3), 40, np.uint8)


def _in_frame(quad: Quad) -> Quad:
    return (quad - PAD).astype(np.float32)


@pytest.mark.parametrize(("centre", "angle"), [((200.0, 160.0), 0.0), ((150.0, 150.0), 8.0),
                                                ((260.0, 170.0), -15.0)])
def test_the_whole_card_of_a_ring_is_found_where_a_mask_holds_part_of_it(
        centre: tuple[float, float], angle: float) -> None:
    size = (400, 300)
    card = _card(centre, angle, (90.0, 130.0))
    masks = _masks(card, size)
    found = find_cards(_frame(size), CONFIG, masks)
    assert max(box_iou(quad, _in_frame(card)) for quad in found) > 0.9
    without = find_cards(_frame(size), replace(CONFIG, whole_ring_support=2.0), masks)
    assert max(box_iou(quad, _in_frame(card)) for quad in without) < 0.8


def test_the_ring_of_the_frame_border_is_no_card_though_it_holds_one() -> None:
    # A card filling much of a small frame: the frame's own edge rings the card's piece too.
    size = (150, 200)
    card = _card((PAD + 75.0, PAD + 100.0), 0.0, (110.0, 160.0))
    masks = _masks(card, size)
    ring = masks.masks[1]
    cv2.rectangle(ring, (PAD + 1, PAD + 1), (ring.shape[1] - PAD - 2, ring.shape[0] - PAD - 2),
                  255, 2)
    found = find_cards(_frame(size), CONFIG, masks)
    whole_frame = np.array([[0, 0], [size[0] - 1, 0], [size[0] - 1, size[1] - 1],
                            [0, size[1] - 1]], np.float32)
    assert found
    assert all(box_iou(quad, whole_frame) < 0.8 for quad in found)
