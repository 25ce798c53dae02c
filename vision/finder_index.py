"""Read cards found by their index glyphs, where no outline or loose corner showed them.

Light regions that no card read explains (`unexplained_light`) are searched for a rank glyph
over a suit glyph (`index_pairs.py`). The pair gives the card's corner: the rank's box lies a
fixed offset in from the corner (`IndexFinderConfig.rank_offset`, in rectified card pixels) and
its height is a share of the card's width (`IndexFinderConfig.rank_heights`, measured on the
cards read whole in dev). The index is read at the two widths those shares imply; a card counts
only where both read it alike and the surer reaches `IndexFinderConfig.min_confidence`, the
rank's height fits the width of the cards read whole (when any), its index lies on no card
read, no index was read at its far end, and no card of its name is near. Such cards are loose
observations (`whole=False`) outlined by their index.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from itertools import islice

import cv2
import numpy as np

from vision.card_size import card_shaped
from vision.cards import CardObservation, Image, Quad, Reading, inside
from vision.config import VisionConfig
from vision.corners import CardCorner, corner_views
from vision.detect import MaskSet
from vision.index_pairs import IndexPair, index_pairs
from vision.model import GlyphModel
from vision.read import read_views


@dataclass(frozen=True)
class IndexFind:
    """A card read at an index found by its glyphs: its index view's outline and the card."""

    reading: Reading
    confidence: float
    view: Quad
    card: Quad


def unexplained_light(masks: MaskSet, observations: list[CardObservation],
                      config: VisionConfig) -> Image | None:
    """Light regions (first whiteness mask, filled) not lying on a card read whole or on an
    unread outline of the read cards' shape and size (whose index views were read), each of at
    least `IndexFinderConfig.min_light` squared card widths, grown by
    `IndexFinderConfig.light_grow`; None when there is none."""
    read = [o.corners for o in observations if o.reading is not None and o.whole]
    width = float(np.median([_short_side(q) for q in read])) if read else None
    scale = masks.scale
    shape = masks.masks[0].shape
    if width is not None:
        least = config.index_finder.min_light * (width * scale) ** 2
    else:
        side = config.corner_finder.min_share * min(shape)
        least = config.index_finder.min_light * side ** 2 * 4.0
    explained = [o.corners for o in observations if o.reading is not None and o.whole] + [
        o.corners for o in observations
        if o.reading is None and o.whole and width is not None
        and card_shaped(o.corners, width, config)]
    outlines = [np.round(quad * scale + masks.pad).astype(np.int32) for quad in explained]
    centres = [(sum(x for x, _ in q) / 4, sum(y for _, y in q) / 4)
               for q in (o.tolist() for o in outlines)]
    areas = [cv2.contourArea(q.astype(np.float32)) for q in outlines]
    # A light region is left unexplained when its area outgrows the outlines lying in it (with
    # a margin of `IndexFinderConfig.outline_margin` of their area: a card's light region
    # spills a little past its outline) by enough: a cheap first test, before any pixel is
    # drawn.
    large = []
    for contour in masks.contours(0):
        if len(contour) ** 2 < 4.0 * least:
            continue
        area = cv2.contourArea(contour)
        if area < least:
            continue
        # A piece of a card read (its margin beside a court picture) lies within its outline.
        x, y, w, h = cv2.boundingRect(contour)
        middle = (x + w / 2, y + h / 2)
        if any(cv2.pointPolygonTest(q, middle, False) >= 0 for q in outlines):
            continue
        covered = sum(a for a, centre in zip(areas, centres, strict=True)
                      if cv2.pointPolygonTest(contour, centre, False) >= 0)
        if area - (1.0 + config.index_finder.outline_margin) * covered >= least:
            large.append(contour)
    if not large:
        return None
    light: Image = np.zeros(shape, np.uint8)
    cv2.drawContours(light, large, -1, 255, cv2.FILLED)
    grow = max(3, round(0.1 * (width or 0.0) * scale) | 1)
    for points in outlines:
        cv2.fillPoly(light, [points], 0)
        cv2.polylines(light, [points], True, 0, grow)
    # Only regions left whole count: slivers along the cards read are no card.
    left, _ = cv2.findContours(light, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    kept = [c for c in left if cv2.contourArea(c) >= least]
    if not kept:
        return None
    light[:] = 0
    cv2.drawContours(light, kept, -1, 255, cv2.FILLED)
    # Glyphs near a card's edge may open into the dark beyond it: the light area is grown.
    reach = max(3, round(config.index_finder.light_grow * min(shape)) | 1)
    light = cv2.dilate(light, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach)))
    for points in outlines:
        cv2.fillPoly(light, [points], 0)
    return light


