"""The loose-corner finder: cards of which only a corner shows (trick piles, fans, covered cards).

The corners of the light regions (`corners.find_corners`) away from the cards read whole are read
as a card's index at the card widths they allow; a reading another reading nearby contradicts,
or one of a card named close by, is dropped.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.card_size import CARD_ASPECT, known_width
from vision.cards import NEXT_CORNER, CardObservation, Image, Quad, side_lengths
from vision.config import VisionConfig, config_with
from vision.corners import CardCorner, corner_views, find_corners
from vision.detect import MaskSet
from vision.model import GlyphModel
from vision.read import read_views

CornerRead = tuple[CardObservation, np.ndarray, float]
"""A card read at a loose corner: the observation, the corner's tip and the card's extent."""



def short_side(quad: Quad) -> float:
    """Length of the shorter side of a card outline."""
    sides = side_lengths(quad - quad[NEXT_CORNER])
    return float(min(sides[0] + sides[2], sides[1] + sides[3]) / 2)


def typical_width(read: list[Quad], quads: list[Quad], config: VisionConfig) -> float | None:
    """The typical card width: of the cards read, or else of the unread outlines.

    An unread outline can be a blob over several cards or a scrap of one, so with a known card
    width (`VisionConfig.card_length`) only outlines near it count (the known width itself when
    none is); without one, the median of them all; None when there are none."""
    if read:
        return float(np.median([short_side(q) for q in read]))
    known = known_width(config)
    if known is not None:
        band = config.known_card_band
        sized = [w for w in (short_side(q) for q in quads) if band <= w / known <= 1 / band]
        return float(np.median(sized)) if sized else known
    widths = [short_side(q) for q in quads]
    return float(np.median(widths)) if widths else None


def corner_widths(read_width: float | None, typical: float | None, corner: CardCorner,
                  config: VisionConfig) -> list[float]:
    """Card widths to try at a corner: the read cards' width; or, when no card was read, the
    unread outlines' typical width, then the corner's own shorter edge. None is narrower than
    the card's longest visible edge allows (a card's side is at most its height), nor, with a
    known card length, wider than the table's cards: an edge longer than one card's is cards
    lying in line, or a box's or a picture's."""
    if read_width is not None:
        widths = [read_width]
    elif typical is not None:
        widths = [typical, corner.shorter_edge]
    else:
        widths = [corner.shorter_edge]
    if not config.corner_width_from_edge:
        return widths
    least = corner.longer_edge * config.card_width / config.card_height
    known = known_width(config)
    if known is not None:
        least = min(least, known)
    out: list[float] = []
    for width in widths:
        width = max(width, least)
        if all(abs(width - other) > 0.05 * other for other in out):
            out.append(width)
    return out


def read_loose_corners(
    frame: Image, masks: MaskSet, quads: list[Quad], found: list[CardObservation],
    model: GlyphModel, config: VisionConfig, seen: list[CardCorner] | None = None,
) -> list[CardObservation]:
    """Read cards of which only a corner shows, away from the cards already read; the corners
    found are added to `seen` when it is given."""
    read = [o.corners for o in found if o.reading is not None]
    typical = typical_width(read, quads, config)
    exclude = cards_area(masks, read, typical) if typical else None
    # A loose corner is read at the level it is named from.
    named_from = config_with(config, (("min_confidence", config.min_loose_confidence),))
    readings: list[CornerRead] = []
    tried: list[CardCorner] = []
    corners = find_corners(masks, config, typical if read else None, exclude)
    if seen is not None:
        seen.extend(corners)
    for corner in corners:
        if repeats(corner, tried, typical or corner.shorter_edge, config):
            continue
        for width in corner_widths(typical if read else None, typical, corner, config):
            found_here = _read_corner(frame, corner, width, model, named_from)
            if found_here is not None:
                readings.append(found_here)
                break
        tried.append(corner)
    kept: list[CornerRead] = []
    named = [(o.name, o.corners.mean(axis=0)) for o in found if o.name]
    readings = _without_conflicts(readings, config)
    for observation, tip, width in sorted(readings, key=lambda item: -item[0].confidence):
        reach = config.same_card_reach * width
        same_card = [(t, w) for o, t, w in kept if o.name == observation.name]
        if any(np.linalg.norm(tip - t) < config.same_card_reach * max(width, w)
               for t, w in same_card):
            continue
        if any(n == observation.name and np.linalg.norm(tip - c) < reach for n, c in named):
            continue
        kept.append((observation, tip, width))
    return [o for o, _, _ in kept]


def repeats(corner: CardCorner, tried: list[CardCorner], width: float,
             config: VisionConfig) -> bool:
    """Whether a corner is one already tried, found again (in another mask): its tip within
    `corner_repeat_reach` card widths of that one's and both its edges within
    `corner_repeat_angle` degrees of that one's."""
    reach = config.corner_repeat_reach * width
    cosine = float(np.cos(np.deg2rad(config.corner_repeat_angle)))
    return any(
        float(np.linalg.norm(corner.tip - other.tip)) < reach
        and float(corner.first @ other.first) >= cosine
        and float(corner.second @ other.second) >= cosine
        for other in tried
    )


