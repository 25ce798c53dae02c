"""Card quads made of four straight lines, whatever the colour around them (`outline_lines`).

A card lying on another differs from it by little but a faint line along each side. Straight
segments of the grey frame (OpenCV's line segment detector) are paired into opposite sides
(nearly parallel, a card's width or length apart, facing each other) and two such pairs meeting
at about right angles make a quad. It is kept when it has a card's aspect and a straight edge
runs along most of each of its four sides (and, checked by the caller, none across it).
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

from vision.cards import Image, Quad
from vision.config import VisionConfig
from vision.outline_sides import _edge_shares as edge_shares

Segments = npt.NDArray[np.float32]
"""Rows of x0, y0, x1, y1."""


def line_segments(gray: Image, scale: float, min_length: float, limit: int,
                  within: Image | None = None) -> Segments:
    """The `limit` longest straight segments at least `min_length` long of the grey image, found
    at `scale` of its size, whose middles lie in the mask `within` when one is given."""
    detector = cv2.createLineSegmentDetector(cv2.LSD_REFINE_NONE, scale)
    found = detector.detect(gray)[0]
    if found is None:
        return np.zeros((0, 4), np.float32)
    segments = found.reshape(-1, 4).astype(np.float32)
    if within is not None:
        middle = np.rint((segments[:, :2] + segments[:, 2:]) / 2).astype(np.intp)
        np.clip(middle, 0, (within.shape[1] - 1, within.shape[0] - 1), out=middle)
        segments = segments[within[middle[:, 1], middle[:, 0]] > 0]
    lengths = np.hypot(segments[:, 2] - segments[:, 0], segments[:, 3] - segments[:, 1])
    order = np.argsort(-lengths)
    order = order[lengths[order] >= min_length][:limit]
    longest: Segments = segments[order]
    return longest


def _opposite_pairs(
    segments: Segments, min_gap: float, max_gap: float, max_turn: float
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.float32],
           npt.NDArray[np.float32]]:
    """Index pairs (i, j) of segments that may be opposite sides of one card: within `max_turn`
    degrees of parallel, `min_gap` to `max_gap` apart, overlapping when seen across; the pairs'
    mean direction (radians, modulo pi) and their distance apart."""
    start, end = segments[:, :2], segments[:, 2:]
    run = end - start
    angle = np.arctan2(run[:, 1], run[:, 0]) % np.pi
    unit = np.stack([np.cos(angle), np.sin(angle)], axis=1)
    normal = np.stack([-unit[:, 1], unit[:, 0]], axis=1)
    middle = (start + end) / 2
    i, j = np.triu_indices(len(segments), 1)
    turn = np.abs(angle[i] - angle[j])
    turn = np.minimum(turn, np.pi - turn)
    near = turn <= math.radians(max_turn)
    i, j = i[near], j[near]
    # Distance of each middle from the other's line, both ways round.
    step = middle[j] - middle[i]
    gap = (np.abs((step * normal[i]).sum(axis=1)) + np.abs((step * normal[j]).sum(axis=1))) / 2
    apart = (gap >= min_gap) & (gap <= max_gap)
    i, j, gap = i[apart], j[apart], gap[apart]
    # Seen across, along segment i's direction, the two segments must overlap.
    along = unit[i]
    a0, a1 = (start[i] * along).sum(axis=1), (end[i] * along).sum(axis=1)
    b0, b1 = (start[j] * along).sum(axis=1), (end[j] * along).sum(axis=1)
    low_a, high_a = np.minimum(a0, a1), np.maximum(a0, a1)
    low_b, high_b = np.minimum(b0, b1), np.maximum(b0, b1)
    overlap = np.minimum(high_a, high_b) - np.maximum(low_a, low_b)
    keep = overlap >= 0.3 * np.minimum(high_a - low_a, high_b - low_b)
    i, j, gap = i[keep], j[keep], gap[keep]
    vectors = unit[i] + np.where(((unit[i] * unit[j]).sum(1) >= 0)[:, None], unit[j], -unit[j])
    mean = (np.arctan2(vectors[:, 1], vectors[:, 0]) % np.pi).astype(np.float32)
    return i, j, mean, gap.astype(np.float32)


def _line_of(segments: Segments) -> npt.NDArray[np.float64]:
    """Line coefficients (a, b, c), a x + b y = c, of each segment."""
    s = segments.astype(np.float64)
    a = s[:, 3] - s[:, 1]
    b = s[:, 0] - s[:, 2]
    return np.stack([a, b, a * s[:, 0] + b * s[:, 1]], axis=1)


def _between(segments: Segments, lines: npt.NDArray[np.float64], i: npt.NDArray[np.intp],
             j: npt.NDArray[np.intp]) -> npt.NDArray[np.bool_]:
    """For each pair of lines (i, j) and each segment, whether some of the segment lies in the
    band between the two lines."""
    ends = segments.reshape(-1, 2).astype(np.float64)
    side = ends @ lines[:, :2].T - lines[None, :, 2]
    # Line j's side measured the way line i's normal points.
    facing = np.sign((lines[i, :2] * lines[j, :2]).sum(axis=1))
    to_i, to_j = side[:, i], side[:, j] * facing
    # Where each end lies across the band: 0 on line i, 1 on line j (the lines are near
    # parallel and apart, so no end is as far from both).
    span = to_i - to_j
    span[span == 0] = 1e-9
    where = (to_i / span).reshape(len(segments), 2, -1)
    inside: npt.NDArray[np.bool_] = ((np.maximum(where[:, 0], where[:, 1]) >= 0)
                                     & (np.minimum(where[:, 0], where[:, 1]) <= 1)).T
    return inside


def _corners(lines: npt.NDArray[np.float64], first: npt.NDArray[np.intp],
             second: npt.NDArray[np.intp]) -> npt.NDArray[np.float64]:
    """Intersections of lines `first` and `second` (rows of x, y; inf or nan when parallel)."""
    a1, b1, c1 = lines[first].T
    a2, b2, c2 = lines[second].T
    det = a1 * b2 - a2 * b1
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.stack([(c1 * b2 - c2 * b1) / det, (a1 * c2 - a2 * c1) / det], axis=1)


def line_quads(gray: Image, segments: Segments, config: VisionConfig,
               min_side: float, max_side: float) -> list[tuple[Quad, float]]:
    """Card quads made of two pairs of opposite sides along each of which a straight edge runs,
    sides `min_side` to `max_side` long, with the mean edge share of their sides, best first.
    Whether an edge runs across a quad (two cards) is left to the caller, who checks only the
    quads it may keep."""
    if len(segments) < 4:
        return []
    i, j, mean, gap = _opposite_pairs(segments, min_side, max_side, config.lines_max_turn)
    if len(i) < 2:
        return []
    lines = _line_of(segments)
    p, q = np.triu_indices(len(i), 1)
    cross = np.abs(mean[p] - mean[q])
    cross = np.minimum(cross, np.pi - cross)
    keep = cross >= math.radians(90 - config.lines_max_skew)
    # The two pairs' distances apart are the card's width and length (a tenth either way for
    # the sides' slant).
    ratio = np.maximum(gap[p], gap[q]) / np.minimum(gap[p], gap[q])
    keep &= (ratio >= 0.9 * config.lines_min_aspect) & (ratio <= 1.1 * config.lines_max_aspect)
    # No segment may serve twice.
    keep &= (i[p] != i[q]) & (i[p] != j[q]) & (j[p] != i[q]) & (j[p] != j[q])
    p, q = p[keep], q[keep]
    # Each pair's segments reach in between the other pair's lines.
    inside = _between(segments, lines, i, j)
    keep = (inside[p, i[q]] & inside[p, j[q]] & inside[q, i[p]] & inside[q, j[p]])
    p, q = p[keep], q[keep]
    if not len(p):
        return []
    # Corners in order around the quad: side a1 meets b1, b1 meets a2, a2 meets b2, b2 meets a1.
    a1, a2, b1, b2 = i[p], j[p], i[q], j[q]
    quads = np.stack([_corners(lines, a1, b1), _corners(lines, b1, a2),
                      _corners(lines, a2, b2), _corners(lines, b2, a1)], axis=1)
    finite = np.isfinite(quads).all(axis=(1, 2))
    quads, members = quads[finite], np.stack([a1, a2, b1, b2], axis=1)[finite]
    sides = np.linalg.norm(quads - np.roll(quads, -1, axis=1), axis=2)
    across = (sides[:, 0] + sides[:, 2]) / 2
    along = (sides[:, 1] + sides[:, 3]) / 2
    aspect = np.maximum(across, along) / np.maximum(np.minimum(across, along), 1e-6)
    keep = ((aspect >= config.lines_min_aspect) & (aspect <= config.lines_max_aspect)
            & (np.minimum(across, along) >= min_side) & (np.maximum(across, along) <= max_side))
    quads, members = quads[keep], members[keep]
    quads, members = _segments_on_sides(quads, members, segments, config.lines_min_share)
    if not len(quads):
        return []
    # Quads alike to a twentieth of the smallest card side are one (a side found in pieces).
    grid = np.rint(quads.reshape(-1, 8) / (0.05 * min_side)).astype(np.int64)
    _, first = np.unique(grid, axis=0, return_index=True)
    cards: npt.NDArray[np.float32] = quads[np.sort(first)].astype(np.float32)
    reach = max(1, round(config.side_reach * min_side))
    starts: npt.NDArray[np.float32] = cards.reshape(-1, 2)
    ends: npt.NDArray[np.float32] = np.roll(cards, -1, axis=1).reshape(-1, 2)
    shares = edge_shares(gray, starts, ends, reach, config.side_contrast).reshape(-1, 4)
    keep = shares.min(axis=1) >= config.lines_min_support
    cards, support = cards[keep], shares[keep].mean(axis=1)
    order = np.argsort(-support, kind="stable")
    return [(cards[k], float(support[k])) for k in order]


def _segments_on_sides(
    quads: npt.NDArray[np.float64], members: npt.NDArray[np.intp], segments: Segments,
    min_share: float,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.intp]]:
    """The quads whose four segments each lie along a fifth of their side at least and cover
    `min_share` of the sides together (a segment may run on past a corner: a card's side in
    line with a grout line or another card's)."""
    if not len(quads):
        return quads, members
    # Side k of a quad runs from corner k to corner k + 1; segment a1 lies on side 3 (from b2 to
    # b1), b1 on side 0, a2 on side 1, b2 on side 2 in the corner order of `line_quads`.
    side_of = (3, 1, 0, 2)
    ok = np.ones(len(quads), bool)
    covered = np.zeros(len(quads))
    for column, side in enumerate(side_of):
        s = segments[members[:, column]].astype(np.float64)
        a, b = quads[:, side], quads[:, (side + 1) % 4]
        run = b - a
        length2 = np.maximum((run * run).sum(1), 1e-6)
        t0 = ((s[:, :2] - a) * run).sum(1) / length2
        t1 = ((s[:, 2:] - a) * run).sum(1) / length2
        low, high = np.minimum(t0, t1), np.maximum(t0, t1)
        share = np.clip(high, 0, 1) - np.clip(low, 0, 1)
        ok &= share >= 0.2
        covered += share
    ok &= covered / 4 >= min_share
    return quads[ok], members[ok]
