"""Cards built on one whole side of a region, straight-edge evidence and box overlaps."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from vision.config import VisionConfig
from vision.outline_boxes import bounds, bounds_iou, box_iou, iou_matrix
from vision.outline_sides import _edge_shares, side_quads

CONFIG = VisionConfig()


def _outline(mask: np.ndarray) -> np.ndarray:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return max(contours, key=cv2.contourArea)


def _pair(overlap_edge: int) -> tuple[np.ndarray, np.ndarray]:
    """Two 100x145 cards side by side on a dark table, the right one lying on the left one;
    the right card's left side shows as a faint step of `overlap_edge` grey levels."""
    gray = np.full((240, 320), 60, np.uint8)
    gray[40:185, 40:140] = 230
    gray[40:185, 110:210] = 235
    gray[40:185, 110:112] = 235 - overlap_edge
    mask = (gray > 120).astype(np.uint8) * 255
    return gray, mask


def test_the_top_card_of_two_is_built_on_its_whole_free_side() -> None:
    gray, mask = _pair(overlap_edge=30)
    found = side_quads(_outline(mask), gray, CONFIG, min_side=40)
    assert len(found) == 1
    quad, share = found[0]
    truth = np.array([[110, 40], [209, 40], [209, 184], [110, 184]], np.float32)
    assert box_iou(quad, truth) > 0.9
    assert share >= CONFIG.side_finder.min_evidence


def test_no_card_is_built_where_no_edge_closes_it() -> None:
    gray, mask = _pair(overlap_edge=0)
    assert side_quads(_outline(mask), gray, CONFIG, min_side=40) == []


def test_a_card_lying_under_another_is_not_built() -> None:
    # Now the left card lies on top (its right side a step at x = 139), and a straight line of
    # its picture, two thirds of a card long, runs where the right card's hidden side would be.
    gray, mask = _pair(overlap_edge=0)
    gray[40:185, 138:140] = 200
    gray[44:138, 110:112] = 150
    left = np.array([[40, 40], [139, 40], [139, 184], [40, 184]], np.float32)
    right = np.array([[110, 40], [209, 40], [209, 184], [110, 184]], np.float32)
    found = side_quads(_outline(mask), gray, CONFIG, min_side=40)
    assert len(found) == 1
    assert box_iou(found[0][0], left) > 0.9
    # Without the check for an edge across the card, the covered card would be built too.
    blind = dataclasses.replace(CONFIG, side_cover_evidence=2.0)
    built = side_quads(_outline(mask), gray, blind, min_side=40)
    assert any(box_iou(q, right) > 0.9 for q, _ in built)


def test_a_found_card_suppresses_the_card_built_on_the_same_place() -> None:
    gray, mask = _pair(overlap_edge=30)
    taken = np.array([[111.0, 41.0, 208.0, 183.0]])
    assert side_quads(_outline(mask), gray, CONFIG, min_side=40, taken=taken) == []


def test_edge_share_is_high_along_a_straight_step_and_low_on_texture() -> None:
    rng = np.random.default_rng(0)
    texture = rng.integers(0, 256, (100, 100)).astype(np.uint8)
    step = np.full((100, 100), 80, np.uint8)
    step[:, 50:] = 200
    start = np.array([[52.0, 10.0]], np.float32)
    end = np.array([[52.0, 90.0]], np.float32)
    assert _edge_shares(step, start, end, 3, 8.0)[0] == 1.0
    assert _edge_shares(texture, start, end, 3, 8.0)[0] < 0.5
    # Across the step, not along it, there is no edge running with the segment.
    across = _edge_shares(step, np.array([[20.0, 50.0]], np.float32),
                          np.array([[80.0, 50.0]], np.float32), 3, 8.0)
    assert across[0] < 0.2


def test_box_overlaps_agree_one_by_one_and_all_at_once() -> None:
    rng = np.random.default_rng(1)
    quads = [rng.uniform(0, 100, (4, 2)).astype(np.float32) for _ in range(6)]
    boxes = np.array([bounds(q) for q in quads])
    matrix = iou_matrix(boxes, boxes)
    for i, a in enumerate(quads):
        for j, b in enumerate(quads):
            assert abs(matrix[i, j] - box_iou(a, b)) < 1e-6
            assert abs(bounds_iou(bounds(a), bounds(b)) - box_iou(b, a)) < 1e-6
    assert np.allclose(np.diag(matrix), 1.0)
