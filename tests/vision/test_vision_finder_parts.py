"""Regions parted from thin light things touching them, and outlines spanning two cards."""

from __future__ import annotations

import cv2
import numpy as np

from vision.config import VisionConfig
from vision.detect import quad_of
from vision.finder_parts import parted_pieces
from vision.outline_boxes import box_iou
from vision.outline_sides import crossed

CONFIG = VisionConfig()


def test_opening_keeps_a_wide_region_whole_and_drops_thin_bridges() -> None:
    mask = np.zeros((200, 300), np.uint8)
    mask[40:160, 60:140] = 255
    cv2.line(mask, (139, 159), (299, 60), 255, 4)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    pieces = list(parted_pieces(contours[0], (7,)))
    assert len(pieces) == 1
    size, piece = pieces[0]
    assert size == 7
    assert np.allclose(cv2.boundingRect(piece), (60, 40, 80, 120), atol=2)
    # The region as a whole is no card (the bridge makes it too wide); the piece is one.
    frame_area = 200 * 300
    assert quad_of(contours[0], CONFIG, []) is None
    quad, _ = quad_of(piece, CONFIG, [])
    card = np.array([[60, 40], [139, 40], [139, 159], [60, 159]], np.float32)
    assert box_iou(quad, card) > 0.95
    assert cv2.contourArea(piece) > CONFIG.min_card_area * frame_area


def test_an_edge_across_a_quad_marks_two_cards() -> None:
    # Two cards side by side, the right one lying on the left: its left side a darker step.
    gray = np.full((240, 320), 60, np.uint8)
    gray[40:185, 40:140] = 230
    gray[40:185, 110:210] = 235
    gray[40:185, 108:110] = 170
    union = np.array([[40, 40], [209, 40], [209, 184], [40, 184]], np.float32)
    right = np.array([[110, 40], [209, 40], [209, 184], [110, 184]], np.float32)
    assert crossed(gray, union, CONFIG)
    assert not crossed(gray, right, CONFIG)
