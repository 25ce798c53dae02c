"""Propose: the finders that offer card outlines, and those that read cards seen in part, each
behind its interface and registered by name.

Each outline finder is shown the frame's masks (`detect.card_masks`) and what the finders before it
proposed, and offers candidate outlines, each with its own score (edge support in steps of 0.1,
then area share). The finder's priority is added to that score: the outline finder's outlines
come first, the others only fill gaps. One suppression of overlapping candidates, best first,
gives the outlines that are read. Once they are read, the part finders look for cards seen only
in part (a loose corner, an index alone) away from the cards read, each reading what it finds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import cv2
import numpy as np

from vision.cards import CardObservation, Image, Quad
from vision.config import VisionConfig
from vision.corners import CardCorner
from vision.detect import (
    MaskSet,
    card_masks,
    order_corners,
    quad_of,
    rect_iou,
    same_box,
    touches_border,
)
from vision.errors import VisionError
from vision.finder_corners import read_loose_corners
from vision.finder_felt import card_regions, light_share, object_mask
from vision.finder_index import find_by_index
from vision.finder_parts import parted_pieces
from vision.model import GlyphModel
from vision.outline_boxes import Bounds, bounds, bounds_iou
from vision.outline_sides import crossed, side_quads

Candidate = tuple[float, Quad]
"""A proposed outline in mask pixels and its rank: the finder's priority plus its own score."""
Region = tuple[Image, Sequence[int]]
"""A region's outer contour and its bounding rectangle (x, y, w, h), in mask pixels."""


@dataclass
class Search:
    """One frame's search for outlines: its masks, the candidates proposed so far (ranked), and
    what the outline finder learned of the regions it saw."""

    frame: Image
    masks: MaskSet
    config: VisionConfig
    candidates: list[Candidate] = field(default_factory=list)
    unshaped: list[Region] = field(default_factory=list)
    """Regions of card size that are not card-shaped as a whole."""
    found_boxes: list[Sequence[int]] = field(default_factory=list)
    """Bounding rectangles of the regions that gave outlines outside the fallback masks."""

    @property
    def area(self) -> int:
        """The padded mask's area in pixels."""
        return int(self.masks.masks[0].shape[0] * self.masks.masks[0].shape[1])

    @property
    def min_side(self) -> float:
        """The side of the least card area (`VisionConfig.min_card_area`) in mask pixels."""
        return math.sqrt(self.config.min_card_area * self.area)


class Finder(Protocol):
    """A source of candidate outlines."""

    name: str
    priority: float
    """Added to the score of each outline it proposes: below another finder's, its outlines
    only fill the gaps that finder's leave."""

    def propose(self, search: Search) -> list[Candidate]:
        """Candidate outlines in mask pixels, each with its own score (the priority not added)."""
        ...


FALLBACK_RANK = -10.0
"""Rank offset of outlines from the fallback masks (`MaskSet.fallback`) within the outline
finder's own scores."""
NESTED_RANK = -35.0
"""Rank offset of card-shaped regions lying inside another region's hole (`MaskSet.islands`)."""


class OutlineFinder:
    """Card-shaped regions of the colour masks (and of the learned finder's mask of faces)."""

    name = "outlines"
    priority = 0.0

    def propose(self, search: Search) -> list[Candidate]:
        """The card-shaped outlines of every mask's regions; the others are kept in `search`
        for the finders after it."""
        masks, config, area = search.masks, search.config, search.area
        proposed: list[Candidate] = []
        seen_boxes: list[Sequence[int]] = []
        least = config.min_card_area * area
        # A closed 8-connected chain of n points encloses at most n^2 / (2 pi) pixels.
        least_points = int(np.sqrt(2 * np.pi * least))
        for index in range(len(masks.masks)):
            inside = masks.islands(index, least_points)
            for nested, contour in [*((False, c) for c in masks.contours(index)),
                                    *((True, c) for c in inside)]:
                if len(contour) ** 2 < 2 * np.pi * least:
                    continue
                region_area = cv2.contourArea(contour)
                if not least < region_area < config.max_card_area * area:
                    continue
                box = cv2.boundingRect(contour)
                if any(same_box(box, other) for other in seen_boxes):
                    continue
                fallback = index in masks.fallback
                # A fallback region may not reach the frame's edge (a table's rim), nor overlap
                # a card found in another mask (that card and what it touches).
                if fallback and (touches_border(box, masks) or any(
                        rect_iou(box, b) > config.nms_iou for b in search.found_boxes)):
                    continue
                found = quad_of(contour, config, [c for _, c in proposed])
                if nested:
                    # Only a card-shaped island counts, and only where nothing else found one.
                    if found is not None:
                        seen_boxes.append(box)
                        proposed.append((NESTED_RANK + round(found[1], 1) + region_area / area,
                                         found[0]))
                    continue
                if found is None:
                    search.unshaped.append((contour, box))
                    continue
                seen_boxes.append(box)
                quad, support = found
                if not fallback:
                    search.found_boxes.append(box)
                proposed.append(((FALLBACK_RANK if fallback else 0.0) + round(support, 1)
                                 + region_area / area, quad))
        return proposed