def _read_corner(
    frame: Image, corner: CardCorner, width: float, model: GlyphModel, config: VisionConfig,
) -> CornerRead | None:
    """The surest reading of a corner's index views (the first sure one ends the search), with
    the corner's tip and card extent; `config.min_confidence` is the least kept."""
    # A card is at least as wide as two thirds of any straight edge seen on it.
    extent = max(width, corner.longer_edge / 1.5)
    best: CornerRead | None = None
    for view, outline in corner_views(frame, corner, width, config):
        reading, confidence = read_views([view], model, config, config.corner_shifts)
        if reading is not None and (best is None or confidence > best[0].confidence):
            best = CardObservation(outline, reading, round(confidence, 3), whole=False), \
                corner.tip, extent
            if confidence >= config.min_loose_confidence:
                break
    return best


def _without_conflicts(
    readings: list[tuple[CardObservation, np.ndarray, float]], config: VisionConfig
) -> list[tuple[CardObservation, np.ndarray, float]]:
    """Drop readings contradicted by a reading that is not much surer: at the same corner, or
    at another corner of the card it implies (one card's two corners read as two cards)."""
    kept = []
    for observation, tip, width in readings:
        rivals = [
            other for other, other_tip, other_width in readings
            if other.name != observation.name
            and (np.linalg.norm(tip - other_tip) < 0.3 * width
                 or _one_card(observation, tip, other, other_tip, min(width, other_width)))
        ]
        if all(observation.confidence - r.confidence >= config.conflict_margin for r in rivals):
            kept.append((observation, tip, width))
    return kept


def _one_card(first: CardObservation, first_tip: np.ndarray, second: CardObservation,
              second_tip: np.ndarray, width: float) -> bool:
    """Whether two loose corners imply one card `width` wide: their cards' centres lie within
    0.3 of its width (an extent guessed from a long edge is left aside)."""
    apart = (implied_centre(first, first_tip, width)
             - implied_centre(second, second_tip, width))
    return bool(np.linalg.norm(apart) < 0.3 * width)


def implied_centre(observation: CardObservation, tip: np.ndarray, width: float) -> np.ndarray:
    """The centre of the card a loose corner's reading implies: from its tip, half the card's
    width along the index box's shorter side and half its length along the longer."""
    box = np.asarray(observation.corners, np.float32).reshape(4, 2)
    k = int(np.argmin(np.linalg.norm(box - tip, axis=1)))
    sides = box[(k + 1) % 4] - box[k], box[(k + 3) % 4] - box[k]
    lengths = [float(np.linalg.norm(side)) for side in sides]
    if min(lengths) == 0.0:
        return np.asarray(tip, np.float32)
    across, down = (0, 1) if lengths[0] <= lengths[1] else (1, 0)
    centre: np.ndarray = box[k] + (sides[across] / lengths[across] * width / 2
                                   + sides[down] / lengths[down] * width / CARD_ASPECT / 2)
    return centre


def on_area(masks: MaskSet, area: Image, point: np.ndarray) -> bool:
    """Whether a frame point falls on a non-zero pixel of a mask-sized `area`."""
    x, y = np.round(point * masks.scale + masks.pad).astype(int)
    height, width = area.shape[:2]
    return bool(0 <= x < width and 0 <= y < height and area[y, x])


def cards_area(masks: MaskSet, quads: list[Quad], width: float) -> Image:
    """Mask of the outlined cards, grown by a tenth of a card width, in mask pixels."""
    area = np.zeros_like(masks.masks[0])
    grow = max(3, round(0.2 * width * masks.scale) | 1)
    for quad in quads:
        points = np.round(quad * masks.scale + masks.pad).astype(np.int32)
        cv2.fillPoly(area, [points], 255)
        # A thick outline with round ends grows the card as a dilation by a disc would.
        cv2.polylines(area, [points], True, 255, grow, cv2.LINE_8)
    return area
