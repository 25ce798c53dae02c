"""The colour of a court card's index ink at both ends: a spade's index is black in every
deck, a heart's red, a diamond's never black, and a club's or a spade's never red."""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.cards import CardObservation, Image, Quad
from vision.config import PipCountConfig
from vision.pips import ink_hues, pips_deny, upright_view

COURTS = frozenset("JQK")
"""The ranks judged by their index ink: a number's or an ace's colour is the pips' to judge
(`pips.pips_deny`), and a court has no pips."""


@dataclass(frozen=True)
class IndexInk:
    """The colour of one index corner's ink, over its darkness on the corner paper's white
    balance (`pips.ink_hues`)."""

    redness: float
    chroma: float
    greenness: float

    def red(self, config: PipCountConfig) -> bool:
        """Whether the ink is clearly red: redness from `index_red` on."""
        return config.index_red is not None and self.redness >= config.index_red

    def red_free(self, config: PipCountConfig) -> bool:
        """Whether the ink has no red: redness up to `index_red_free`."""
        return config.index_red_free is not None and self.redness <= config.index_red_free

    def black(self, config: PipCountConfig) -> bool:
        """Whether the ink is clearly black: chroma up to `index_black`."""
        return config.index_black is not None and self.chroma <= config.index_black

    def coloured(self, config: PipCountConfig) -> bool:
        """Whether the ink is clearly not black: chroma from `index_coloured` on (blue ink),
        or greenness from `index_green` on (green ink)."""
        return ((config.index_coloured is not None and self.chroma >= config.index_coloured)
                or (config.index_green is not None and self.greenness >= config.index_green))


def index_inks(frame: Image, quad: Quad, config: PipCountConfig) -> list[IndexInk | None]:
    """The index ink at each end of the card outlined by `quad` (the upright view's top-left
    `index_box` and its turn by half); None at an end showing too little ink."""
    view = upright_view(frame, quad, config.width, config.height)
    left, top, right, bottom = config.index_box
    box = (slice(round(top * config.height), round(bottom * config.height)),
           slice(round(left * config.width), round(right * config.width)))
    return [_corner_ink(np.ascontiguousarray(end[box]), config)
            for end in (view, cv2.rotate(view, cv2.ROTATE_180))]


def outline_ink(frame: Image, outline: Quad, config: PipCountConfig) -> IndexInk | None:
    """The index ink of a loose corner's index view (`corners.corner_views`: its outline
    clockwise from the index's top-left), warped to the size of an `index_box`."""
    left, top, right, bottom = config.index_box
    width = max(1, round((right - left) * config.width))
    height = max(1, round((bottom - top) * config.height))
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    matrix = cv2.getPerspectiveTransform(np.asarray(outline, np.float32).reshape(4, 2), target)
    corner = cv2.warpPerspective(frame, matrix, (width, height), flags=cv2.INTER_AREA,
                                 borderMode=cv2.BORDER_REPLICATE)
    return _corner_ink(corner, config)


def _corner_ink(corner: Image, config: PipCountConfig) -> IndexInk | None:
    """The colour of the ink pieces lying wholly inside one index corner, or None. A piece
    reaching a side is left out: the table beyond the card's edge (green felt), a court's
    figure, or an index the blur has joined to either."""
    blue, green, red = cv2.split(corner)
    darkest = cv2.min(cv2.min(blue, green), red)
    paper = _percentile(darkest, config.index_paper_percentile)
    ink = (darkest < config.ink_ratio * max(paper, 1.0)).astype(np.uint8)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=4)
    height, width = ink.shape
    x, y, w, h, area = (stats[:, k] for k in range(5))
    inside = ((x > 0) & (y > 0) & (x + w < width) & (y + h < height)
              & (area >= config.index_least_piece))
    inside[0] = False
    pieces = inside.astype(np.uint8)[labels]
    if int(pieces.sum()) < config.index_least_ink * width * height:
        return None
    return IndexInk(*ink_hues(corner, pieces, (ink == 0).astype(np.uint8)))


def _percentile(values: Image, share: float) -> float:
    """`np.percentile` (linear) of a small image, by partition: a tenth of the time."""
    flat = values.ravel()
    place = share / 100.0 * (flat.size - 1)
    low = int(place)
    high = min(low + 1, flat.size - 1)
    parted = np.partition(flat, (low, high))
    return float(parted[low] + (place - low) * (float(parted[high]) - float(parted[low])))


def index_ink_denies(frame: Image, observation: CardObservation,
                     config: PipCountConfig) -> bool:
    """Whether a whole court card named a club or a spade shows red index ink at both ends
    (`IndexInk.red`), one named a spade coloured ink (`IndexInk.coloured`: a four-colour
    deck's blue diamond or green club), one named a heart ink without red
    (`IndexInk.red_free`), or one named a diamond black ink (`IndexInk.black`; a four-colour
    deck's diamonds are blue, never black). Both ends must be judged and say so: one end's
    measure alone is too loose (a webcam's blue cast gave one end of a black index a chroma
    of 0.4), and a covered end shows another card's index or none."""
    reading = observation.reading
    if (reading is None or not observation.whole or reading.suit is None
            or reading.rank.value not in COURTS
            or not any(level is not None for level in (
                config.index_red, config.index_coloured, config.index_green,
                config.index_red_free, config.index_black))):
        return False
    suit = reading.suit.value
    inks = [ink for ink in index_inks(frame, observation.corners, config) if ink is not None]
    if len(inks) < 2:
        return False
    if suit == "H":
        return all(ink.red_free(config) for ink in inks)
    if suit == "D":
        return all(ink.black(config) for ink in inks)
    return all(ink.red(config) for ink in inks) or (
        suit == "S" and all(ink.coloured(config) for ink in inks))


def checked_by_pips_and_ink(frame: Image, observations: list[CardObservation],
                            config: PipCountConfig) -> list[CardObservation]:
    """The observations with every name the pips (`pips.pips_deny`) or the index ink
    (`index_ink_denies`) deny withdrawn (present, unreadable)."""
    return [replace(o, reading=None, confidence=0.0)
            if pips_deny(frame, o, config) or index_ink_denies(frame, o, config) else o
            for o in observations]
