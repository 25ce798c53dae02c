"""Straight-edge evidence along and across an outline, and box overlaps."""

from __future__ import annotations

import cv2
import numpy as np

from vision.config import VisionConfig
from vision.outline_boxes import bounds, bounds_iou, box_iou, iou_matrix
from vision.straight_edges import _edge_shares

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
