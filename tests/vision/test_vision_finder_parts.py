"""Cards parted from thin light things touching them, and pieces spanning two cards."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np

from tests.vision.dev_family import outlined_in_family
from tools.scenes import paste_card, plain_card
from vision.config import VisionConfig
from vision.detect import _parted_candidates, _quad_of, card_masks
from vision.finder_parts import parted_pieces
from vision.outline_boxes import box_iou
from vision.outline_sides import crossed

CONFIG = VisionConfig()
UNPARTED = dataclasses.replace(CONFIG, part_kernels=(), lines=False)
"""Neither parted nor found by outline lines (which find some of these cards too)."""


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
    assert _quad_of(contours[0], CONFIG, []) is None
    quad, _ = _quad_of(piece, CONFIG, [])
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



def _card_with_bridge() -> tuple[np.ndarray, list[tuple[np.ndarray, tuple[int, int, int, int]]]]:
    mask = np.zeros((400, 400), np.uint8)
    mask[140:260, 160:240] = 255
    cv2.line(mask, (239, 259), (399, 160), 255, 4)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    gray = np.full((400, 400), 60, np.uint8)
    gray[mask > 0] = 230
    return gray, [(contours[0], cv2.boundingRect(contours[0]))]


def _square(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)


def test_a_piece_inside_an_outline_of_about_its_size_is_part_of_that_card() -> None:
    gray, unshaped = _card_with_bridge()
    card = _square(160, 140, 239, 259)
    alone = _parted_candidates(unshaped, [], [], 400 * 400, gray, CONFIG)
    assert len(alone) == 1 and box_iou(alone[0][1], card) > 0.95
    # An outline around it, a little larger: the piece is a part of that card.
    around = [(0.5, _square(150, 130, 250, 270))]
    assert _parted_candidates(unshaped, [], around, 400 * 400, gray, CONFIG) == []
    # An outline many times larger (a folder the card lies on) does not swallow it.
    folder = [(1.2, _square(20, 20, 380, 380))]
    assert len(_parted_candidates(unshaped, [], folder, 400 * 400, gray, CONFIG)) == 1


def test_regions_are_opened_in_the_masks_that_follow_edges() -> None:
    # A white card on a green table: the mask cut along edges leaves a gap at the card's
    # outline, the whiteness masks do not; the rings are the edges themselves.
    frame = np.full((480, 640, 3), (40, 90, 35), np.uint8)
    truth = paste_card(frame, plain_card("9", "C"), (320, 240), 260, angle=0)
    masks = card_masks(frame, CONFIG)
    (edge_cut,) = masks.opened_in - masks.fallback
    assert masks.fallback <= masks.opened_in
    assert 0 not in masks.opened_in
    x0, y0 = np.round(truth[0] * masks.scale + masks.pad).astype(int)
    # Along the card's top side, a few pixels in from its corner.
    row = y0
    cols = slice(x0 + 10, x0 + 30)
    assert masks.masks[0][row, cols].any()
    assert not masks.masks[edge_cut][row, cols].any()


def test_parted_regions_and_lines_outline_more_of_the_family(shared_dir: Path) -> None:
    # Cards touching light wood, folders and boxes in the dev photos' training halves.
    vision = shared_dir / "vision"
    with_parts = outlined_in_family(vision, CONFIG)
    without = outlined_in_family(vision, UNPARTED)
    assert len(with_parts - without) > len(without - with_parts)


def test_narrowed_weak_outlines_outline_more_of_the_family(shared_dir: Path) -> None:
    # A quad following its region poorly (a card merged with light wood) is narrowed to a card.
    vision = shared_dir / "vision"
    narrowed = outlined_in_family(vision, CONFIG)
    unnarrowed = outlined_in_family(vision, dataclasses.replace(CONFIG, weak_support=0.0))
    assert len(narrowed - unnarrowed) > len(unnarrowed - narrowed)