def _piece_of(inner: Sequence[int], outer: Sequence[int]) -> bool:
    """True when rectangle `inner` (x, y, w, h) lies within `outer` (nine tenths of it) and
    `outer` is at most four times as large: a piece of the same card."""
    across = min(inner[0] + inner[2], outer[0] + outer[2]) - max(inner[0], outer[0])
    down = min(inner[1] + inner[3], outer[1] + outer[3]) - max(inner[1], outer[1])
    inner_area = inner[2] * inner[3]
    return (across > 0 and down > 0 and across * down >= 0.9 * inner_area
            and outer[2] * outer[3] <= 4 * inner_area)


class SideFinder:
    """Cards built on a whole side of a region that is not card-shaped (the top card of a
    fanned pile, a card touching a light object), their far side on a visible edge."""

    name = "sides"
    priority = -20.0

    def propose(self, search: Search) -> list[Candidate]:
        """A card for each whole side of the unshaped regions, scored by its far side's edge."""
        masks, config, sides = search.masks, search.config, search.config.side_finder
        if masks.gray is None:
            return []
        regular = [quad for score, quad in search.candidates if score > FALLBACK_RANK]
        taken = np.array([bounds(quad) for quad in regular]).reshape(-1, 4)
        # Cards on one table are of one size: a card built far smaller or larger than those
        # found whole is something else.
        typical = float(np.median([cv2.contourArea(q) for q in regular])) if regular else None
        built: list[Candidate] = []
        for contour, box in search.unshaped:
            # A region much like one that gave a card, or lying within it, is that card.
            if any(rect_iou(box, other) > sides.same_region_iou or _piece_of(box, other)
                   for other in search.found_boxes):
                continue
            for quad, share in side_quads(contour, masks.gray, config, search.min_side, taken):
                ordered = order_corners(quad)
                size = cv2.contourArea(ordered)
                if typical is not None and not (
                    sides.size_ratio * typical <= size <= typical / sides.size_ratio
                ):
                    continue
                if any(np.abs(ordered - other).max() < 0.03 * search.min_side
                       for _, other in search.candidates + built):
                    continue
                built.append((round(share, 1), ordered))
        return built


GATE_STEP = 4
"""The light area left unexplained is measured at this fraction of the mask's resolution."""


def unexplained_light(search: Search, cover_area: float) -> Image | None:
    """The light area (first whiteness mask) outside the outlines found already no larger than
    `cover_area` of the frame, at 1 / GATE_STEP of the mask's resolution; None when less than a
    card's area of light is left in one piece."""
    light = np.ascontiguousarray(search.masks.masks[0][::GATE_STEP, ::GATE_STEP])
    least = search.config.min_card_area * search.area / GATE_STEP**2
    if cv2.countNonZero(light) < least:
        return None
    cover = np.zeros_like(light)
    limit = cover_area * search.area
    quads = [np.rint(q / GATE_STEP).astype(np.int32) for _, q in search.candidates
             if cv2.contourArea(q) <= limit]
    for quad in quads:
        # Filled one by one: the outlines of one card found in several masks overlap.
        cv2.fillConvexPoly(cover, quad, 255)
    if quads:
        cv2.polylines(cover, quads, True, 255, 2)
    left = cv2.subtract(light, cover)
    if cv2.countNonZero(left) < least:
        return None
    # Light clutter (glints, print, slivers along outlines) is no card: some one light region
    # left must be of a card's area.
    _, _, stats, _ = cv2.connectedComponentsWithStats(left, connectivity=8)
    if int(stats[1:, cv2.CC_STAT_AREA].max(initial=0)) < least:
        return None
    return left


def _repeats(quad: Quad, others: list[Quad]) -> bool:
    """True when every corner of the quad lies within 3 % of its long side of another quad's."""
    if not others:
        return False
    _, (side_a, side_b), _ = cv2.minAreaRect(quad)
    nearest = float(np.abs(np.asarray(others) - quad).max(axis=(1, 2)).min())
    return nearest < 0.03 * max(side_a, side_b)


