"""Overlap of card outlines, measured on their bounding boxes."""

from __future__ import annotations

from vision.cards import Quad


def box_iou(a: Quad, b: Quad) -> float:
    """IoU of the bounding boxes of two quads."""
    ax0, ay0 = a.min(axis=0)
    ax1, ay1 = a.max(axis=0)
    bx0, by0 = b.min(axis=0)
    bx1, by1 = b.max(axis=0)
    inter = max(0.0, min(ax1, bx1) - max(ax0, bx0)) * max(0.0, min(ay1, by1) - max(ay0, by0))
    union = (ax1 - ax0) * (ay1 - ay0) + (bx1 - bx0) * (by1 - by0) - inter
    return float(inter / union) if union > 0 else 0.0