def find_by_index(frame: Image, masks: MaskSet, observations: list[CardObservation],
                  model: GlyphModel, config: VisionConfig) -> list[CardObservation]:
    """Cards read at indices found by their glyphs in light area no reading explains."""
    if masks.gray is None:
        return []
    allowed = unexplained_light(masks, observations, config)
    if allowed is None:
        return []
    rows, cols = np.nonzero(allowed.any(axis=1))[0], np.nonzero(allowed.any(axis=0))[0]
    y0, y1, x0, x1 = int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1
    origin = np.array([x0, y0], np.float32)
    read = [o for o in observations if o.reading is not None]
    found: list[CardObservation] = []
    tried: list[tuple[np.ndarray, np.ndarray, float]] = []
    paper = masks.masks[0]
    # The first pairs on paper, up to `max_pairs`: pairs further on are not sought.
    pairs = islice((p for p in index_pairs(masks.gray[y0:y1, x0:x1], allowed[y0:y1, x0:x1],
                                           config.index_finder, min(masks.gray.shape[:2]))
                    if on_paper(p, paper, origin, config)), config.index_finder.max_pairs)
    width = read_width(read)
    looks = IndexLooks.of(config)
    for pair in pairs:
        corner_at = masks.to_frame(pair.rank_corner + origin)
        height = pair.rank_height / masks.scale
        # The cards on one table are of one size: a rank far from the read cards' share of
        # their width is another glyph (a pip, a picture's detail).
        if width is not None and not (config.index_finder.read_shares[0] * width <= height
                                      <= config.index_finder.read_shares[1] * width):
            continue
        key = (corner_at, pair.down, height)
        # The same index found again (at the other ink level) is read again only when its
        # rank's height came out otherwise: the widths tried follow from it.
        if any(np.linalg.norm(corner_at - t) < 0.5 * h and float(pair.down @ d) > 0.9
               and abs(height - h) < 0.1 * h for t, d, h in tried):
            continue
        tried.append(key)
        if any(inside(corner_at, o.corners) for o in read if o.whole):
            continue
        here = read_index(frame, pair, corner_at, height, model, config, looks)
        if here is None or not _new_card(here, read + found, frame.shape, config):
            continue
        confidence = round(here.confidence, 3)
        observation = CardObservation(here.view, Reading(
            here.reading.rank, here.reading.suit, confidence), confidence, whole=False)
        found.append(observation)
    return found


def read_width(read: list[CardObservation]) -> float | None:
    """The median width of the cards read whole; None when none was (a loose corner's view
    may have been taken at a width its visible edge implied, far from its card's)."""
    widths = [_short_side(o.corners) for o in read if o.whole]
    return float(np.median(widths)) if widths else None


def on_paper(pair: IndexPair, paper: Image, origin: np.ndarray, config: VisionConfig) -> bool:
    """Whether the index lies on light paper: of points on a grid over its box (grown by 0.3
    of the rank's height), at least `IndexFinderConfig.paper_share` are light in `paper`."""
    height = pair.rank_height
    across = np.linspace(-0.3 * height, pair.rank_width + 0.3 * height, 7)
    down = np.linspace(-0.3 * height, 2.3 * height, 9)
    grid = (pair.rank_corner + origin)[None, None, :] + across[None, :, None] * pair.across + \
        down[:, None, None] * pair.down
    points = np.round(grid.reshape(-1, 2)).astype(np.intp)
    rows, cols = paper.shape[:2]
    inside = (points[:, 0] >= 0) & (points[:, 0] < cols) & (points[:, 1] >= 0) & (
        points[:, 1] < rows)
    light = np.count_nonzero(paper[points[inside, 1], points[inside, 0]])
    return bool(light >= config.index_finder.paper_share * len(points))


