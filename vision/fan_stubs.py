"""Corners of fanned cards whose side shows only as a short stub above the card below them."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.cards import Image
from vision.config import VisionConfig
from vision.corners import CardCorner, fitted_edge, searched_masks
from vision.detect import MaskSet


@dataclass(frozen=True)
class StubCorner:
    """A card's corner at the top of a short stub of its side, with the index hypothesis
    (`first_is_short`) its top edge implies and the mask it was found in."""

    corner: CardCorner
    first_is_short: bool
    mask: int


def find_stub_corners(masks: MaskSet, config: VisionConfig, card_width: float,
                      exclude: Image | None = None) -> list[StubCorner]:
    """Corners of cards atop a short stub of their side, in every region of the searched
    masks that does not lie wholly on non-zero pixels of `exclude` (see `StubSearch`)."""
    search = StubSearch(masks, config, card_width, exclude)
    too_few = 2 * np.pi * search.min_area
    for index in searched_masks(masks, config):
        for contour in masks.contours(index):
            if len(contour) ** 2 < too_few:
                continue
            area = cv2.contourArea(contour)
            if exclude is not None and exclude[contour[:, 0, 1], contour[:, 0, 0]].all():
                continue
            search.region(index, contour, area)
    return search.found


class StubSearch:
    """Collects the corners of cards at the top of a short rise from a step in a region's
    outline, region by region (`region` is handed each region as the corner search meets it).

    In a fan, a card lying on another shows its side for a few pixels above the lower card's
    top before its own top edge runs on: too short a side for a loose corner, and smoothed away
    by the corner search's polygon. Each region of at least `fan_step_min_area` squared card
    widths is approximated again more finely (`stub_epsilon` of its perimeter); at a concave
    vertex whose two edges leave along two nearly parallel tops (the lower card's one way, the
    raised card's back the other way, each at least `corner_min_edge` card widths, within
    `fan_step_skew` degrees) and whose rise between them is `stub_min_rise` to `fan_step_rise`
    card widths, the raised card's corner is where its fitted top meets the rise; its side is
    taken square to its top. Corners whose tip falls on `exclude` are left out."""

    def __init__(self, masks: MaskSet, config: VisionConfig, card_width: float,
                 exclude: Image | None) -> None:
        self.masks, self.config, self.card_width, self.exclude = masks, config, card_width, exclude
        self.found: list[StubCorner] = []
        width = card_width * masks.scale
        self.min_area = config.fan_step_min_area * width * width
        self.min_top, self.max_rise = config.corner_min_edge * width, config.fan_step_rise * width
        self.min_rise = config.stub_min_rise * width
        self.parallel = float(np.cos(np.deg2rad(config.fan_step_skew)))
        self.loose_sine = float(np.sin(np.deg2rad(config.fan_step_skew + 15.0)))

    def region(self, index: int, contour: Image, area: float) -> None:
        """Add the stub corners of one region (outer contour `contour` of mask `index`)."""
        if area < self.min_area:
            return
        masks, config = self.masks, self.config
        shape = masks.masks[index].shape
        limit = np.array(shape[::-1], np.float32) - masks.pad - 2
        perimeter = cv2.arcLength(contour, True)
        poly = cv2.approxPolyDP(contour, config.stub_epsilon * perimeter, True)
        poly = poly.reshape(-1, 2).astype(np.float32)
        if len(poly) < 5:
            return
        orientation = float(np.sign(cv2.contourArea(poly.reshape(-1, 1, 2), oriented=True)))
        # shifted(values, k)[i] is the value k vertices back from vertex i (as np.roll by k).
        count = len(poly)
        back = np.arange(count)

        def shifted(values: np.ndarray, k: int) -> np.ndarray:
            return values[(back - k) % count]

        after = shifted(poly, -1) - poly
        before = shifted(poly, 1) - poly
        # Positive at concave vertices (the region turns inward), negative at convex ones.
        turns = (before[:, 0] * after[:, 1] - before[:, 1] * after[:, 0]) * orientation
        inside = np.all((poly > masks.pad + 1) & (poly < limit), axis=1)
        reach = max(2.0, config.stub_epsilon * perimeter)
        lengths = np.hypot(after[:, 0], after[:, 1])
        concave = inside & (turns > 0)
        for sense in (-1, 1):
            # A step's short rise leads from its concave vertex to a convex one.
            # For each vertex: the rise to the vertex `sense` back, the lower card's top
            # onwards, the raised card's top beyond the rise (as a step shows them).
            rise_len = shifted(lengths, 1) if sense == 1 else lengths
            stepped = (concave & (shifted(turns, sense) < 0) & (rise_len >= self.min_rise)
                       & (rise_len <= self.max_rise))
            if not bool(stepped.any()):
                continue
            lower = shifted(poly, -sense) - poly
            raised = shifted(poly, 2 * sense) - shifted(poly, sense)
            lower_len = np.hypot(lower[:, 0], lower[:, 1])
            raised_len = np.hypot(raised[:, 0], raised[:, 1])
            rise = shifted(poly, sense) - poly
            cosine = (lower * raised).sum(axis=1) / np.maximum(lower_len * raised_len, 1e-6)
            # The polygon's short rise is known only roughly: square to the raised top within
            # 15 degrees more than the skew, before a line is fitted to that top.
            square = np.abs((rise * raised).sum(axis=1)) <= self.loose_sine * np.maximum(
                rise_len * raised_len, 1e-6)
            candidate = (stepped & (lower_len >= self.min_top) & (raised_len >= self.min_top)
                         & (cosine <= -self.parallel) & square)
            for i in np.nonzero(candidate)[0]:
                stub = _stub_at(contour, poly, int(i), sense, reach, self.parallel)
                if stub is not None:
                    self._add(index, *stub)

    def _add(self, index: int, tip: np.ndarray, top: np.ndarray, down: np.ndarray) -> None:
        """Keep a stub corner found in mask `index` unless its tip lies on excluded pixels."""
        x, y = int(tip[0]), int(tip[1])
        shape = self.masks.masks[index].shape
        if not (0 <= y < shape[0] and 0 <= x < shape[1]):
            return
        if self.exclude is not None and self.exclude[y, x]:
            return
        # Corners are handed on unmirrored: the first edge turns to the second as x turns to
        # y; the top is the card's short side.
        frame_tip, width = self.masks.to_frame(tip), self.card_width
        if float(top[0] * down[1] - top[1] * down[0]) > 0:
            self.found.append(StubCorner(CardCorner(frame_tip, top, down, width, width), True,
                                         index))
        else:
            self.found.append(StubCorner(CardCorner(frame_tip, down, top, width, width), False,
                                         index))


def _stub_at(
    contour: Image, poly: np.ndarray, i: int, sense: int, reach: float, parallel: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The raised card's corner tip, top direction (away from the corner) and inward side
    direction at concave vertex `i` rising to the vertex `sense` back; None when the raised
    card's fitted top is not square to the rise."""
    count = len(poly)
    vertex = poly[i]
    top_start = poly[(i - sense) % count]
    top_end = poly[(i - 2 * sense) % count]
    rise = top_start - vertex
    edge = fitted_edge(contour, top_start, top_end, reach)
    if edge is None:
        return None
    through, along = edge
    normal = np.array([-along[1], along[0]], np.float32)
    unit_rise = rise / max(float(np.hypot(*rise)), 1e-6)
    crossing = float(unit_rise @ normal)
    if abs(crossing) < 1e-3 or abs(float(along @ unit_rise)) > np.sqrt(1 - parallel ** 2):
        return None
    tip = vertex + unit_rise * float((through - vertex) @ normal) / crossing
    # The raised card lies on the side of its top away from the step: down is towards the
    # lower card's top, square to the raised card's top.
    down = normal if float(normal @ unit_rise) < 0 else -normal
    return tip.astype(np.float32), along.astype(np.float32), down.astype(np.float32)
