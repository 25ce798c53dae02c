"""Warp a card's index corners upright and cut the rank and suit glyphs out of them."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.cards import Image, Quad
from vision.config import VisionConfig
from vision.foreshortening import long_pair


@dataclass(frozen=True)
class IndexGlyphs:
    """The rank and suit glyphs of one corner index, as normalised binary images."""

    rank: Image
    suit: Image
    redness: float
    """Mean (R - max(G, B)) of the ink pixels after white balance on the paper, as a share of
    the ink's depth below the paper: near 0 for black or grey ink, 0.3-0.9 for red ink however
    pale."""
    rank_parts: int
    """How many separate pieces of ink the rank glyph has (two for '10')."""
    ten_shaped: bool
    """Two pieces side by side, a narrower one, a gap, then one with a hole."""


def _card_transform(corners: Quad, config: VisionConfig,
                    size: tuple[int, int] | None = None) -> Image:
    """Perspective transform from a frame (of `size`, when given) to the upright rectified
    card."""
    pts = np.asarray(corners, dtype=np.float32)
    if long_pair(pts, size) == 0:
        pts = np.roll(pts, -1, axis=0)
    right, bottom = config.card_width - 1, config.card_height - 1
    target = np.array([[0, 0], [right, 0], [right, bottom], [0, bottom]], np.float32)
    return cv2.getPerspectiveTransform(pts, target)


def index_views(frame: Image, corners: Quad, config: VisionConfig,
                window: tuple[float, float] | None = None) -> list[Image]:
    """The two index corners of a card, warped straight from the frame, each upright (`window`:
    the view's width and height as shares of the card, else `index_width` x `index_height`)."""
    width, height = window or (config.index_width, config.index_height)
    matrix = _card_transform(corners, config, (frame.shape[1], frame.shape[0]))
    zoom = index_zoom(_short_side(corners) / config.card_width, config)
    crop_w = round(width * config.card_width) * zoom
    crop_h = round(height * config.card_height) * zoom
    far_corner = np.array(
        [[-1, 0, config.card_width - 1], [0, -1, config.card_height - 1], [0, 0, 1]], np.float64
    )
    scale = np.diag([zoom, zoom, 1.0])
    views = []
    for transform in (matrix, far_corner @ matrix):
        views.append(cv2.warpPerspective(frame, scale @ transform, (crop_w, crop_h),
                                         flags=cv2.INTER_LINEAR))
    return views


def warp_index(frame: Image, origin: npt.NDArray[np.float32], across: npt.NDArray[np.float32],
               down: npt.NDArray[np.float32], unit: float, config: VisionConfig) -> Image:
    """The upright index view whose top-left is `origin`, its x along `across` and y along
    `down`, at `unit` frame pixels per rectified card pixel (warped finer when detailed)."""
    zoom = index_zoom(unit, config)
    crop_w = round(config.index_width * config.card_width)
    crop_h = round(config.index_height * config.card_height)
    source = np.array([origin, origin + across * crop_w * unit, origin + down * crop_h * unit],
                      np.float32)
    target = np.array([[0, 0], [crop_w, 0], [0, crop_h]], np.float32) * zoom
    matrix = cv2.getAffineTransform(source, target)
    return cv2.warpAffine(frame, matrix, (crop_w * zoom, crop_h * zoom), flags=cv2.INTER_LINEAR)


def index_zoom(frame_pixels_per_unit: float, config: VisionConfig) -> int:
    """How many times finer than the rectified card an index is warped: about as fine as the
    frame holds detail (rounded), so thin strokes of a large card are not lost between samples."""
    return max(1, min(config.max_index_zoom, int(frame_pixels_per_unit + 0.5)))


def _short_side(corners: Quad) -> float:
    """Mean length of a quad's two shorter opposite sides, in frame pixels."""
    a, b, c, d = np.asarray(corners, dtype=np.float64).tolist()
    return min(math.dist(a, b) + math.dist(c, d), math.dist(b, c) + math.dist(d, a)) / 2


def normalise_glyph(mask: Image, size: int) -> Image:
    """Fit a binary glyph into a square of `size` pixels, keeping its aspect, centred."""
    height, width = mask.shape[:2]
    scale = (size - 4) / max(height, width)
    new_w = max(1, round(width * scale))
    new_h = max(1, round(height * scale))
    resized = cv2.resize(mask, (new_w, new_h), interpolation=cv2.INTER_AREA)
    out = np.zeros((size, size), np.uint8)
    x0 = (size - new_w) // 2
    y0 = (size - new_h) // 2
    out[y0 : y0 + new_h, x0 : x0 + new_w] = resized
    return out


def _ink(view: Image) -> Image:
    """Ink strength: high where the paper is dark or coloured (black or red print)."""
    blue, green, red = cv2.split(view)
    darkest = cv2.min(cv2.min(blue, green, dst=blue), red, dst=blue)
    return cv2.bitwise_not(darkest, dst=darkest)


class IndexInk:
    """A corner view's ink strength and its Otsu split, made once for every ink level at which
    the view is split (`split_index`)."""

    def __init__(self, view: Image) -> None:
        self.view = view
        self.ink = _ink(view)
        lowest, highest, _, _ = cv2.minMaxLoc(self.ink)
        self.faint = highest - lowest < 40
        """Too little contrast to hold any glyph."""
        self.level = 0.0
        self.binary = self.ink
        if not self.faint:
            self.level, self.binary = cv2.threshold(self.ink, 0, 255,
                                                    cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        self._paper: Image | None = None
        self._paper_ink: float | None = None

    @property
    def paper(self) -> Image:
        """The paper's pixels at the Otsu level (the ink's complement)."""
        if self._paper is None:
            self._paper = cv2.bitwise_not(self.binary)
        return self._paper

    @property
    def paper_ink(self) -> float:
        """The mean ink strength of the paper at the Otsu level."""
        if self._paper_ink is None:
            self._paper_ink = float(cv2.mean(self.ink, mask=self.paper)[0])
        return self._paper_ink

    def split(self, level_shift: float) -> tuple[Image, Image]:
        """The ink and paper masks at the Otsu level moved `level_shift` of the way towards the
        paper's mean ink; the ink mask is the caller's own to change."""
        if not level_shift:
            return self.binary.copy(), self.paper
        level = self.level - level_shift * (self.level - self.paper_ink)
        _, binary = cv2.threshold(self.ink, level, 255, cv2.THRESH_BINARY)
        return binary, cv2.bitwise_not(binary)


def split_index(view: Image, config: VisionConfig, level_shift: float = 0.0,
                ink: IndexInk | None = None) -> IndexGlyphs | None:
    """Find the rank glyph and the suit glyph below it in an upright corner view.

    `level_shift` moves the view's Otsu ink level that share of the way towards the paper's
    median ink (negative: away from it), for a second look at pale or run-together glyphs.
    `ink` is the view's `IndexInk` when it is split at several levels."""
    ink = ink or IndexInk(view)
    if ink.faint:
        return None
    binary, paper_mask = ink.split(level_shift)
    edge = max(2, round(config.index_margin * view.shape[1]))
    binary[:edge] = 0
    binary[:, :edge] = 0
    binary[:, -edge:] = 0
    height, width = binary.shape
    labels, stats = _components(binary)
    if _too_tall(stats, height, width):
        labels, stats = _cut_frame_lines(binary, labels, stats)
    pieces = [p for p in _glyph_sized(stats, binary.shape) if not _card_edge(p, edge, width)]
    if len(pieces) < 2:
        return None
    # An index sits in the card's corner: at the left of the view, or (a top-right corner
    # read from a trick pile) at its right.
    found = _locate_index(pieces, width, height, edge, mirrored=False) or _locate_index(
        pieces, width, height, edge, mirrored=True)
    if found is None:
        return None
    row, (sy, sx, sw, sh, slabel) = found
    x0 = min(b[1] for b in row)
    x1 = max(b[1] + b[2] for b in row)
    y0 = min(b[0] for b in row)
    y1 = max(b[0] + b[3] for b in row)
    rank_labels = labels[y0:y1, x0:x1]
    rank_mask = rank_labels == row[0][4]
    for piece in row[1:]:
        rank_mask |= rank_labels == piece[4]
    ten_shaped = _ten_shaped(row, labels)
    suit_mask = labels[sy : sy + sh, sx : sx + sw] == slabel
    rank_img = rank_mask.astype(np.uint8) * 255
    suit_img = suit_mask.astype(np.uint8) * 255
    # Both glyphs inside their joint bounding box, for the ink colour.
    bx0, by0 = min(x0, sx), min(y0, sy)
    bx1, by1 = max(x1, sx + sw), max(y1, sy + sh)
    glyph_mask = np.zeros((by1 - by0, bx1 - bx0), np.uint8)
    glyph_mask[y0 - by0 : y1 - by0, x0 - bx0 : x1 - bx0] = rank_img
    suit_area = glyph_mask[sy - by0 : sy - by0 + sh, sx - bx0 : sx - bx0 + sw]
    cv2.bitwise_or(suit_area, suit_img, dst=suit_area)
    paper = cv2.mean(view, mask=paper_mask)[:3]
    return IndexGlyphs(
        rank=normalise_glyph(rank_img, config.glyph_size),
        suit=normalise_glyph(suit_img, config.glyph_size),
        redness=_redness(view[by0:by1, bx0:bx1], glyph_mask, paper),
        rank_parts=len(row),
        ten_shaped=ten_shaped,
    )


def _components(binary: Image) -> tuple[Image, Image]:
    """Labels and stats of the 8-connected pieces of ink."""
    # Grana's block-based labelling: the same components, about twice as fast on small views.
    _, labels, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(
        binary, 8, cv2.CV_32S, cv2.CCL_GRANA)
    return labels, stats


def _too_tall(stats: Image, height: int, width: int) -> bool:
    """True when a piece of ink is taller than any glyph (half the view) and wider than a line:
    a frame line with something joined to it."""
    limit = GLYPH_MAX_HEIGHT * height
    tall_widths = [w for _, _, w, h, _ in stats[1:].tolist() if h > limit]
    return bool(tall_widths) and max(tall_widths) > _line_band(width)


def _cut_frame_lines(binary: Image, labels: Image, stats: Image) -> tuple[Image, Image]:
    """Labels and stats once frame lines are cut out of the ink, except from pieces that stay
    larger than a glyph without them (a picture): those are left whole."""
    height, width = binary.shape[:2]
    cut = cv2.subtract(binary, frame_lines(binary))
    cut_labels, cut_stats = _components(cut)
    sizes = cut_stats[1:]
    large = np.nonzero((sizes[:, cv2.CC_STAT_WIDTH] > GLYPH_MAX_WIDTH * width)
                       | (sizes[:, cv2.CC_STAT_HEIGHT] > GLYPH_MAX_HEIGHT * height))[0] + 1
    if not large.size:
        return cut_labels, cut_stats
    whole = np.zeros(len(stats), np.bool_)
    for piece in large.tolist():
        x, y, w, h, _ = cut_stats[piece].tolist()
        box = cut_labels[y : y + h, x : x + w] == piece
        row, col = np.unravel_index(int(np.argmax(box)), box.shape)
        whole[labels[y + row, x + col]] = True
    cut[whole[labels]] = 255
    return _components(cut)


GLYPH_MAX_WIDTH = 0.6
"""No index glyph is wider than this share of the index view."""

GLYPH_MAX_HEIGHT = 0.5
"""No index glyph is taller than this share of the index view."""

LINE_SLANT = 0.04
"""How far (share of the view's width) a frame line may wander either side of a column."""

LINE_THICKNESS = 0.1
"""A frame line is thinner than this share of the view's width."""


def _slant(width: int) -> int:
    """Pixels a frame line may wander either side of a column in a view this wide."""
    return max(1, round(LINE_SLANT * width))


def _line_band(width: int) -> int:
    """The widest a frame line can be, its slant allowed for, in a view this wide."""
    return 2 * _slant(width) + max(2, round(LINE_THICKNESS * width))


LINE_ROWS = 34
"""Frame lines are sought in the view shrunk to this many rows (lines run on unbroken)."""


def frame_lines(binary: Image) -> Image:
    """The ink of thin, near-vertical lines longer than any glyph is tall (a court picture's
    frame): runs of ink down a column, allowed a slight slant, over half the view's height."""
    height, width = binary.shape[:2]
    rows = min(height, LINE_ROWS)
    shrunk = cv2.resize(binary, (width, rows), interpolation=cv2.INTER_NEAREST)
    slant = _slant(width)
    widened = cv2.dilate(shrunk, _rect(2 * slant + 1, 1))
    runs = cv2.morphologyEx(widened, cv2.MORPH_OPEN, _rect(1, int(GLYPH_MAX_HEIGHT * rows) + 1))
    thick = cv2.morphologyEx(runs, cv2.MORPH_OPEN, _rect(_line_band(width) + 1, 1))
    lines = cv2.resize(cv2.subtract(runs, thick), (width, height),
                       interpolation=cv2.INTER_NEAREST)
    return cv2.bitwise_and(lines, binary)


@cache
def _rect(width: int, height: int) -> Image:
    """A rectangular structuring element of that size."""
    return cv2.getStructuringElement(cv2.MORPH_RECT, (width, height))


Box = tuple[int, int, int, int, int]
"""A glyph's (y, x, width, height, component label)."""


EDGE_STRIP = 2.5
"""A piece from a top corner of the view this many times as tall as wide is the card's edge."""


def _card_edge(piece: list[int], edge: int, width: int) -> bool:
    """True for a thin upright strip of ink that starts in a top corner of the view (touching the
    cleared top margin and a cleared side margin): the card's edge or the table beyond it."""
    x, y, w, h = piece[:4]
    in_corner = y <= edge and (x <= edge or x + w >= width - edge)
    return in_corner and h >= EDGE_STRIP * w


def _glyph_sized(stats: Image, shape: tuple[int, ...]) -> list[list[int]]:
    """[x, y, w, h, area, label] of the components that could be index glyphs by their size."""
    height, width = shape[:2]
    sizes = stats[1:]
    plausible = (sizes[:, cv2.CC_STAT_AREA] >= 0.002 * width * height) & (
        sizes[:, cv2.CC_STAT_HEIGHT] >= 0.06 * height
    )
    rows = stats.tolist()
    found = []
    for label in (np.nonzero(plausible)[0] + 1).tolist():
        x, y, w, h, area = rows[label]
        if w > GLYPH_MAX_WIDTH * width or h > GLYPH_MAX_HEIGHT * height or area < 0.15 * w * h:
            continue
        found.append([x, y, w, h, area, label])
    return found


def _locate_index(pieces: list[list[int]], width: int, height: int, edge: int,
                  mirrored: bool) -> tuple[list[Box], Box] | None:
    """The rank's pieces and the suit's box of the index, among glyph-sized pieces; `mirrored`
    looks for it at the right edge instead of the left (as in a flipped view)."""
    boxes: list[Box] = []
    right_edge = []
    for x, y, w, h, area, label in pieces:
        if mirrored:
            x = width - x - w
        # Ink along the far side ran off the view (the near side and top were cleared).
        far = x + w >= width - edge
        if (far or y + h >= height) and (max(w, h) > 2.5 * min(w, h) or area < 0.4 * w * h):
            continue
        boxes.append((y, x, w, h, label))
        right_edge.append(far)
    if len(boxes) < 2:
        return None
    touching = {b[4] for b, edge in zip(boxes, right_edge, strict=True) if edge}
    boxes.sort()
    # The rank is the top glyph, plus glyphs beside it on the same line (the '1' and '0' of 10).
    starts = [b for b in boxes if b[1] < 0.6 * width and b[4] not in touching]
    if not starts:
        return None
    top_y, _, _, top_h, _ = starts[0]
    row = [
        b for b in boxes
        if abs(b[0] - top_y) < 0.25 * top_h and abs(b[3] - top_h) < 0.25 * top_h
        and b[1] < 0.7 * width
    ]
    if len(row) == 1 and not mirrored:
        row += _run_into_pip(row[0], pieces)
    x0 = min(b[1] for b in row)
    x1 = max(b[1] + b[2] for b in row)
    y0 = min(b[0] for b in row)
    y1 = max(b[0] + b[3] for b in row)
    below = [
        b for b in boxes
        if b not in row and b[0] >= top_y + 0.6 * top_h and b[1] < x1 and b[1] + b[2] > x0
        and b[4] not in touching
    ]
    # Some decks print the suit beside the rank instead of below it (not looked for mirrored:
    # the flipped view would put it on the wrong side).
    beside = [
        b for b in boxes
        if b not in row and b[1] >= x1 - 1 and b[0] < y1 and b[0] + b[3] > y0
        and b[3] >= 0.4 * top_h and not mirrored
    ]
    if below:
        suit = below[0]
    elif beside:
        suit = min(beside, key=lambda b: b[1])
    else:
        return None
    if not mirrored:
        return row, suit
    return [_unflipped(b, width) for b in row], _unflipped(suit, width)


def _run_into_pip(one: Box, pieces: list[list[int]]) -> list[Box]:
    """For a lone narrow piece (a '1'), the box of a '0' that ran into a large pip beside it:
    that ink cut to the rank's line and a digit's width; empty when there is none."""
    y, x, w, h, _ = one
    if w > 0.6 * h:
        return []
    for bx, by, bw, bh, _, label in pieces:
        if abs(by - y) < 0.25 * h and bh > 1.25 * h and 0 <= bx - (x + w) <= 0.5 * h:
            return [(y, bx, min(bw, round(0.8 * h)), h, label)]
    return []


def _unflipped(box: Box, width: int) -> Box:
    """A box found as if in the horizontally flipped view, in the view's own coordinates."""
    y, x, w, h, label = box
    return (y, width - x - w, w, h, label)


def _redness(view: Image, ink_mask: Image, paper: tuple[float, ...]) -> float:
    """How red the ink is, whatever its strength: after white balance on the paper colour, the
    ink's mean R - max(G, B) over its mean darkness (a pale pink and a full red alike)."""
    gains = np.asarray([PAPER_LEVEL / max(level, 1.0) for level in paper[:3]], np.float32)
    blue, green, red = cv2.split(view.astype(np.float32) * gains)
    chroma = cv2.mean(cv2.subtract(red, cv2.max(blue, green)), mask=ink_mask)[0]
    darkness = PAPER_LEVEL - cv2.mean(cv2.min(cv2.min(blue, green), red), mask=ink_mask)[0]
    return float(chroma / max(darkness, MIN_INK_DARKNESS))


PAPER_LEVEL = 200.0
"""The level the paper is balanced to before the ink's colour is measured."""
MIN_INK_DARKNESS = 20.0
"""Ink fainter than this below the paper counts as this dark, so faint specks do not decide."""


def _ten_shaped(row: list[tuple[int, int, int, int, int]], labels: Image) -> bool:
    """True for two pieces, a narrower one, a gap, then one with a hole: '1', '0'."""
    if len(row) != 2:
        return False
    left, right = sorted(row, key=lambda b: b[1])
    gap = right[1] - (left[1] + left[2])
    y, x, w, h, label = right
    piece = (labels[y : y + h, x : x + w] == label).astype(np.uint8)
    _, hierarchy = cv2.findContours(piece, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    has_hole = hierarchy is not None and bool(np.any(hierarchy[0][:, 3] >= 0))
    return left[2] <= right[2] and gap >= 0 and (has_hole or _closed_on_the_left(piece))


def _closed_on_the_left(piece: Image, share: float = 0.6) -> bool:
    """True when the left third of a glyph piece holds ink on most rows, as an '0' broken at the
    top still does and the bowl of a 'D' or 'B' cut from its stem does not."""
    height, width = piece.shape
    left = piece[:, : max(1, width // 3)]
    return bool(np.count_nonzero(left.any(axis=1)) >= share * height)
