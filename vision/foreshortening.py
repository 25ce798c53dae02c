"""A card's true shape from its outline in a frame seen at a slant.

A rectangle's picture under a pinhole camera fixes its true aspect once the camera's focal length
and centre are known (Zhang and He, "Whiteboard scanning and image enhancement", 2007). Photos of
a table are taken at a slant, from a seat; an overhead camera sees the cards nearly square on. The
camera is taken to be centred on the frame with a focal length of the frame's long side (a field
of view of about 53 degrees across it), which held for phones and webcams alike: the outlines of
the dev sets' slanted cards measure 1.31-1.52 with it, against 1.40 for a card.
"""

from __future__ import annotations

import math

import numpy as np

from vision.cards import Quad


def true_sides(quad: Quad, centre: tuple[float, float], focal: float) -> tuple[float, float] | None:
    """The true lengths, in a common unit, of the sides from corner 0 to 1 and from corner 0 to 3
    of a quad pictured by a camera of this centre and focal length (pixels); None where the quad
    cannot be a rectangle's picture."""
    if focal <= 0:
        return None
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = (
        ((float(x) - centre[0]) / focal, (float(y) - centre[1]) / focal)
        for x, y in np.asarray(quad, np.float64).reshape(4, 2))
    # Rays through corner 0, along (1), opposite (2) and across (3), as (x, y, 1); each far
    # corner's depth relative to corner 0 follows from triple products (cross ratios).
    base = _triple((x0, y0), (x2, y2), (x3, y3))
    below = _triple((x1, y1), (x2, y2), (x3, y3))
    depth_along = base / below if abs(below) > 1e-12 else 0.0
    base = _triple((x0, y0), (x2, y2), (x1, y1))
    below = _triple((x3, y3), (x2, y2), (x1, y1))
    depth_across = base / below if abs(below) > 1e-12 else 0.0
    if depth_along <= 0 or depth_across <= 0:
        return None
    along = math.dist((depth_along * x1, depth_along * y1, depth_along), (x0, y0, 1.0))
    across = math.dist((depth_across * x3, depth_across * y3, depth_across), (x0, y0, 1.0))
    return along, across


def _triple(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> float:
    """The triple product (a x b) . c of three rays (x, y, 1)."""
    return ((a[1] - b[1]) * c[0] + (b[0] - a[0]) * c[1] + (a[0] * b[1] - a[1] * b[0]))


def true_aspect(quad: Quad, width: int, height: int) -> tuple[float, int] | None:
    """A card outline's true aspect (long over short side) in a frame of this size, and which
    pair of its sides is the long one (0: corners 0-1 and 2-3; 1: corners 1-2 and 3-0); None
    where the outline cannot be a rectangle's picture."""
    sides = true_sides(quad, (width / 2.0, height / 2.0), float(max(width, height)))
    if sides is None or min(sides) <= 0:
        return None
    first, second = sides
    return (first / second, 0) if first >= second else (second / first, 1)


DOUBTFUL_PAIRS = 1.25
"""Where one pair of an outline's opposite sides is less than this times as long as the other on
screen, the picture leaves in doubt which pair is the card's long one."""
CARD_ASPECTS = (1.25, 1.6)
"""The true aspects taken for a card's (1.40 for a poker card, 1.57 for a bridge card seen
short)."""


def long_pair(quad: Quad, size: tuple[int, int] | None = None) -> int:
    """Which pair of an outline's sides is the card's long one (0: corners 0-1 and 2-3; 1:
    corners 1-2 and 3-0): the longer on screen, unless the two are nearly as long and the true
    shape in a frame of `size` (width, height) is a card's the other way (a card seen at a
    slant)."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = np.asarray(quad, np.float64).reshape(4, 2).tolist()
    first = math.dist((x0, y0), (x1, y1)) + math.dist((x2, y2), (x3, y3))
    second = math.dist((x1, y1), (x2, y2)) + math.dist((x3, y3), (x0, y0))
    on_screen = 0 if first > second else 1
    if size is None or max(first, second) >= DOUBTFUL_PAIRS * min(first, second):
        return on_screen
    seen = true_aspect(quad, *size)
    if seen is None or not CARD_ASPECTS[0] <= seen[0] <= CARD_ASPECTS[1]:
        return on_screen
    return seen[1]
