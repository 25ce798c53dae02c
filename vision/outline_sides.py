"""Card outlines completed from one whole side: the top card of a fanned pile, a card half hidden.

A region that is not card-shaped as a whole (cards merged into one blob, a card partly covered)
often still shows one whole side of a card: a straight side with a right angle at both ends.
The card is the rectangle built inward on that side, as deep as a card's aspect allows, whose
far side runs along a visible edge in the frame.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.cards import Image, Quad
from vision.config import VisionConfig
from vision.outline_boxes import bounds, iou_matrix

SIDE_SAMPLES = np.linspace(0.05, 0.95, 16, dtype=np.float32)[:, None]
"""Where along the far side its edge evidence is sampled."""
INTERIOR_FRACTIONS = np.linspace(0.2, 0.8, 13, dtype=np.float32)[:, None]
"""Depths (shares of the card's depth) at which a built card is checked for a covering edge."""


def _edge_shares(gray: Image, starts: npt.NDArray[np.float32], ends: npt.NDArray[np.float32],
                 reach: int, contrast: float) -> npt.NDArray[np.float64]:
    """For each segment (rows of `starts` and `ends`), the share of it along which one straight
    edge runs, parallel to it within `reach` pixels: brightness steps the same way across it, by
    `contrast` and twice as much as along it, at the same offset (give or take a pixel)."""
    run = ends - starts
    tangents = run / np.maximum(np.sqrt((run * run).sum(axis=1)), 1e-6)[:, None]
    normals = np.stack([-tangents[:, 1], tangents[:, 0]], axis=1)
    points = starts[:, None, :] + run[:, None, :] * SIDE_SAMPLES[None, :, :]
    offsets = np.arange(-reach, reach + 1, dtype=np.float32)
    # centres[line, offset, sample] = a point along the line, moved `offset` pixels across it.
    centres = points[:, None, :, :] + offsets[None, :, None, None] * normals[:, None, None, :]
    limit = np.array([gray.shape[1] - 1, gray.shape[0] - 1])

    def at(shift: npt.NDArray[np.floating]) -> npt.NDArray[np.float32]:
        probes = np.rint(centres + shift[:, None, None, :]).astype(np.intp)
        np.minimum(np.maximum(probes, 0, out=probes), limit, out=probes)
        values: npt.NDArray[np.float32] = gray[probes[..., 1], probes[..., 0]].astype(np.float32)
        return values

    across = at(1.5 * normals) - at(-1.5 * normals)
    along = np.abs(at(1.5 * tangents) - at(-1.5 * tangents))
    steady = np.abs(across) >= 2 * along
    best = np.zeros(len(starts), np.int64)
    for sign in (1.0, -1.0):
        hit = (sign * across >= contrast) & steady
        near = hit.copy()
        near[:, 1:] |= hit[:, :-1]
        near[:, :-1] |= hit[:, 1:]
        best = np.maximum(best, np.count_nonzero(near, axis=2).max(axis=1))
    shares: npt.NDArray[np.float64] = best / len(SIDE_SAMPLES)
    return shares


def _coverage(contour: Image, quad: Quad) -> float:
    """Share of the quad's area inside the region outlined by `contour`."""
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int)
    size = (y1 - y0 + 1, x1 - x0 + 1)
    region = np.zeros(size, np.uint8)
    cv2.drawContours(region, [contour], -1, 255, -1, offset=(-int(x0), -int(y0)))
    inside = np.zeros(size, np.uint8)
    cv2.fillPoly(inside, [np.round(quad - (x0, y0)).astype(np.int32)], 255)
    total = cv2.countNonZero(inside)
    return cv2.countNonZero(cv2.bitwise_and(region, inside)) / total if total else 0.0


