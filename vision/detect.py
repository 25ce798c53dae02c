"""Find card outlines in a frame: bright low-saturation quads of card shape.

Where no colour mask gives a card, three fallbacks are tried: regions enclosed by a ring of edges
(a white card on a light table), cards built on one whole side of a region that is not
card-shaped as a whole (the top card of a fanned pile, a card touching a light object), and the
pieces such a region falls into when opened (a card parted from a thin light streak it touches).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.cards import Image, Quad
from vision.config import LearnedFinderConfig, VisionConfig
from vision.errors import VisionError
from vision.finder_felt import card_regions, light_share, object_mask
from vision.finder_lines import line_quads, line_segments
from vision.finder_net import inside_mask
from vision.finder_parts import parted_pieces
from vision.outline_boxes import Bounds, bounds, bounds_iou
from vision.outline_sides import crossed, side_quads

OPENING = np.ones((3, 3), np.uint8)
"""The square every colour mask is opened by: bridges and specks a pixel wide go."""
CLOSING = np.ones((5, 5), np.uint8)
"""The square the masks of what differs from the table are closed by first."""


def order_corners(points: npt.NDArray[np.floating]) -> Quad:
    """Order four points clockwise (in image coordinates) starting from the top-left-most."""
    pts = np.asarray(points, dtype=np.float32).reshape(4, 2)
    xy = pts.tolist()
    cx = sum(x for x, _ in xy) / 4.0
    cy = sum(y for _, y in xy) / 4.0
    turn = sorted(range(4), key=lambda i: math.atan2(xy[i][1] - cy, xy[i][0] - cx))
    start = min(range(4), key=lambda k: xy[turn[k]][0] + xy[turn[k]][1])
    ordered: Quad = pts[[turn[(start + k) % 4] for k in range(4)]]
    return ordered


def _shrink(frame: Image, config: VisionConfig) -> tuple[Image, float, int]:
    """Return the frame shrunk and padded for detection, its scale and the padding in pixels."""
    height, width = frame.shape[:2]
    scale = min(1.0, config.detect_long_side / max(height, width))
    if max(height, width) < config.detect_min_long_side:
        scale = config.detect_min_long_side / max(height, width)
    small = frame
    if scale != 1.0:
        size = (round(width * scale), round(height * scale))
        small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA if scale < 1.0
                           else cv2.INTER_LINEAR)
    pad = max(2, round(config.pad_fraction * max(small.shape[:2])))
    padded = cv2.copyMakeBorder(small, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(40, 40, 40))
    return padded, scale, pad


def _masks(
    small: Image, pad: int, config: VisionConfig
) -> tuple[list[Image], list[Image], Image, int]:
    """Binary masks in which a card face should appear as one region, opened by a 3x3 square
    (`OPENING`), fallback masks that are only searched where the first found nothing, the frame
    in grey, and the index of the mask cut along edges."""
    _, saturation, value = cv2.split(cv2.cvtColor(small, cv2.COLOR_BGR2HSV))
    whiteness = cv2.subtract(value, saturation)  # contiguous planes: a third of the time
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    gradient = cv2.morphologyEx(gray, cv2.MORPH_GRADIENT, OPENING)
    _, not_edges = cv2.threshold(gradient, config.edge_level, 255, cv2.THRESH_BINARY_INV)
    otsu, _ = cv2.threshold(whiteness, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # A flat opening commutes with a threshold: the grey image is opened once for all levels.
    opened_whiteness = cv2.morphologyEx(whiteness, cv2.MORPH_OPEN, OPENING)
    masks: list[Image] = []
    for level in (otsu, otsu + 40, 200):
        if level < 255:
            masks.append(cv2.threshold(opened_whiteness, level, 255, cv2.THRESH_BINARY)[1])
    block = max(3, (min(small.shape[:2]) // 4) | 1)
    mask = cv2.adaptiveThreshold(
        whiteness, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, block, -15
    )
    masks.append(cv2.morphologyEx(cv2.bitwise_and(mask, not_edges), cv2.MORPH_OPEN, OPENING))
    edge_cut = len(masks) - 1
    masks += _off_background_masks(small, pad, config)
    # A card on a table as light as its face still shows its outline as a ring of edges.
    rings = cv2.bitwise_not(not_edges)
    _clear_border(rings, pad)
    return masks, [rings], gray, edge_cut


def _clear_border(mask: Image, pad: int) -> None:
    """Zero the padding of a mask and the frame's outermost pixel row and column."""
    mask[: pad + 1] = 0
    mask[-pad - 1 :] = 0
    mask[:, : pad + 1] = 0
    mask[:, -pad - 1 :] = 0


