"""Overlap of card outlines, measured on their bounding boxes."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from vision.cards import Quad

Bounds = tuple[float, float, float, float]
"""A bounding box as (x0, y0, x1, y1)."""


def bounds(quad: Quad) -> Bounds:
    """The bounding box of a quad."""
    x0, y0 = quad.min(axis=0).tolist()
    x1, y1 = quad.max(axis=0).tolist()
    return x0, y0, x1, y1


def bounds_iou(a: Bounds, b: Bounds) -> float:
    """IoU of two bounding boxes."""
    across = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    down = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = across * down
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def box_iou(a: Quad, b: Quad) -> float:
    """IoU of the bounding boxes of two quads."""
    return bounds_iou(bounds(a), bounds(b))


def iou_matrix(a: npt.NDArray[np.floating], b: npt.NDArray[np.floating]) -> npt.NDArray[np.float64]:
    """IoU of every box in `a` (rows of x0, y0, x1, y1) with every box in `b`."""
    across = np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0])
    down = np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1])
    inter = np.clip(across, 0, None) * np.clip(down, 0, None)
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    union = area_a[:, None] + area_b[None, :] - inter
    iou: npt.NDArray[np.float64] = np.where(union > 0, inter / np.maximum(union, 1e-9), 0.0)
    return iou
