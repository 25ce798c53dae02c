"""The colour of a card's index ink at each end, or of a loose corner's: the decision's suit-ink
cues (`vision.evidence`)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.cards import Image, Quad
from vision.config import PipCountConfig
from vision.pips import MIN_INK_DARKNESS, PAPER_LEVEL, ink_hues, upright_view

CAST_SHARE = 1.5
"""The most of a warm light's colour dark ink is taken to keep, as a share of the paper's own
cast (`IndexInk.warm_chroma`): beyond it the ink is coloured itself."""


@dataclass(frozen=True)
class IndexInk:
    """The colour of one index corner's ink, over its darkness on the corner paper's white
    balance (`pips.ink_hues`)."""

    redness: float
    chroma: float
    greenness: float
    warm_chroma: float | None = None
    """The chroma less the colour along the paper's cast, where a warm light (red the paper's
    strongest channel) explains it: dark ink keeps some of the light's colour once the paper is
    balanced. None where the light does not explain the ink's colour, and at a loose corner."""


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
    ink = _corner_ink(view, config)
    return replace(ink, warm_chroma=None) if ink is not None else None


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
    paper = (ink == 0).astype(np.uint8)
    return IndexInk(*ink_hues(corner, pieces, paper), _warm_chroma(corner, pieces, paper))


def _warm_chroma(view: Image, ink: Image, paper: Image) -> float | None:
    """The ink's colour over its darkness on the paper's white balance, less what lies along
    the paper's own colour cast, where the paper is lit warm and the cast explains that colour
    (at most `CAST_SHARE` of it); None elsewhere."""
    levels = np.asarray(cv2.mean(view, mask=paper)[:3], np.float64)
    cast = levels - levels.mean()
    size = float(np.linalg.norm(cast))
    if size == 0 or levels[2] < levels.max():
        return None
    balanced = (np.asarray(cv2.mean(view, mask=ink)[:3], np.float64)
                * (PAPER_LEVEL / np.maximum(levels, 1.0)))
    colour = (balanced - balanced.mean()) / max(PAPER_LEVEL - float(balanced.min()),
                                                MIN_INK_DARKNESS)
    along = float(colour @ cast) / size
    if not 0 < along <= CAST_SHARE * size / max(float(levels.mean()), 1.0):
        return None
    colour = colour - along * cast / size
    return float(colour.max() - colour.min())


def _percentile(values: Image, share: float) -> float:
    """`np.percentile` (linear) of a small image, by partition: a tenth of the time."""
    flat = values.ravel()
    place = share / 100.0 * (flat.size - 1)
    low = int(place)
    high = min(low + 1, flat.size - 1)
    parted = np.partition(flat, (low, high))
    return float(parted[low] + (place - low) * (float(parted[high]) - float(parted[low])))