def _off_background_masks(small: Image, pad: int, config: VisionConfig) -> list[Image]:
    """Masks of what differs in colour from the table, taken as the frame's border colour,
    closed and opened."""
    inner = small[pad:-pad, pad:-pad]
    strip = max(2, pad // 2)
    border = np.concatenate([
        inner[:strip].reshape(-1, 3), inner[-strip:].reshape(-1, 3),
        inner[:, :strip].reshape(-1, 3), inner[:, -strip:].reshape(-1, 3),
    ])[::7].T.copy()
    table = np.median(border, axis=1)
    spread = np.median(np.abs(border - table[:, None]), axis=1)
    if float(spread.max()) > config.max_table_spread:
        return []
    scalar = (*(float(v) for v in table), 0.0)  # OpenCV takes a 4-tuple as a per-channel scalar
    difference = cv2.absdiff(small, scalar)  # type: ignore[call-overload]
    channels = cv2.split(difference)
    distance = cv2.max(cv2.max(channels[0], channels[1]), channels[2])
    distance[:pad] = 0
    distance[-pad:] = 0
    distance[:, :pad] = 0
    distance[:, -pad:] = 0
    # Closed by a 5x5 square and opened by `OPENING`: flat, so done once for every level.
    smoothed = cv2.morphologyEx(cv2.morphologyEx(distance, cv2.MORPH_CLOSE, CLOSING),
                                cv2.MORPH_OPEN, OPENING)
    return [cv2.threshold(smoothed, level, 255, cv2.THRESH_BINARY)[1]
            for level in config.table_distances]


NEXT_CORNER = np.array([1, 2, 3, 0])
SIDE_STEPS = np.linspace(0.0, 1.0, 16, endpoint=False, dtype=np.float32)[None, :, None]
"""Where along each side of a quad its edge support is sampled."""


def _turning_points(contour: Image) -> Image:
    """The points of a pixel chain where its direction changes: the same polyline, drawn far
    faster as a thick line, which costs a round cap per point."""
    points = contour.reshape(-1, 2)
    steps = np.empty_like(points)
    steps[:-1] = points[1:] - points[:-1]
    steps[-1] = points[0] - points[-1]
    turns = (steps[1:] != steps[:-1]).any(axis=1)
    # Point i + 1 is a turning point when the step into it differs from the step out of it.
    keep = np.empty(len(points), bool)
    keep[1:] = turns
    keep[0] = bool((steps[0] != steps[-1]).any())
    return points[keep].reshape(-1, 1, 2) if keep.any() else contour


def _edge_support(contour: Image, quad: Quad, reach: float) -> float:
    """Share of points along the quad's sides that lie within `reach` pixels of the contour."""
    x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 2
    band = np.zeros((y1 - y0 + 1, x1 - x0 + 1), np.uint8)
    thickness = max(1, round(2 * reach))
    cv2.drawContours(band, [_turning_points(contour)], -1, 255, thickness,
                     offset=(-int(x0), -int(y0)))
    ends = quad[NEXT_CORNER]
    samples = (quad[:, None, :] + (ends - quad)[:, None, :] * SIDE_STEPS).reshape(-1, 2)
    points = np.round(samples).astype(np.intp) - (x0, y0)
    np.minimum(np.maximum(points, 0, out=points), (band.shape[1] - 1, band.shape[0] - 1),
               out=points)
    return float(np.count_nonzero(band[points[:, 1], points[:, 0]])) / len(samples)


def _approx_quad(hull: Image, config: VisionConfig) -> Quad | None:
    """A four-corner approximation of a convex hull, trying coarser tolerances in turn."""
    perimeter = cv2.arcLength(hull, True)
    for factor in (0.5, 0.75, 1.0, 1.5):
        approx = cv2.approxPolyDP(hull, factor * config.approx_epsilon * perimeter, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float32)
        if len(approx) < 4:
            return None
    return None


def _quad_of(
    contour: Image, config: VisionConfig, seen: list[Quad]
) -> tuple[Quad, float] | None:
    """The contour's card-shaped quad and its edge support; None if not card-like or `seen`."""
    area = cv2.contourArea(contour)
    hull = cv2.convexHull(contour)
    hull_area = cv2.contourArea(hull)
    if hull_area <= 0 or area / hull_area < config.min_solidity:
        return None
    rough = _approx_quad(hull, config)
    if rough is not None and cv2.contourArea(rough) >= config.min_hull_fill * hull_area:
        return _checked(order_corners(rough), contour, config.min_edge_support, config, seen)
    rect = cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32)
    if hull_area < config.min_rect_fill * cv2.contourArea(rect):
        return None
    return _checked(order_corners(rect), contour, config.min_rect_support, config, seen)


