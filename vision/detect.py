"""The masks cards are sought in, and what makes a region's outline a card's.

A card face is a bright, low-saturation region in one of the whiteness masks, or differs from the
table's colour; a ring of edges encloses a white card on a light table (a fallback mask, searched
only where the others found nothing). `vision.propose` finds the outlines in them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from vision.cards import Image, Quad
from vision.config import LearnedFinderConfig, VisionConfig
from vision.errors import VisionError
from vision.finder_net import inside_mask
from vision.imageio import shrunk
from vision.outline_boxes import Bounds

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
    small = frame
    if scale != 1.0:
        size = (round(width * scale), round(height * scale))
        small = shrunk(frame, *size)
    pad = max(2, round(config.pad_fraction * max(small.shape[:2])))
    padded = cv2.copyMakeBorder(small, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(40, 40, 40))
    return padded, scale, pad


def _masks(
    small: Image, pad: int, config: VisionConfig
) -> tuple[list[Image], list[Image], Image, int]:
    """Binary masks in which a card face should appear as one region, opened by a 3x3 square
    (`OPENING`), fallback masks that are only searched where the first found nothing, the frame
    in grey, and the number of whiteness masks (they come first)."""
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
    whitenesses = len(masks)
    masks += _off_background_masks(small, pad, config)
    # A card on a table as light as its face still shows its outline as a ring of edges.
    rings = cv2.bitwise_not(not_edges)
    _clear_border(rings, pad)
    return masks, [rings], gray, whitenesses


def _clear_border(mask: Image, pad: int) -> None:
    """Zero the padding of a mask and the frame's outermost pixel row and column."""
    mask[: pad + 1] = 0
    mask[-pad - 1 :] = 0
    mask[:, : pad + 1] = 0
    mask[:, -pad - 1 :] = 0


def _off_background_masks(small: Image, pad: int, config: VisionConfig) -> list[Image]:
    """The mask of what differs in colour from the table, taken as the frame's border colour,
    closed and opened (none where the border is not plain table)."""
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
    # Closed by a 5x5 square and opened by `OPENING`, flat, so before the threshold.
    smoothed = cv2.morphologyEx(cv2.morphologyEx(distance, cv2.MORPH_CLOSE, CLOSING),
                                cv2.MORPH_OPEN, OPENING)
    return [cv2.threshold(smoothed, config.table_distance, 255, cv2.THRESH_BINARY)[1]]


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


def quad_of(
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


def rect_iou(a: Sequence[int], b: Sequence[int]) -> float:
    """IoU of two bounding rectangles (x, y, w, h)."""
    across = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    down = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    if across <= 0 or down <= 0:
        return 0.0
    inter = across * down
    return inter / (a[2] * a[3] + b[2] * b[3] - inter)


def same_box(a: Sequence[int], b: Sequence[int]) -> bool:
    """True when two bounding rectangles (x, y, w, h) agree to within 2% of their size."""
    tolerance = 0.02 * max(a[2], a[3], b[2], b[3]) + 1
    return (abs(a[0] - b[0]) <= tolerance and abs(a[1] - b[1]) <= tolerance
            and abs(a[2] - b[2]) <= tolerance and abs(a[3] - b[3]) <= tolerance)


def touches_border(box: Sequence[int], masks: MaskSet) -> bool:
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
    """Masks of the learned finder (`vision.finder_net`), searched for outlines as the colour
    masks are."""
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
    opened, fallback, gray, whitenesses = _masks(small, pad, config)
    indices = frozenset(range(len(opened), len(opened) + len(fallback)))
    colour = MaskSet(opened + fallback, scale, pad, fallback=indices, gray=gray,
                     colour=small,
                     nested=frozenset(range(whitenesses)) if config.nested_regions
                     else frozenset())
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
                   colour=colour.colour, learned=frozenset({len(opened) - 1}),
                   nested=colour.nested,
                   _contours={moved[k]: found for k, found in colour._contours.items()})
