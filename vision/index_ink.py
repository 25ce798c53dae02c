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
    """The index ink at each end of the card outlined by `quad` (the upright view's
    `index_box` and its turn by half); None at an end showing too little ink."""
    view = upright_view(frame, quad, config.width, config.height)
    return [_corner_ink(end, config) for end in (view, cv2.rotate(view, cv2.ROTATE_180))]


def corner_ink(frame: Image, card: Quad, config: PipCountConfig) -> IndexInk | None:
    """The index ink of a loose corner, at the `index_box` of the card it implies
    (`corners.cards_of_index`: clockwise from the index's top-left corner)."""
    target = np.array([[0, 0], [config.width, 0], [config.width, config.height],
                       [0, config.height]], np.float32)
    matrix = cv2.getPerspectiveTransform(np.asarray(card, np.float32).reshape(4, 2), target)
    view = cv2.warpPerspective(frame, matrix, (config.width, config.height),
                               flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    return _corner_ink(view, config)


def _corner_ink(view: Image, config: PipCountConfig) -> IndexInk | None:
    """The colour of the ink pieces lying wholly inside an upright view's `index_box`, or None.
    A piece reaching a side is left out: the table beyond the card's edge, a court's figure, or
    an index the blur has joined to either. Where those are too little ink, the box is cut
    `index_inset` pixels in from the card's edges and its pieces may touch the cut: a frame
    line printed along the edges (the svg-cards deck's lies under a pixel from its index) is
    cut off, and a strip running along an edge still reaches the far side."""
    left, top, right, bottom = config.index_box
    box = view[round(top * config.height):round(bottom * config.height),
               round(left * config.width):round(right * config.width)]
    inset = config.index_inset
    return (_pieces_ink(np.ascontiguousarray(box), config, cut=False)
            or _pieces_ink(np.ascontiguousarray(box[inset:, inset:]), config, cut=True))


def _pieces_ink(corner: Image, config: PipCountConfig, cut: bool) -> IndexInk | None:
    """The colour of a corner's ink pieces reaching neither its right nor its bottom side (nor,
    unless `cut`, its left or top), or None where they are too little ink."""
    blue, green, red = cv2.split(corner)
    darkest = cv2.min(cv2.min(blue, green), red)
    paper = _percentile(darkest, config.index_paper_percentile)
    ink = (darkest < config.ink_ratio * max(paper, 1.0)).astype(np.uint8)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=4)
    height, width = ink.shape
    x, y, w, h, area = (stats[:, k] for k in range(5))
    inside = (x + w < width) & (y + h < height) & (area >= config.index_least_piece)
    if not cut:
        inside &= (x > 0) & (y > 0)
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
