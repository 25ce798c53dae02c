"""The colour of a card's index ink at each end, or of a loose corner's: the decision's suit-ink
cues (`vision.evidence`)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.cards import Image, Quad
from vision.config import PipCountConfig
from vision.pips import ink_hues, upright_view


@dataclass(frozen=True)
class IndexInk:
    """The colour of one index corner's ink, over its darkness on the corner paper's white
    balance (`pips.ink_hues`)."""

    redness: float
    chroma: float
    greenness: float


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