def side_quads(contour: Image, gray: Image, config: VisionConfig, min_side: float,
               taken: npt.NDArray[np.float64] | None = None) -> list[tuple[Quad, float]]:
    """Card quads built on whole sides of a region's outline, with their far side's edge share.

    `gray` is the frame in the contour's pixels; sides shorter than `min_side` are skipped, and
    so are quads overlapping one of `taken` (bounding boxes of cards found already, rows of x0,
    y0, x1, y1) as non-maximum suppression would judge it.
    """
    sides = config.side_finder
    if taken is None:
        taken = np.zeros((0, 4))
    perimeter = cv2.arcLength(contour, True)
    poly = cv2.approxPolyDP(contour, sides.epsilon * perimeter, True)
    poly = poly.reshape(-1, 2).astype(np.float32)
    count = len(poly)
    if count < 4:
        return []
    orientation = float(np.sign(cv2.contourArea(poly.reshape(-1, 1, 2), oriented=True)))
    following = np.arange(1, count + 1) % count
    preceding = np.arange(-1, count - 1) % count
    after = poly[following] - poly
    lengths = np.sqrt((after * after).sum(axis=1))
    units = after / np.maximum(lengths, 1e-6)[:, None]
    before_units = units[preceding]
    max_cosine = np.sin(np.deg2rad(sides.max_skew))
    cosines = (before_units * units).sum(axis=1)
    turns = before_units[:, 0] * units[:, 1] - before_units[:, 1] * units[:, 0]
    # A convex corner turns the same way as the outline as a whole.
    square = (np.abs(cosines) <= max_cosine) & (turns * orientation > 0)
    # Side i runs from corner i to corner i + 1; the card runs inward along the two sides
    # leaving it (i - 1 reversed, and i + 1), which must be roughly parallel.
    parallel = -(units[preceding] * units[following]).sum(axis=1) >= 1 - max_cosine
    whole = square & square[following] & (lengths >= min_side) & parallel
    found: list[tuple[Quad, float]] = []
    for i in np.nonzero(whole)[0].tolist():
        j = following[i]
        start, end, side = poly[i], poly[j], float(lengths[i])
        into_start, into_end = -units[preceding[i]], units[j]
        shorter_neighbour = min(float(lengths[(i - 1) % count]), float(lengths[j]))
        depths = np.array([d for a in sides.aspects for d in (side / a, side * a)
                           if shorter_neighbour >= sides.min_neighbour * d], np.float32)
        if not len(depths):
            continue
        if len(taken):
            # Cards found already would suppress a card of any of these depths: skip the side.
            far = np.stack([start + depths[:, None] * into_start, end + depths[:, None] * into_end])
            near = np.minimum(start, end)[None, :], np.maximum(start, end)[None, :]
            boxes = np.concatenate([np.minimum(near[0], far.min(axis=0)),
                                    np.maximum(near[1], far.max(axis=0))], axis=1)
            if (iou_matrix(boxes, taken) > config.nms_iou).any(axis=1).all():
                continue
        reach = max(1, round(config.side_reach * min(side, float(depths.min()))))
        shares = _edge_shares(gray, start + depths[:, None] * into_start,
                              end + depths[:, None] * into_end, reach, config.side_contrast)
        best = int(np.argmax(shares))
        if shares[best] < sides.min_evidence:
            continue
        depth = float(depths[best])
        quad = np.array([start, end, end + into_end * depth, start + into_start * depth],
                        np.float32)
        if len(taken) and (iou_matrix(np.array([bounds(quad)]), taken) > config.nms_iou).any():
            continue
        # An edge across the card, parallel to the side it was built on, is the outline of
        # another card lying on it: the region is a covered card, not a whole one.
        inside = INTERIOR_FRACTIONS * depth
        across = _edge_shares(gray, start + inside * into_start, end + inside * into_end,
                              reach, config.side_contrast)
        if across.max() < config.side_cover_evidence and (
            _coverage(contour, quad) >= sides.min_coverage
        ):
            found.append((quad, float(shares[best])))
    return found


def crossed(gray: Image, quad: Quad, config: VisionConfig) -> bool:
    """True when a straight edge runs across the quad parallel to one of its sides: the outline
    of another card lying on it, so the quad spans more than one card."""
    pts = np.asarray(quad, np.float32)
    for a, b, c, d in ((0, 1, 2, 3), (1, 2, 3, 0)):
        # Lines from side a-d to side b-c, parallel to side a-b.
        depth = min(float(np.linalg.norm(pts[d] - pts[a])), float(np.linalg.norm(pts[c] - pts[b])))
        side = float(np.linalg.norm(pts[b] - pts[a]))
        reach = max(1, round(config.side_reach * min(side, depth)))
        starts = pts[a] + INTERIOR_FRACTIONS * (pts[d] - pts[a])
        ends = pts[b] + INTERIOR_FRACTIONS * (pts[c] - pts[b])
        if _edge_shares(gray, starts, ends, reach, config.side_contrast).max() >= (
            config.side_cover_evidence
        ):
            return True
    return False
