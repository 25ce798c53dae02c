"""Read an outlined card whose whole outline reads nothing by its corners alone.

An outline can be too large (a card merged with light table beside it), cut short (a card built
on one side only), or span several cards: its index views then look at the wrong place or the
wrong scale. Any of its right-angled corners that is a real card corner still holds an index at
the corner's tip, across one edge and down the other, at the card's width. That width is not
known from a wrong outline, so a few are tried: that of the cards read whole in the frame, and
those the outline's own two edges at the corner imply.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.card_size import known_width
from vision.cards import (
    NEXT_CORNER,
    PREVIOUS_CORNER,
    CardObservation,
    Image,
    Quad,
    Reading,
    inside,
    side_lengths,
)
from vision.config import VisionConfig
from vision.glyphs import warp_index
from vision.model import GlyphModel
from vision.read import read_views

Vector = npt.NDArray[np.float32]


@dataclass(frozen=True)
class IndexCorner:
    """A corner of an outline as a card's index corner: its tip and the unit directions across
    the card's top and down its side (not mirrored), with the lengths of those two edges."""

    tip: Vector
    across: Vector
    down: Vector
    across_length: float
    down_length: float


@dataclass(frozen=True)
class CornerFind:
    """A card read at one corner of an outline: the reading and the card it implies."""

    reading: Reading
    confidence: float
    card: Quad


def index_corners(quad: Quad, config: VisionConfig) -> Iterator[IndexCorner]:
    """Each corner of an outline as an index corner, its two edges taken as across and down in
    the one way that is not mirrored. A corner far from a right angle (an outline cut across a
    card) is taken with an edge whose far end is a right angle (a card's side) and the
    perpendicular to that edge, into the outline."""
    pts = np.asarray(quad, np.float32)
    # Along an outline turning clockwise in the image (y down) the next vertex lies across.
    if cv2.contourArea(pts.reshape(-1, 1, 2), oriented=True) < 0:
        pts = pts[::-1].copy()
    sides = pts[NEXT_CORNER] - pts
    lengths = side_lengths(sides)
    if lengths.min() < 1.0:
        return
    units = (sides / lengths[:, None]).astype(np.float32)
    # The corner at vertex i, between the side arriving there and the side leaving it.
    square = np.abs((units * units[PREVIOUS_CORNER]).sum(axis=1)) <= np.sin(
        np.deg2rad(config.search_max_skew))
    for i in range(4):
        after, after_length = units[i], float(lengths[i])
        before, before_length = -units[i - 1], float(lengths[i - 1])
        if square[i]:
            yield IndexCorner(pts[i], after, before, after_length, before_length)
            continue
        if square[(i + 1) % 4]:
            yield IndexCorner(pts[i], after, np.array([-after[1], after[0]], np.float32),
                              after_length, before_length)
        if square[i - 1]:
            yield IndexCorner(pts[i], np.array([before[1], -before[0]], np.float32), before,
                              after_length, before_length)


def corner_widths(corner: IndexCorner, typical: float | None, config: VisionConfig) -> list[float]:
    """Card widths to try at a corner: the typical width of the cards read whole when there are
    any; else the width its edge across implies and the width its edge down implies (near
    repeats left out)."""
    if typical is not None:
        return [typical]
    widths: list[float] = []
    for width in (corner.across_length, corner.down_length / config.search_aspect):
        if all(abs(width - w) > config.search_width_step * w for w in widths):
            widths.append(width)
    return widths


def card_shaped(quad: Quad, typical: float | None, config: VisionConfig,
                aspects: tuple[float, float] | None = None) -> bool:
    """Whether an outline is a whole card's: right-angled at every corner, of a card's aspect
    (`aspects`, else `search_card_aspects`), and as wide as the cards read whole (when any).
    Its own index views have been read: its corners would show nothing new."""
    pts = np.asarray(quad, np.float32)
    sides = pts[NEXT_CORNER] - pts
    lengths = side_lengths(sides)
    if lengths.min() < 1.0:
        return False
    units = sides / lengths[:, None]
    cosines = np.abs((units * units[PREVIOUS_CORNER]).sum(axis=1))
    if cosines.max() > np.sin(np.deg2rad(config.search_max_skew)):
        return False
    short, long = sorted((lengths[0] + lengths[2], lengths[1] + lengths[3]))
    low, high = aspects or config.search_card_aspects
    if not low <= long / short <= high:
        return False
    return typical is None or abs(short / 2 - typical) <= config.search_width_step * typical


def implied_card(corner: IndexCorner, width: float, config: VisionConfig) -> Quad:
    """The outline of the card whose index corner this is, at the given width."""
    height = width * config.search_aspect
    tip, across, down = corner.tip, corner.across * width, corner.down * height
    return np.array([tip, tip + across, tip + across + down, tip + down], np.float32)


def least_edge(frame: Image, typical: float | None, config: VisionConfig) -> float:
    """The shortest edge that can be a card's side: `search_min_edge` of the typical card width,
    or of the known card width (`VisionConfig.card_length`), or without either, the least
    plausible card width (`plausible_width_shares` of the frame)."""
    typical = typical or known_width(config)
    if typical is not None:
        return config.search_min_edge * typical
    return float(config.plausible_width_shares[0] * min(frame.shape[:2]))