class ClothFinder:
    """Cards on a plain cloth, judged against its local colour (`finder_felt.py`)."""

    name = "cloth"
    priority = -40.0

    def propose(self, search: Search) -> list[Candidate]:
        """The card-shaped regions that differ from the cloth and are lighter than it; a region
        that is not card-shaped is parted by opening, and a piece crossed by a straight edge
        (two cards) is dropped."""
        masks, config, felt = search.masks, search.config, search.config.felt_finder
        if felt is None or masks.colour is None:
            return []
        # It looks only where a card's area of light is left unexplained.
        if unexplained_light(search, felt.explained_area) is None:
            return []
        pad = masks.pad
        found = object_mask(masks.colour[pad:-pad, pad:-pad], felt)
        if found is None:
            return []
        differs, lighter = found
        low, high = config.min_card_area * search.area, config.max_card_area * search.area
        offset = np.array([pad, pad], np.int32)
        out: list[Candidate] = []
        taken = [bounds(quad) for _, quad in search.candidates]
        for region in card_regions(differs, lighter, low, high, felt):
            x, y, w, h = cv2.boundingRect(region + offset)
            # Ranked below every other outline, it would be suppressed by one it overlaps.
            if any(bounds_iou((x, y, x + w, y + h), other) > config.nms_iou for other in taken):
                continue
            whole = quad_of(region + offset, config, [])
            shapes = [whole] if whole is not None else [
                shaped for _, piece in parted_pieces(region, felt.part_kernels)
                if low < cv2.contourArea(piece) < high
                and light_share(lighter, piece) >= felt.min_light_share
                and (shaped := quad_of(piece + offset, config, [])) is not None]
            for quad, support in shapes:
                if _repeats(quad, [c for _, c in search.candidates + out]):
                    continue
                if masks.gray is not None and crossed(masks.gray, quad, config):
                    continue
                out.append((round(support, 1) + cv2.contourArea(quad) / search.area, quad))
        return out


FINDERS: dict[str, Finder] = {finder.name: finder
                              for finder in (OutlineFinder(), SideFinder(), ClothFinder())}
"""Every outline finder by name, in the order they run (each sees what those before it
proposed)."""


@dataclass
class PartSearch:
    """One frame's search for cards seen in part, once its outlines are read: the frame, its
    masks, the outlines found, the cards read so far, and the loose corners found."""

    frame: Image
    masks: MaskSet
    model: GlyphModel
    config: VisionConfig
    outlines: list[Quad]
    observations: list[CardObservation]
    corners: list[CardCorner] = field(default_factory=list)
    """Loose corners the corner finder found (the networks look at them later)."""


class PartFinder(Protocol):
    """A source of cards seen in part (a corner, an index) where no outline showed them."""

    name: str
    priority: float
    """Finders of higher priority run first; each sees the cards those before it read."""

    def read(self, search: PartSearch) -> list[CardObservation]:
        """The cards it finds and reads (`whole=False`), each named with its reading's
        confidence."""
        ...


class CornerFinder:
    """Cards of which only a corner shows (trick piles, fans), read at the corners of the light
    regions away from the cards read (`finder_corners.py`)."""

    name = "corners"
    priority = 0.0

    def read(self, search: PartSearch) -> list[CardObservation]:
        """The cards read at loose corners; the corners found are kept in `search`."""
        return read_loose_corners(search.frame, search.masks, search.outlines,
                                  search.observations, search.model, search.config,
                                  search.corners)


class IndexFinder:
    """Cards found by their index glyphs in light area no card read explains
    (`finder_index.py`)."""

    name = "index"
    priority = -10.0

    def read(self, search: PartSearch) -> list[CardObservation]:
        """The cards read at indices found by their glyphs."""
        return find_by_index(search.frame, search.masks, search.observations, search.model,
                             search.config)


PART_FINDERS: dict[str, PartFinder] = {finder.name: finder
                                       for finder in (CornerFinder(), IndexFinder())}
"""Every finder of cards seen in part by name."""


def _named(config: VisionConfig) -> set[str]:
    """The finders `config.finders` names, every name checked against the registries."""
    unknown = sorted(set(config.finders) - set(FINDERS) - set(PART_FINDERS))
    if unknown:
        raise VisionError(f"no finder is registered as {', '.join(map(repr, unknown))}")
    return set(config.finders)


def finders_of(config: VisionConfig) -> list[Finder]:
    """The outline finders `config.finders` names, in the registry's order."""
    named = _named(config)
    return [finder for name, finder in FINDERS.items() if name in named]


def part_finders_of(config: VisionConfig) -> list[PartFinder]:
    """The finders of cards seen in part `config.finders` names, highest priority first."""
    named = _named(config)
    return sorted((finder for name, finder in PART_FINDERS.items() if name in named),
                  key=lambda finder: -finder.priority)


def find_cards(
    frame: Image, config: VisionConfig | None = None, masks: MaskSet | None = None
) -> list[Quad]:
    """Return the outline of every card found in a BGR frame, best supported first."""
    config = config or VisionConfig()
    search = Search(frame, masks or card_masks(frame, config), config)
    for finder in finders_of(config):
        search.candidates += [(finder.priority + score, quad)
                              for score, quad in finder.propose(search)]
    kept: list[tuple[Quad, Bounds]] = []
    for _, quad in sorted(search.candidates, key=lambda item: -item[0]):
        extent = bounds(quad)
        if all(bounds_iou(extent, other) <= config.nms_iou for _, other in kept):
            kept.append((quad, extent))
    height, width = frame.shape[:2]
    limit = np.array([width - 1, height - 1], dtype=np.float32)
    return [np.clip(search.masks.to_frame(quad), 0, limit).astype(np.float32)
            for quad, _ in kept]
