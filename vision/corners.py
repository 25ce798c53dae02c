"""Read cards from a single visible corner, as in a trick pile where the rest is covered."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.card_size import known_width
from vision.cards import Image, Quad
from vision.config import VisionConfig
from vision.detect import MaskSet
from vision.glyphs import warp_index

Vector = npt.NDArray[np.float32]


@dataclass(frozen=True)
class CardCorner:
    """A right-angled corner of a light region: its tip and the directions of its two edges.

    (first, second) is ordered so that it is not mirrored: with first as the card's short side
    it is a top-left corner; with first as the long side it is a top-right one.
    """

    tip: Vector
    first: Vector
    second: Vector
    shorter_edge: float
    longer_edge: float
    """Lengths of the two visible edges, in frame pixels."""


def find_corners(
    masks: MaskSet, config: VisionConfig, card_width: float | None,
    exclude: Image | None = None,
) -> list[CardCorner]:
    """Right-angled corners with two straight edges of card scale, in frame pixels.

    Corners whose tip falls on a non-zero pixel of `exclude` (mask pixels) are left out. Without a
    card width, edges must be at least `CornerFinderConfig.min_edge` of the width the caller knows
    (`VisionConfig.card_length`), else `CornerFinderConfig.min_share` of the frame's shorter side.
    """
    sized_by = card_width or known_width(config)
    if sized_by is None:
        min_edge = config.corner_finder.min_share * (min(masks.masks[0].shape) - 2 * masks.pad)
    else:
        min_edge = config.corner_finder.min_edge * sized_by * masks.scale
    max_cosine = np.sin(np.deg2rad(config.corner_finder.max_skew))
    min_area = min_edge * min_edge
    too_few = 2 * np.pi * min_area
    corners: list[CardCorner] = []
    for index in searched_masks(masks, config):
        mask = masks.masks[index]
        limit = np.array(mask.shape[::-1], np.float32) - masks.pad - 2
        for contour in masks.contours(index):
            # Every boundary point is listed, so a contour of fewer points than this cannot
            # enclose the area (isoperimetric bound): it is dropped before its area is measured.
            if len(contour) ** 2 < too_few:
                continue
            area = cv2.contourArea(contour)
            if area < min_area:
                continue
            # A region lying wholly on excluded pixels has no corner outside them: its polygon's
            # vertices are points of its outline.
            if exclude is not None and exclude[contour[:, 0, 1], contour[:, 0, 0]].all():
                continue
            perimeter = cv2.arcLength(contour, True)
            poly = cv2.approxPolyDP(contour, 0.01 * perimeter, True).reshape(-1, 2)
            poly = poly.astype(np.float32)
            if len(poly) < 4:
                continue
            inside = np.all((poly > masks.pad + 1) & (poly < limit), axis=1)
            if not inside.any():
                continue
            orientation = np.sign(cv2.contourArea(poly.reshape(-1, 1, 2), oriented=True))
            before = poly[np.arange(-1, len(poly) - 1)] - poly
            after = poly[np.arange(1, len(poly) + 1) % len(poly)] - poly
            if exclude is not None:
                xs, ys = poly[:, 0].astype(np.intp), poly[:, 1].astype(np.intp)
                inside &= exclude[ys.clip(0, exclude.shape[0] - 1),
                                  xs.clip(0, exclude.shape[1] - 1)] == 0
            if not inside.any():
                continue
            len_b = np.sqrt((before * before).sum(axis=1))
            len_a = np.sqrt((after * after).sum(axis=1))
            # Both edges of card scale; or one a long stretch of the card's side and the other
            # cut short where an index pip or the picture meets the card's edge.
            shorter, longer = np.minimum(len_b, len_a), np.maximum(len_b, len_a)
            long_enough = (shorter >= min_edge) | (
                (shorter >= config.corner_finder.short_edge * min_edge)
                & (longer >= config.corner_finder.long_edge * min_edge))
            for i in np.nonzero(long_enough & inside)[0]:
                u, v = before[i] / len_b[i], after[i] / len_a[i]
                if abs(float(u @ v)) > max_cosine:
                    continue
                turn = float(u[0] * v[1] - u[1] * v[0])
                if turn * orientation > 0:
                    continue
                first, second = (u, v) if turn > 0 else (v, u)
                shorter = float(min(len_a[i], len_b[i])) / masks.scale
                longer = float(max(len_a[i], len_b[i])) / masks.scale
                corners.append(CardCorner(masks.to_frame(poly[i]), first, second, shorter, longer))
    return corners


def corner_views(frame: Image, corner: CardCorner, card_width: float, config: VisionConfig,
                 hypotheses: tuple[bool, ...] = (True, False)) -> Iterator[tuple[Image, Quad]]:
    """The index view at a corner for the top-left and top-right hypotheses (`first_is_short`
    True and False, as asked for), with its outline.

    Views are warped one at a time, as asked for: a reader that stops at the first does not pay
    for the second."""
    unit = card_width / config.card_width
    crop_w = round(config.index_width * config.card_width) * unit
    crop_h = round(config.index_height * config.card_height) * unit
    for first_is_short in hypotheses:
        if first_is_short:
            across, down = corner.first, corner.second
            origin = corner.tip
        else:
            across, down = -corner.second, corner.first
            origin = corner.tip + corner.second * crop_w
        view = warp_index(frame, origin, across, down, unit, config)
        outline = np.array([origin, origin + across * crop_w,
                            origin + across * crop_w + down * crop_h, origin + down * crop_h],
                           np.float32)
        yield view, outline


def _unit(vector: Vector) -> Vector:
    """The vector scaled to length one."""
    unit: Vector = vector / max(float(np.linalg.norm(vector)), 1e-6)
    return unit


def cards_of_index(outline: Quad, config: VisionConfig, aspect: float = 1.4) -> tuple[Quad, Quad]:
    """The whole card a corner index's outline (from `corner_views`) belongs to, were the card
    uncovered, for either hypothesis of `corner_views`: the card whose top-left corner the
    index box holds, and the one whose top-right corner it holds. Its width is the index box's
    over its share of a card; its length `aspect` times that."""
    pts = np.asarray(outline, np.float32)
    across, down = pts[1] - pts[0], pts[3] - pts[0]
    width = float(np.linalg.norm(across)) / config.index_width
    along, downward = _unit(across) * width, _unit(down) * width * aspect
    left = np.array([pts[0], pts[0] + along, pts[0] + along + downward, pts[0] + downward],
                    np.float32)
    right = np.array([pts[1] - along, pts[1], pts[1] + downward, pts[1] - along + downward],
                     np.float32)
    return left, right


def searched_masks(masks: MaskSet, config: VisionConfig) -> list[int]:
    """The masks searched for loose corners: the first `CornerFinderConfig.masks` colour masks,
    then the learned finder's (`LearnedFinderConfig.corners`)."""
    searched = config.corner_finder.masks
    first = [index for index in range(min(searched, len(masks.masks)))
             if index not in masks.fallback and index not in masks.learned]
    learned = config.learned_finder is not None and config.learned_finder.corners
    return first + (sorted(masks.learned) if learned else [])