def index_corner(pair: IndexPair, corner_at: np.ndarray, width: float,
                 config: VisionConfig) -> CardCorner:
    """The card corner an index implies at a card width: the rank's box lies
    `IndexFinderConfig.rank_offset` rectified card pixels in from it."""
    unit = width / config.card_width
    across_off, down_off = config.index_finder.rank_offset
    tip = corner_at - (pair.across * across_off + pair.down * down_off) * unit
    return CardCorner(tip.astype(np.float32), pair.across, pair.down, width, width)


@dataclass(frozen=True)
class IndexLooks:
    """The settings an index is read with: the full look, without sharpening (no card of dev
    needed it there; it was a third of the finder's reading time), with the ink level shifts
    of its second looks."""

    full: VisionConfig
    shifts: tuple[float, ...]

    @classmethod
    def of(cls, config: VisionConfig) -> IndexLooks:
        """The looks for a configuration (made once per frame, not per index). Without a
        sharpened look, the second looks' shifts are all passed as further shifts: the same
        looks, but no edge widths are measured for looks not taken."""
        full = replace(config, sharpen_looks=(), second_look_shifts=())
        return cls(full, config.second_look_shifts + config.corner_shifts)


def read_index(frame: Image, pair: IndexPair, corner_at: np.ndarray, height: float,
               model: GlyphModel, config: VisionConfig,
               looks: IndexLooks | None = None) -> IndexFind | None:
    """The reading of an index at the card widths its rank's height implies; None unless both
    read the same card and the surer reaches `IndexFinderConfig.min_confidence`."""
    readings: list[tuple[Reading, float, Quad, CardCorner, float]] = []
    looks = looks or IndexLooks.of(config)
    config = looks.full
    for share in config.index_finder.rank_heights:
        width = height / share
        corner = index_corner(pair, corner_at, width, config)
        for view, outline in corner_views(frame, corner, width, config, (True,)):
            reading, confidence = read_views([view], model, config, looks.shifts)
            if reading is None:
                return None
            readings.append((reading, confidence, outline, corner, width))
    if len({r[0].name for r in readings}) != 1:
        return None
    reading, confidence, outline, corner, width = max(readings, key=lambda r: r[1])
    if confidence < config.index_finder.min_confidence:
        return None
    height_card = width * config.card_height / config.card_width
    card = np.array([corner.tip, corner.tip + corner.first * width,
                     corner.tip + corner.first * width + corner.second * height_card,
                     corner.tip + corner.second * height_card], np.float32)
    return IndexFind(reading, confidence, outline, card)


def _new_card(find: IndexFind, read: list[CardObservation], shape: tuple[int, ...],
              config: VisionConfig) -> bool:
    """Whether a card read at an index is one no reading explains: its index on no card read
    whole or index read already, no index read in its far half, and no card of its name
    near."""
    view_centre = find.view.mean(axis=0)
    width = float(np.linalg.norm(find.card[1] - find.card[0]))
    height, frame_width = shape[:2]
    if not (0 <= view_centre[0] < frame_width and 0 <= view_centre[1] < height):
        return False
    # The card's far half, from its middle to the end away from this index.
    far_half = np.array([(find.card[0] + find.card[3]) / 2, (find.card[1] + find.card[2]) / 2,
                         find.card[2], find.card[3]], np.float32)
    for other in read:
        centre = other.corners.mean(axis=0)
        if inside(view_centre, other.corners):
            return False
        # An index read at the card's other end is this card's: read as it was, or misread
        # here (a ten whose '1' is cut off by the card beside it).
        if not other.whole and inside(centre, far_half):
            return False
        if other.name == find.reading.name and np.linalg.norm(
                centre - find.card.mean(axis=0)) < config.same_card_reach * width:
            return False
    return True




def _short_side(quad: Quad) -> float:
    """Mean length of a quad's two shorter opposite sides."""
    a, b, c, d = np.asarray(quad, np.float64).tolist()
    return min(math.dist(a, b) + math.dist(c, d), math.dist(b, c) + math.dist(d, a)) / 2