def searchable_corners(
    frame: Image, quad: Quad, config: VisionConfig,
    typical: float | None = None, read: tuple[Quad, ...] = (),
) -> Iterator[IndexCorner]:
    """The outline's index corners worth a search: with an edge of card scale, on no card
    already read, and away from the frame's border."""
    least = least_edge(frame, typical, config)
    for corner in index_corners(quad, config):
        if max(corner.across_length, corner.down_length) < least:
            continue
        if any(inside(corner.tip, outline) for outline in read):
            continue
        if at_border(corner.tip, frame.shape, config):
            continue
        yield corner


def read_at_corners(
    frame: Image, quad: Quad, model: GlyphModel, config: VisionConfig,
    typical: float | None = None, read: tuple[Quad, ...] = (),
) -> CornerFind | None:
    """The surest reading of an index at one of an outline's corners, at the card widths tried
    there; None when no corner reads surely enough or two corners disagree.

    Corners on a card already `read` (whole outlines) or on the frame's border are not tried:
    an index there is that card's, or cut off. Neither are corners whose edges are both shorter
    than `search_min_edge` of the typical card width (a pip's or a picture's piece), or without
    one, than the least plausible card width (`plausible_width_shares` of the frame)."""
    finds: list[CornerFind] = []
    # One look at each view: the second looks at other ink levels are for a card's own corners.
    looks = replace(config, second_look_shifts=config.search_shifts)
    for corner in searchable_corners(frame, quad, config, typical, read):
        best: CornerFind | None = None
        for width in corner_widths(corner, typical, config):
            unit = width / config.card_width
            view = warp_index(frame, corner.tip, corner.across, corner.down, unit, config)
            reading, confidence = read_views([view], model, looks)
            if reading is not None and (best is None or confidence > best.confidence):
                best = CornerFind(reading, confidence, implied_card(corner, width, config))
        if best is not None and best.confidence >= config.search_min_confidence:
            finds.append(best)
    if not finds or len({f.reading.name for f in finds}) > 1:
        return None
    return max(finds, key=lambda f: f.confidence)


def read_unread_outlines(
    frame: Image, observations: list[CardObservation], model: GlyphModel, config: VisionConfig,
) -> list[CardObservation]:
    """The observations with each unread whole outline read at its corners where that finds a
    card that no reading already explains: the outline is then replaced by the card its index
    implies (kept beside it when that card covers little of the outline)."""
    if not config.search_unread:
        return observations
    read = [o for o in observations if o.reading is not None]
    whole = [o.corners for o in read if o.whole]
    typical = float(np.median([_short_side(q) for q in whole])) if whole else None
    height, width = frame.shape[:2]
    result = []
    for observation in observations:
        if observation.reading is not None or not observation.whole:
            result.append(observation)
            continue
        quad = observation.corners
        narrower = typical is None or (
            _short_side(quad) < (1 - config.search_width_step) * typical)
        if card_shaped(quad, typical, config) or (narrower and card_shaped(quad, None, config)):
            result.append(observation)  # a card's shape: its index views were read already
            continue
        found = read_at_corners(frame, quad, model, config, typical, tuple(whole))
        if found is None or not _new_card(found, read, (width, height), config):
            result.append(observation)
            continue
        confidence = round(found.confidence, 3)
        card = CardObservation(found.card, replace(found.reading, confidence=confidence),
                               confidence)
        if _overlap(found.card, observation.corners) < config.search_replace_overlap:
            result.append(observation)
        result.append(card)
        read.append(card)
    return result


def _new_card(found: CornerFind, read: list[CardObservation], size: tuple[int, int],
              config: VisionConfig) -> bool:
    """Whether a card read at an outline's corner is one no reading explains yet: its centre
    in the frame, its index corner and centre on no card read whole, no index read at a loose
    corner on it (that index would be covered), and no card of its name near."""
    centre, tip = found.card.mean(axis=0), found.card[0]
    if not (0 <= centre[0] < size[0] and 0 <= centre[1] < size[1]):
        return False
    width = float(np.linalg.norm(found.card[1] - found.card[0]))
    for other in read:
        if other.whole and (inside(centre, other.corners) or inside(tip, other.corners)):
            return False
        if not other.whole and inside(other.corners.mean(axis=0), found.card):
            return False
        reach = config.same_card_reach * width
        if other.name == found.reading.name and np.linalg.norm(
                other.corners.mean(axis=0) - centre) < reach:
            return False
    return True


def at_border(point: Vector, shape: tuple[int, ...], config: VisionConfig) -> bool:
    """Whether a point lies on the frame's border, where the frame cuts what it shows: an
    outline's corner there is no card corner."""
    reach = config.search_border * max(shape[:2])
    height, width = shape[:2]
    x, y = float(point[0]), float(point[1])
    return min(x, y, width - 1 - x, height - 1 - y) < reach




def _overlap(card: Quad, outline: Quad) -> float:
    """Intersection over union of two convex quads."""
    inter, _ = cv2.intersectConvexConvex(card.astype(np.float32), outline.astype(np.float32))
    union = cv2.contourArea(card.astype(np.float32)) + cv2.contourArea(
        outline.astype(np.float32)) - inter
    return float(inter / union) if union > 0 else 0.0


def _short_side(quad: Quad) -> float:
    """Mean length of a quad's two shorter opposite sides."""
    sides = side_lengths(quad - quad[NEXT_CORNER])
    return float(min(sides[0] + sides[2], sides[1] + sides[3]) / 2)