def _checked(
    quad: Quad, contour: Image, min_support: float, config: VisionConfig,
    seen: list[Quad], aspects: tuple[float, float] | None = None,
) -> tuple[Quad, float] | None:
    """The quad and its edge support if it has a card's aspect (`aspects`, by default
    `min_aspect`-`max_aspect`), is new and follows the contour."""
    _, (side_a, side_b), _ = cv2.minAreaRect(quad)
    aspect = max(side_a, side_b) / max(1.0, min(side_a, side_b))
    low, high = aspects or (config.min_aspect, config.max_aspect)
    if not low < aspect < high:
        return None
    if aspect > config.squeezed_aspect and not is_even(quad, config.max_side_ratio):
        return None
    if seen and float(np.abs(np.asarray(seen) - quad).max(axis=(1, 2)).min()) < 0.03 * max(
        side_a, side_b
    ):
        return None
    reach = config.support_reach * min(side_a, side_b)
    support = _edge_support(contour, quad, reach)
    if support < min_support:
        return None
    return quad, support


def is_even(quad: Quad, max_ratio: float) -> bool:
    """Whether each pair of opposite sides of the quad differ in length at most `max_ratio`."""
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    return all(max(sides[i], sides[i + 2]) <= max_ratio * max(1.0, min(sides[i], sides[i + 2]))
               for i in (0, 1))


def _rect_iou(a: Sequence[int], b: Sequence[int]) -> float:
    """IoU of two bounding rectangles (x, y, w, h)."""
    across = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    down = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    if across <= 0 or down <= 0:
        return 0.0
    inter = across * down
    return inter / (a[2] * a[3] + b[2] * b[3] - inter)


def _piece_of(inner: Sequence[int], outer: Sequence[int]) -> bool:
    """True when rectangle `inner` (x, y, w, h) lies within `outer` (nine tenths of it) and
    `outer` is at most four times as large: a piece of the same card."""
    across = min(inner[0] + inner[2], outer[0] + outer[2]) - max(inner[0], outer[0])
    down = min(inner[1] + inner[3], outer[1] + outer[3]) - max(inner[1], outer[1])
    inner_area = inner[2] * inner[3]
    return (across > 0 and down > 0 and across * down >= 0.9 * inner_area
            and outer[2] * outer[3] <= 4 * inner_area)


def _same_box(a: Sequence[int], b: Sequence[int]) -> bool:
    """True when two bounding rectangles (x, y, w, h) agree to within 2% of their size."""
    tolerance = 0.02 * max(a[2], a[3], b[2], b[3]) + 1
    return (abs(a[0] - b[0]) <= tolerance and abs(a[1] - b[1]) <= tolerance
            and abs(a[2] - b[2]) <= tolerance and abs(a[3] - b[3]) <= tolerance)


def _touches_border(box: Sequence[int], masks: MaskSet) -> bool:
    """True when a bounding rectangle (x, y, w, h) reaches the frame's edge in a padded mask."""
    height, width = masks.masks[0].shape[:2]
    reach = masks.pad + 3
    x, y, w, h = box
    return x <= reach or y <= reach or x + w >= width - reach or y + h >= height - reach


