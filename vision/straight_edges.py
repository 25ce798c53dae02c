"""Straight edges along and across an outline: a card's side, or another card lying on it.

An edge runs along a line where the brightness steps the same way across it, at the same offset,
over most of its length; one across an outline parallel to a side is the outline of another card
lying on it (`crossed`).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from vision.cards import Image, Quad
from vision.config import VisionConfig

SIDE_SAMPLES = np.linspace(0.05, 0.95, 16, dtype=np.float32)[:, None]
"""Where along a line its edge evidence is sampled."""
INTERIOR_FRACTIONS = np.linspace(0.2, 0.8, 13, dtype=np.float32)[:, None]
"""Depths (shares of an outline's depth) at which it is checked for an edge across it."""


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
