"""Where a blurred card's edge is: its outline moved outward by the width of its blur."""

from __future__ import annotations

import numpy as np

from vision.cards import Quad


def grown_outline(corners: Quad, distance: float) -> Quad:
    """The quad with each side moved `distance` pixels outward: every corner moves that far
    along both of its sides, away from the neighbouring corners."""
    quad = np.asarray(corners, dtype=np.float64)
    before = np.roll(quad, 1, axis=0)
    after = np.roll(quad, -1, axis=0)
    away_before = quad - before
    away_after = quad - after
    away_before /= np.maximum(np.linalg.norm(away_before, axis=1, keepdims=True), 1e-9)
    away_after /= np.maximum(np.linalg.norm(away_after, axis=1, keepdims=True), 1e-9)
    grown: Quad = (quad + distance * (away_before + away_after)).astype(np.float32)
    return grown


def long_side(corners: Quad) -> float:
    """Mean length of a quad's two longer opposite sides (the card's length), in pixels."""
    first, second = _opposite_sides(corners)
    return max(first, second) / 2


def short_side(corners: Quad) -> float:
    """Mean length of a quad's two shorter opposite sides (the card's width), in pixels."""
    first, second = _opposite_sides(corners)
    return min(first, second) / 2


_NEXT = np.array([1, 2, 3, 0])


def _opposite_sides(corners: Quad) -> tuple[float, float]:
    """The summed lengths of a quad's sides 0 and 2, and of its sides 1 and 3."""
    quad = np.asarray(corners, dtype=np.float64)
    step = quad - quad[_NEXT]
    sides = np.sqrt((step * step).sum(axis=1)).tolist()
    return sides[0] + sides[2], sides[1] + sides[3]
