"""A card's true shape from its outline in a frame seen at a slant.

A rectangle's picture under a pinhole camera fixes its true aspect once the camera's focal length
and centre are known (Zhang and He, "Whiteboard scanning and image enhancement", 2007). Photos of
a table are taken at a slant, from a seat; an overhead camera sees the cards nearly square on. The
camera is taken to be centred on the frame with a focal length of the frame's long side (a field
of view of about 53 degrees across it), which held for phones and webcams alike: the outlines of
the dev sets' slanted cards measure 1.31-1.52 with it, against 1.40 for a card.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from vision.cards import Quad


def true_sides(quad: Quad, centre: tuple[float, float], focal: float) -> tuple[float, float] | None:
    """The true lengths, in a common unit, of the sides from corner 0 to 1 and from corner 0 to 3
    of a quad pictured by a camera of this centre and focal length (pixels); None where the quad
    cannot be a rectangle's picture."""
    points = np.asarray(quad, np.float64).reshape(4, 2) - np.asarray(centre, np.float64)
    if focal <= 0:
        return None
    corner, along, opposite, across = (np.append(p / focal, 1.0) for p in points)
    # Each far corner's depth relative to corner 0, from the corners' cross ratios.
    depth_along = _ratio(corner, opposite, across, along)
    depth_across = _ratio(corner, opposite, along, across)
    if depth_along is None or depth_across is None or depth_along <= 0 or depth_across <= 0:
        return None
    side_along = depth_along * along - corner
    side_across = depth_across * across - corner
    return float(np.linalg.norm(side_along)), float(np.linalg.norm(side_across))


def _ratio(corner: npt.NDArray[np.float64], opposite: npt.NDArray[np.float64],
           third: npt.NDArray[np.float64], far: npt.NDArray[np.float64]) -> float | None:
    """How much farther `far` lies than `corner`, where `opposite` is the rectangle's fourth
    corner opposite `corner` and `third` the remaining one."""
    below = float(np.dot(np.cross(far, opposite), third))
    if abs(below) < 1e-12:
        return None
    return float(np.dot(np.cross(corner, opposite), third)) / below


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
    points = np.asarray(quad, np.float64).reshape(4, 2)
    sides = np.linalg.norm(points - np.roll(points, -1, axis=0), axis=1)
    first, second = float(sides[0] + sides[2]), float(sides[1] + sides[3])
    on_screen = 0 if first > second else 1
    if size is None or max(first, second) >= DOUBTFUL_PAIRS * min(first, second):
        return on_screen
    seen = true_aspect(quad, *size)
    if seen is None or not CARD_ASPECTS[0] <= seen[0] <= CARD_ASPECTS[1]:
        return on_screen
    return seen[1]