@dataclass(frozen=True)
class MaskSet:
    """Binary masks of card-like regions in the shrunk, padded frame, and how to map back."""

    masks: list[Image]
    scale: float
    pad: int
    fallback: frozenset[int] = frozenset()
    """Masks whose quads only count where no other mask found a card."""
    gray: Image | None = None
    """The shrunk, padded frame in grey, where card sides hidden in a region are checked."""
    colour: Image | None = None
    """The shrunk, padded frame in colour, for finders that judge colours."""
    learned: frozenset[int] = frozenset()
    """Masks of the learned finder (`vision.finder_net`): searched for outlines only, ranked at
    `LearnedFinderConfig.rank`."""
    opened_in: frozenset[int] = frozenset()
    """Masks that follow edges (cut along them, or their rings), whose regions not card-shaped
    are opened: there a card and a light thing touching it are joined by thin bridges, where
    the masks of fixed whiteness levels merge them in bulk."""
    nested: frozenset[int] = frozenset()
    """Masks whose regions lying inside a hole of another (cards on a dark mat ringed by a light
    table) are searched too, ranked to fill gaps (`VisionConfig.nested_regions`): the masks of
    fixed whiteness levels, where the light table and the cards are alike."""
    _contours: dict[int, Sequence[Image]] = field(default_factory=dict, compare=False, repr=False)
    _islands: dict[int, list[Image]] = field(default_factory=dict, compare=False, repr=False)

    def contours(self, index: int) -> Sequence[Image]:
        """Outer contours (every boundary point) of mask `index`, found once and kept."""
        if index not in self._contours:
            if index in self.nested:
                self.islands(index)
            else:
                found, _ = cv2.findContours(self.masks[index], cv2.RETR_EXTERNAL,
                                            cv2.CHAIN_APPROX_NONE)
                self._contours[index] = found
        return self._contours[index]

    def islands(self, index: int, least_points: int = 0) -> list[Image]:
        """Outer contours of mask `index`'s regions inside another's hole (none unless the mask
        is one of `nested`), found once, with its outer contours, and kept."""
        if index not in self.nested:
            return []
        if index not in self._islands:
            outer, inside = outlines_and_islands(self.masks[index], least_points)
            self._contours[index], self._islands[index] = outer, inside
        return self._islands[index]

    def to_frame(self, points: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """Map points from mask pixels to frame pixels."""
        return ((points - self.pad) / self.scale).astype(np.float32)


def outlines_and_islands(mask: Image, least_points: int = 0
                         ) -> tuple[Sequence[Image], list[Image]]:
    """The outer contours (every boundary point) of a mask's regions, as `RETR_EXTERNAL` finds
    them, and those of the regions lying inside a hole of another region (cards on a dark mat
    that a light table rings all round) of at least `least_points` points, from one search."""
    found, tree = cv2.findContours(mask, cv2.RETR_TREE, cv2.CHAIN_APPROX_NONE)
    if not found:
        return found, []
    parents = tree[0][:, 3].tolist()
    outer, inside = [], []
    for k, contour in enumerate(found):
        if parents[k] < 0:
            outer.append(contour)
            continue
        if len(contour) < least_points:
            continue
        depth, parent = 0, parents[k]
        while parent >= 0:
            depth, parent = depth + 1, parents[parent]
        # Depths alternate: a region's outline, its hole's, a region inside that hole's, ...
        if depth % 2 == 0:
            inside.append(contour)
    return tuple(outer), inside


def card_masks(frame: Image, config: VisionConfig) -> MaskSet:
    """Shrink and pad the frame and build the masks that cards are looked for in."""
    small, scale, pad = _shrink(frame, config)
    opened, fallback, gray, edge_cut = _masks(small, pad, config)
    indices = frozenset(range(len(opened), len(opened) + len(fallback)))
    colour = MaskSet(opened + fallback, scale, pad, fallback=indices, gray=gray,
                     opened_in=indices | {edge_cut}, colour=small,
                     nested=frozenset(range(edge_cut)) if config.nested_regions else frozenset())
    if config.learned_finder is not None and not config.learned_finder.in_doubt:
        return with_learned_faces(colour, config.learned_finder)
    return colour


def with_learned_faces(colour: MaskSet, finder: LearnedFinderConfig,
                       region: Bounds | None = None) -> MaskSet:
    """The colour masks with the learned finder's mask of card faces added, the finder looking
    only within `region` (frame pixels: left, top, right, bottom) when given, at the scale it
    would see the whole frame."""
    if colour.colour is None:
        raise VisionError("the learned finder needs the shrunk frame the colour masks keep")
    pad = colour.pad
    small = colour.colour[pad:-pad, pad:-pad]
    height, width = small.shape[:2]
    left, top, right, bottom = 0, 0, width, height
    if region is not None:
        left, top = (max(0, int(v * colour.scale)) for v in region[:2])
        right = min(width, int(np.ceil(region[2] * colour.scale)))
        bottom = min(height, int(np.ceil(region[3] * colour.scale)))
    faces = np.zeros((height, width), np.uint8)
    if right - left >= 2 and bottom - top >= 2:
        seen = min(1.0, finder.long_side / max(height, width))
        look = max(1, round(seen * max(right - left, bottom - top)))
        faces[top:bottom, left:right] = inside_mask(small[top:bottom, left:right], look,
                                                    finder.level)
    opened = [m for k, m in enumerate(colour.masks) if k not in colour.fallback]
    fallback = [colour.masks[k] for k in sorted(colour.fallback)]
    opened.append(cv2.copyMakeBorder(faces, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0))
    indices = frozenset(range(len(opened), len(opened) + len(fallback)))
    # The fallback masks move one place on, behind the finder's; their contours found already
    # are kept.
    moved = {k: k + (1 if k in colour.fallback else 0) for k in range(len(colour.masks))}
    return MaskSet(opened + fallback, colour.scale, pad, fallback=indices, gray=colour.gray,
                   opened_in=frozenset(moved[k] for k in colour.opened_in),
                   colour=colour.colour, learned=frozenset({len(opened) - 1}),
                   nested=colour.nested,
                   _contours={moved[k]: found for k, found in colour._contours.items()})


def _side_candidates(
    masks: MaskSet, gray: Image, unshaped: list[tuple[Image, Sequence[int]]],
    found_boxes: list[Sequence[int]], candidates: list[tuple[float, Quad]],
    config: VisionConfig,
) -> list[tuple[float, Quad]]:
    """Cards built on whole sides of the regions that were not card-shaped, ranked below all
    other candidates (by the edge share of their far side)."""
    frame_area = masks.masks[0].shape[0] * masks.masks[0].shape[1]
    min_side = math.sqrt(config.min_card_area * frame_area)
    regular = [quad for score, quad in candidates if score > -10.0]
    taken = np.array([bounds(quad) for quad in regular]).reshape(-1, 4)
    # Cards on one table are of one size: a card built far smaller or larger than those found
    # whole is something else.
    typical = float(np.median([cv2.contourArea(q) for q in regular])) if regular else None
    built: list[tuple[float, Quad]] = []
    for contour, box in unshaped:
        # A region much like one that gave a card, or lying within it, is that card.
        if any(_rect_iou(box, other) > config.same_region_iou or _piece_of(box, other)
               for other in found_boxes):
            continue
        for quad, share in side_quads(contour, gray, config, min_side, taken):
            ordered = order_corners(quad)
            area = cv2.contourArea(ordered)
            if typical is not None and not (
                config.side_size_ratio * typical <= area <= typical / config.side_size_ratio
            ):
                continue
            if any(np.abs(ordered - other).max() < 0.03 * min_side
                   for _, other in candidates + built):
                continue
            built.append((-20.0 + round(share, 1), ordered))
    return built


PARTED_RANK = -15.0
NESTED_RANK = -35.0
"""Rank offset of cards found as regions inside another region's hole (`islands`)."""
"""Cards parted from what they touch rank below the edge-ring fallback, above cards built on one
side."""


def _parted_candidates(
    unshaped: list[tuple[Image, Sequence[int]]], found_boxes: list[Sequence[int]],
    candidates: list[tuple[float, Quad]], frame_area: int, gray: Image | None,
    config: VisionConfig,
) -> list[tuple[float, Quad]]:
    """Card quads among the pieces of the regions that were not card-shaped, once opened."""
    parted: list[tuple[float, Quad]] = []
    if not config.part_kernels:
        return parted
    for contour, box in unshaped:
        if any(_rect_iou(box, other) > config.same_region_iou or _piece_of(box, other)
               for other in found_boxes):
            continue
        # A region as large as half the frame is a table or a sheet, too costly to open.
        if box[2] * box[3] > config.part_max_box * frame_area:
            continue
        whole = cv2.contourArea(contour)
        for _, piece in parted_pieces(contour, config.part_kernels):
            area = cv2.contourArea(piece)
            if not config.min_card_area * frame_area < area < config.max_card_area * frame_area:
                continue
            # A piece with nearly all of the region's area is the region, not card-shaped.
            if area > 0.98 * whole:
                continue
            found = _quad_of(piece, config, [c for _, c in candidates + parted])
            if found is None:
                continue
            quad, support = found
            # A piece lying within an outline found already, at most four times its size, is a
            # part of that card.
            extent = bounds(quad)
            if any(_within(extent, outer) and _box_area(outer) <= 4 * _box_area(extent)
                   for outer in (bounds(other) for _, other in candidates)):
                continue
            # An edge straight across it is another card's outline: the piece is two cards.
            if gray is None or not crossed(gray, quad, config):
                parted.append((PARTED_RANK + round(support, 1) + area / frame_area, quad))
    return parted


def _repeats(quad: Quad, others: list[Quad]) -> bool:
    """True when every corner of the quad lies within 3 % of its long side of another quad's."""
    if not others:
        return False
    _, (side_a, side_b), _ = cv2.minAreaRect(quad)
    nearest = float(np.abs(np.asarray(others) - quad).max(axis=(1, 2)).min())
    return nearest < 0.03 * max(side_a, side_b)


def cloth_candidates(masks: MaskSet, candidates: list[tuple[float, Quad]],
                     config: VisionConfig) -> list[tuple[float, Quad]]:
    """Cards on a plain cloth (`finder_felt.py`), in mask pixels, ranked at that finder's
    priority; a region that is not card-shaped is parted by opening, and a piece crossed by a
    straight edge (two cards) is dropped. None repeats one of `candidates`."""
    frame_area = masks.masks[0].shape[0] * masks.masks[0].shape[1]
    felt = config.felt_finder
    if felt is None or masks.colour is None:
        return []
    # Like the line finder, it looks only where a card's area of light is left unexplained.
    if _unexplained_light(masks, candidates, frame_area, config) is None:
        return []
    pad = masks.pad
    found = object_mask(masks.colour[pad:-pad, pad:-pad], felt)
    if found is None:
        return []
    differs, lighter = found
    low, high = config.min_card_area * frame_area, config.max_card_area * frame_area
    offset = np.array([pad, pad], np.int32)
    out: list[tuple[float, Quad]] = []
    taken = [bounds(quad) for _, quad in candidates]
    for region in card_regions(differs, lighter, low, high, felt):
        x, y, w, h = cv2.boundingRect(region + offset)
        # Ranked below every other outline, it would be suppressed by one it overlaps.
        if any(bounds_iou((x, y, x + w, y + h), other) > config.nms_iou for other in taken):
            continue
        whole = _quad_of(region + offset, config, [])
        shapes = [whole] if whole is not None else [
            shaped for _, piece in parted_pieces(region, felt.part_kernels)
            if low < cv2.contourArea(piece) < high
            and light_share(lighter, piece) >= felt.min_light_share
            and (shaped := _quad_of(piece + offset, config, [])) is not None]
        for quad, support in shapes:
            if _repeats(quad, [c for _, c in candidates + out]):
                continue
            if masks.gray is not None and crossed(masks.gray, quad, config):
                continue
            area = cv2.contourArea(quad)
            out.append((felt.priority + round(support, 1) + area / frame_area, quad))
    return out


LINES_RANK = -30.0
"""Cards made of outline lines rank below every other candidate: they only fill gaps."""


GATE_STEP = 4
"""The light area left unexplained is measured at this fraction of the mask's resolution."""


def _unexplained_light(masks: MaskSet, candidates: list[tuple[float, Quad]], frame_area: int,
                       config: VisionConfig) -> tuple[Image, Image] | None:
    """The light area (first whiteness mask) outside the card-sized outlines found already and
    the area those outlines cover, both at 1 / GATE_STEP of the mask's resolution; None when
    less than a card's area of light is left."""
    light = np.ascontiguousarray(masks.masks[0][::GATE_STEP, ::GATE_STEP])
    least = config.min_card_area * frame_area / GATE_STEP**2
    if cv2.countNonZero(light) < least:
        return None
    cover = np.zeros_like(light)
    limit = config.lines_cover_area * frame_area
    quads = [np.rint(q / GATE_STEP).astype(np.int32) for _, q in candidates
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
    return left, cover


def _line_candidates(
    masks: MaskSet, candidates: list[tuple[float, Quad]], frame_area: int, config: VisionConfig
) -> list[tuple[float, Quad]]:
    """Cards made of four outline lines, looked for around the light area that no outline
    explains yet, from segments outside the outlines found already."""
    gray = masks.gray
    if gray is None or not config.lines:
        return []
    unexplained = _unexplained_light(masks, candidates, frame_area, config)
    if unexplained is None:
        return []
    left, cover = unexplained
    min_side = math.sqrt(config.min_card_area * frame_area)
    x, y, w, h = (GATE_STEP * v for v in cv2.boundingRect(left))
    margin = round(min_side / 2)
    x0, y0 = max(0, x - margin), max(0, y - margin)
    x1, y1 = min(gray.shape[1], x + w + margin), min(gray.shape[0], y + h + margin)
    free = cv2.resize(cv2.bitwise_not(cover), None, fx=GATE_STEP, fy=GATE_STEP,
                      interpolation=cv2.INTER_NEAREST)
    segments = line_segments(gray[y0:y1, x0:x1], config.lines_scale,
                             config.lines_min_length * min_side, config.lines_max_segments,
                             free[y0:y1, x0:x1])
    segments += np.array([x0, y0, x0, y0], np.float32)
    found: list[tuple[float, Quad]] = []
    taken = [bounds(other) for _, other in candidates]
    for quad, support in line_quads(gray, segments, config, min_side, max(gray.shape)):
        ordered = order_corners(quad)
        extent = bounds(ordered)
        # Ranked below every outline found already (and the better quads of lines), a quad
        # overlapping one of them would be suppressed.
        if any(bounds_iou(extent, other) > config.nms_iou for other in taken):
            continue
        if _touches_border(cv2.boundingRect(ordered), masks):
            continue
        # A quad within an outline found already, at most twice its size (a court picture's
        # frame), is a part of that card.
        if any(_within(extent, outer) and _box_area(outer) <= 2 * _box_area(extent)
               for outer in taken[: len(candidates)]):
            continue
        # A card's face is mostly paper: light in the frame's first whiteness mask.
        if _light_share(masks.masks[0], ordered) < config.lines_min_light:
            continue
        # An edge straight across it is another card's outline: the quad spans two cards.
        if crossed(gray, ordered, config):
            continue
        taken.append(extent)
        area = cv2.contourArea(ordered)
        found.append((LINES_RANK + round(support, 1) + area / frame_area, ordered))
    return found


def _light_share(light: Image, quad: Quad) -> float:
    """Share of the quad's inside that is set in the binary mask `light`."""
    x, y, w, h = cv2.boundingRect(quad)
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(light.shape[1], x + w), min(light.shape[0], y + h)
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(inside, np.rint(quad - (x0, y0)).astype(np.int32), 255)
    total = cv2.countNonZero(inside)
    if total == 0:
        return 0.0
    return cv2.countNonZero(cv2.bitwise_and(inside, light[y0:y1, x0:x1])) / total


def _narrow_weak(
    candidates: list[tuple[float, Quad]], weak: list[tuple[int, Image]], gray: Image,
    frame_area: int, config: VisionConfig,
) -> None:
    """Replace each weakly supported quad by a card built on a whole side of its region, when
    one is found inside it: a card merged with a light patch of table beside it."""
    min_side = math.sqrt(config.min_card_area * frame_area)
    for index, contour in weak:
        score, quad = candidates[index]
        others = [bounds(q) for i, (_, q) in enumerate(candidates) if i != index]
        taken = np.array(others).reshape(-1, 4)
        built = side_quads(contour, gray, config, min_side, taken)
        # The built card with the straightest far side, among those inside the quad.
        inside = [(share, q) for q, share in built if _within(bounds(q), bounds(quad), 0.9)]
        if inside:
            candidates[index] = (score, order_corners(max(inside, key=lambda item: item[0])[1]))


def _box_area(box: Bounds) -> float:
    """Area of a bounding box."""
    return (box[2] - box[0]) * (box[3] - box[1])


def _within(inner: Bounds, outer: Bounds, share: float = 0.8) -> bool:
    """True when at least `share` of box `inner` lies inside box `outer`."""
    across = max(0.0, min(inner[2], outer[2]) - max(inner[0], outer[0]))
    down = max(0.0, min(inner[3], outer[3]) - max(inner[1], outer[1]))
    return across * down >= share * (inner[2] - inner[0]) * (inner[3] - inner[1])


def _enlarged_candidates(frame: Image, masks: MaskSet,
                         config: VisionConfig) -> list[tuple[float, Quad]]:
    """Outlines found in the frame enlarged to `enlarged_look` (a small frame, where the masks'
    morphology is coarse against a card), in mask pixels, ranked at `enlarged_priority`."""
    if not config.enlarged_look or max(frame.shape[:2]) >= config.enlarged_look:
        return []
    larger = replace(config, detect_min_long_side=config.enlarged_look, enlarged_look=0,
                     learned_finder=None)
    quads = find_cards(frame, larger)
    return [(config.enlarged_priority + cv2.contourArea(quad) * masks.scale**2 / 1e6,
             (quad * masks.scale + masks.pad).astype(np.float32)) for quad in quads]


def find_cards(
    frame: Image, config: VisionConfig | None = None, masks: MaskSet | None = None
) -> list[Quad]:
    """Return the outline of every card found in a BGR frame, best supported first."""
    config = config or VisionConfig()
    masks = masks or card_masks(frame, config)
    frame_area = masks.masks[0].shape[0] * masks.masks[0].shape[1]
    candidates: list[tuple[float, Quad]] = []
    """(ranking score, quad): edge support in steps of 0.1 first, then area; quads from the
    fallback masks 10 lower, cards built on one side 20 lower, so they only fill gaps."""
    seen_boxes: list[Sequence[int]] = []
    fallback = masks.fallback
    unshaped: list[tuple[Image, Sequence[int]]] = []
    """Regions of card size that are not card-shaped as a whole, and their bounding boxes."""
    weak: list[tuple[int, Image]] = []
    """Candidates whose quad follows their region's outline weakly, and the region."""
    to_part: list[tuple[Image, Sequence[int]]] = []
    """The unshaped regions of the masks that follow edges: regions to be opened."""
    found_boxes: list[Sequence[int]] = []
    """Bounding rectangles of the regions that gave candidates outside the fallback masks."""
    # A closed 8-connected chain of n points encloses at most n^2 / (2 pi) pixels.
    least_points = int(np.sqrt(2 * np.pi * config.min_card_area * frame_area))
    for index in range(len(masks.masks)):
        inside = masks.islands(index, least_points)
        for nested, contour in [*((False, c) for c in masks.contours(index)),
                                *((True, c) for c in inside)]:
            # A closed 8-connected chain of n points encloses at most n^2 / (2 pi) pixels.
            if len(contour) ** 2 < 2 * np.pi * config.min_card_area * frame_area:
                continue
            area = cv2.contourArea(contour)
            if not config.min_card_area * frame_area < area < config.max_card_area * frame_area:
                continue
            box = cv2.boundingRect(contour)
            if any(_same_box(box, other) for other in seen_boxes):
                continue
            # A fallback region may not reach the frame's edge (a table's rim), nor overlap a
            # card found in another mask (that card and what it touches).
            if index in fallback and (_touches_border(box, masks) or any(
                    _rect_iou(box, b) > config.nms_iou for b in found_boxes)):
                continue
            found = _quad_of(contour, config, [c for _, c in candidates])
            if nested:
                # Only a card-shaped island counts, and only where nothing else found a card.
                if found is not None:
                    seen_boxes.append(box)
                    candidates.append((NESTED_RANK + round(found[1], 1) + area / frame_area,
                                       found[0]))
                continue
            if found is None:
                unshaped.append((contour, box))
                if index in masks.opened_in:
                    to_part.append((contour, box))
            else:
                seen_boxes.append(box)
                quad, support = found
                if support < config.weak_support and masks.gray is not None:
                    weak.append((len(candidates), contour))
                if index not in fallback:
                    found_boxes.append(box)
                penalty = -10.0 if index in fallback else 0.0
                if index in masks.learned and config.learned_finder is not None:
                    penalty = config.learned_finder.rank
                candidates.append((penalty + round(support, 1) + area / frame_area, quad))
    if weak and masks.gray is not None:
        _narrow_weak(candidates, weak, masks.gray, frame_area, config)
    if masks.gray is not None:
        candidates += _side_candidates(masks, masks.gray, unshaped, found_boxes, candidates,
                                       config)
    parted = _parted_candidates(to_part, found_boxes, candidates, frame_area,
                                masks.gray, config)
    # Like the edge rings, cards parted from a region must not reach the frame's border.
    candidates += [(score, quad) for score, quad in parted
                   if not _touches_border(cv2.boundingRect(quad), masks)]
    candidates += _line_candidates(masks, candidates, frame_area, config)
    candidates += cloth_candidates(masks, candidates, config)
    candidates += _enlarged_candidates(frame, masks, config)
    kept: list[tuple[Quad, Bounds]] = []
    for _, quad in sorted(candidates, key=lambda item: -item[0]):
        extent = bounds(quad)
        if all(bounds_iou(extent, other) <= config.nms_iou for _, other in kept):
            kept.append((quad, extent))
    height, width = frame.shape[:2]
    limit = np.array([width - 1, height - 1], dtype=np.float32)
    return [np.clip(masks.to_frame(quad), 0, limit).astype(np.float32) for quad, _ in kept]
