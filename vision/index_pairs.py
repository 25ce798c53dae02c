"""Find card indices by their glyphs alone: a rank glyph with a suit glyph under it.

A card half under a towel, behind mesh or in the middle of a fan may show no outline to any
mask, yet its index corner shows: two dark glyphs on light paper, the rank above the suit, of
like width, a small gap between them, with nothing of their size beside them (text has letters
beside letters). The direction from the rank to the suit is the card's "down" at any rotation.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.cards import Image
from vision.config import IndexFinderConfig

Vector = npt.NDArray[np.float32]


@dataclass(frozen=True)
class IndexPair:
    """A rank glyph and the suit glyph under it, in frame pixels.

    `across` and `down` are unit vectors of the card's top and side as the index reads (not
    mirrored: across turns to down as x turns to y); `rank_corner` is the top-left of the rank
    glyph's box in those directions; `rank_height` its extent along `down`."""

    rank_corner: Vector
    across: Vector
    down: Vector
    rank_height: float
    rank_width: float
    suit_height: float


@dataclass(frozen=True)
class _Glyph:
    """A glyph-sized piece of ink: its pixel coordinates and centre (detection pixels)."""

    points: npt.NDArray[np.float32]
    centre: Vector
    size: float
    hull: npt.NDArray[np.float32]
    """The points of its convex hull: its extent along any direction is theirs."""
    key: tuple[int, ...]
    """Its box and area: the same piece cut at another ink level has the same key."""


def ink_pieces(gray: Image, allowed: Image | None, config: IndexFinderConfig, short: int,
               contrast: float, darker: dict[tuple[int, ...], _Glyph] | None = None
               ) -> list[_Glyph]:
    """Pieces of ink of glyph size at least `contrast` darker than the mean grey around them,
    where `allowed` is set; sizes are shares of `short`, the whole frame's shorter side.

    `darker` holds pieces cut at a higher contrast by their keys: their ink is ink here too, so
    a piece here of the same box and area that holds one of its pixels is that piece."""
    block = max(3, round(config.pair_block * short) | 1)
    ink = cv2.adaptiveThreshold(gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV,
                                block, contrast)
    if allowed is not None:
        ink = cv2.bitwise_and(ink, allowed)
    count, labels, stats, centres = cv2.connectedComponentsWithStats(ink, connectivity=8)
    if count <= 1:
        return []
    low, high = config.glyph_pixels
    high = max(low, high * short)
    w, h = stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT]
    area = stats[1:, cv2.CC_STAT_AREA]
    big = np.maximum(w, h)
    keep = (big >= low) & (big <= high) & (area >= 0.15 * w * h) & (
        big <= config.glyph_aspect * np.minimum(w, h))
    pieces = []
    for label in (np.nonzero(keep)[0] + 1).tolist():
        x, y, bw, bh, size = stats[label, :5].tolist()
        same = darker.get((x, y, bw, bh, size)) if darker else None
        if same is not None:
            px, py = same.points[0].tolist()
            if labels[int(py), int(px)] == label:
                pieces.append(same)
                continue
        ys, xs = np.nonzero(labels[y:y + bh, x:x + bw] == label)
        points = np.column_stack([xs + x, ys + y]).astype(np.float32)
        hull = cv2.convexHull(points).reshape(-1, 2).astype(np.float32)
        pieces.append(_Glyph(points, centres[label].astype(np.float32), float(max(bw, bh)),
                             hull, (x, y, bw, bh, size)))
    return pieces


def _extents(points: npt.NDArray[np.float32], down: Vector,
             across: Vector) -> tuple[tuple[float, float], tuple[float, float]]:
    """Least and greatest projections of the points along down and across."""
    values = points @ np.array([[down[0], across[0]], [down[1], across[1]]], np.float32)
    low, high = values.min(axis=0).tolist(), values.max(axis=0).tolist()
    return (low[0], high[0] + 1.0), (low[1], high[1] + 1.0)


def _extent(points: npt.NDArray[np.float32], axis: Vector) -> tuple[float, float]:
    """Least and greatest projection of the points on a unit axis."""
    values = points @ axis
    return float(values.min()), float(values.max()) + 1.0


def index_pairs(gray: Image, allowed: Image | None, config: IndexFinderConfig,
                short: int | None = None) -> Iterator[IndexPair]:
    """Rank and suit glyph pairs in a grey image (coordinates of that image), one by one: a
    caller that needs only the first few leaves the rest unsought.

    Each glyph-sized piece is paired with a piece near it as the suit under a rank: along the
    direction from one to the other, the suit starts within `pair_gap` rank heights below
    the rank, is `suit_heights` of its height and `suit_widths` of its width, and the
    two overlap across. A piece of like height beside the rank (the '1' and '0' of a ten) joins
    it; a further one (a word) or one just above the rank (a line of text) rejects the pair.
    The ink is cut at each of `pair_contrasts` in turn (pale glyphs break at the higher,
    glyphs run into a picture's frame join at the lower); at a further level only pairs with a
    piece not cut alike before are looked at."""
    seen: set[tuple[int, ...]] = set()
    cut: list[tuple[float, list[_Glyph]]] = []
    for contrast in config.pair_contrasts:
        darker = {p.key: p for level, earlier in cut if level >= contrast for p in earlier}
        pieces = ink_pieces(gray, allowed, config, short or min(gray.shape[:2]), contrast,
                            darker)
        cut.append((contrast, pieces))
        fresh = [p.key not in seen for p in pieces]
        seen |= {p.key for p in pieces}
        if len(pieces) >= 2:
            yield from _pairs(pieces, fresh, config)


def _pairs(pieces: list[_Glyph], fresh: list[bool], config: IndexFinderConfig
           ) -> Iterator[IndexPair]:
    """Every rank and suit pair among the pieces of which one at least is `fresh`."""
    centres = np.array([p.centre for p in pieces], np.float32)
    sizes = np.array([p.size for p in pieces], np.float32)
    ranks, suits = _candidates(centres, sizes, np.array(fresh, bool))
    if not len(ranks):
        return
    maybe, digit, neighbours = _may_pair(pieces, ranks, suits, centres, sizes, config)
    for i, j, seek, look in zip(ranks[maybe].tolist(), suits[maybe].tolist(),
                                digit[maybe].tolist(), neighbours[maybe].tolist(), strict=True):
        pair = _pair(pieces, i, j, centres, sizes, config, seek, tuple(look))
        if pair is not None:
            yield pair


def _candidates(centres: npt.NDArray[np.float32], sizes: npt.NDArray[np.float32],
                fresh: npt.NDArray[np.bool_]) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Rank and suit pieces that may pair, by rank then suit: a suit lies within about two of
    the rank's sizes and is about as large (box sides of glyphs turned any way differ by up to
    1.4 times from their extents), and one of the two is `fresh`."""
    offsets = centres[None, :, :] - centres[:, None, :]
    apart = np.hypot(offsets[..., 0], offsets[..., 1])
    scale = sizes.astype(np.float64)[:, None]
    # Each bound is the rank's size times a factor in double precision, compared in single
    # precision, as a scalar bound against a row of single precision values is.
    def bound(factor: float) -> npt.NDArray[np.float32]:
        return (factor * scale).astype(np.float32)
    near = ((apart > bound(0.4)) & (apart < bound(1.9)) & (sizes[None, :] <= bound(1.3))
            & (sizes[None, :] >= bound(0.35)) & (fresh[:, None] | fresh[None, :]))
    ranks, suits = np.nonzero(near)
    return ranks, suits


_TOLERANCE = 0.01
"""Pixels by which a test on arrays is loosened (or tightened) towards keeping a pair, against
the exact test, whose single precision arithmetic differs from it by far less."""


def _may_pair(pieces: list[_Glyph], ranks: npt.NDArray[np.intp], suits: npt.NDArray[np.intp],
              centres: npt.NDArray[np.float32], sizes: npt.NDArray[np.float32],
              config: IndexFinderConfig) -> tuple[npt.NDArray[np.bool_], ...]:
    """Which candidate pairs `_pair` may accept, all at once, each test loosened (or tightened)
    by `_TOLERANCE` towards keeping a pair (the exact tests follow for the pairs kept); which
    may have a ten's other digit beside the rank; and, as `_checked`'s `neighbours`, which may
    have a glyph after the rank, above it or after the suit (loosened likewise).

    A pair is dropped when it fails the first look, or when it fails a test of an index
    without a ten's other digit (the gap and sizes, or a glyph of its size after the rank or
    the suit on their lines or just above the rank) and, for every piece beside the rank that
    may be that digit, the gap and sizes of an index with it."""
    tol = _TOLERANCE
    hulls = _padded_hulls(pieces)
    towards = (centres[suits] - centres[ranks]).astype(np.float64)
    down = towards / np.maximum(np.hypot(towards[:, 0], towards[:, 1]), 1e-6)[:, None]
    across = np.column_stack([down[:, 1], -down[:, 0]])
    top, bottom, left, right = _hull_extents(hulls[ranks], down, across)
    s_top, s_bottom, s_left, s_right = _hull_extents(hulls[suits], down, across)
    height, width = bottom - top, right - left
    s_height, s_width = s_bottom - s_top, s_right - s_left
    gap = s_top - bottom
    gap_low, gap_high = config.pair_gap
    low, high = config.suit_heights
    first = ((gap >= (gap_low - 0.2) * height - tol) & (gap <= (gap_high + 0.3) * height + tol)
             & (s_height >= (low - 0.15) * height - tol)
             & (s_height <= (high + 0.2) * height + tol)
             & (width <= config.rank_aspect * height + tol)
             & (s_width <= config.suit_aspect * s_height + tol))
    plain = _sizes_fit((top, bottom, left, right), (s_top, s_bottom, s_left, s_right), config)
    pairs = np.nonzero(first)[0]
    none = np.zeros(len(first), bool)
    crowded = np.zeros((len(first), 3), bool)
    if not len(pairs):
        return first, none, crowded
    # Every other piece near a pair's rank or suit by centres and sizes (the first looks of
    # `_beside` and `_above`), then its extents along the pair's directions.
    h, sh = height[pairs, None], s_height[pairs, None]
    share = config.pair_clear
    along = down[pairs] @ centres.astype(np.float64).T
    aside = across[pairs] @ centres.astype(np.float64).T
    size = sizes.astype(np.float64)[None, :]
    t, b, lo, hi = (v[pairs, None] for v in (top, bottom, left, right))
    st, sb, sl, sr = (v[pairs, None] for v in (s_top, s_bottom, s_left, s_right))
    near = ((along >= t - 1.05 * h - tol) & (along <= b + 1.05 * h + tol)
            & (aside - size <= hi + share * h + tol) & (aside + size >= lo - share * h - tol)
            & (size >= 0.35 * h - tol))
    near |= ((along >= t - 2.2 * h - tol) & (along <= t + tol)
             & (aside + size >= lo - tol) & (aside - size <= hi + tol))
    near |= ((along >= st - 0.75 * sh - tol) & (along <= sb + 0.75 * sh + tol)
             & (aside - size <= sr + share * sh + tol) & (aside + size >= sl - share * sh - tol)
             & (size >= 0.35 * sh - tol))
    rows = np.arange(len(pairs))
    near[rows, ranks[pairs]] = False
    near[rows, suits[pairs]] = False
    at, piece = np.nonzero(near)
    if not len(at):
        return first & plain, none, crowded
    q = pairs[at]
    k_top, k_bottom, k_left, k_right = _hull_extents(hulls[piece], down[q], across[q])
    tall, middle = k_bottom - k_top, (k_bottom + k_top) / 2
    k_along, k_aside = along[at, piece], aside[at, piece]
    k_size = sizes[piece].astype(np.float64)
    hq, tq, bq, lq, rq = height[q], top[q], bottom[q], left[q], right[q]
    shq, stq, sbq, slq, srq = s_height[q], s_top[q], s_bottom[q], s_left[q], s_right[q]
    # A glyph of the rank's height after it on its line, tightened.
    word = _surely_near(k_along, k_aside, k_size, (tq, bq, lq, rq), hq, share) & (
        tall >= 0.5 * hq + tol) & (tall <= 1.5 * hq - tol) & (middle >= tq + tol) & (
        middle <= bq - tol) & _after(k_left, k_right, lq, rq, share * hq, tol)
    # A glyph of the rank's height just above it, tightened.
    word |= (k_along >= tq - 2.2 * hq + tol) & (k_along <= tq - tol) & (
        k_aside + k_size >= lq + tol) & (k_aside - k_size <= rq - tol) & (
        tall >= 0.5 * hq + tol) & (tall <= 1.5 * hq - tol) & (k_right > lq + tol) & (
        k_left < rq - tol) & (k_bottom >= tq - 0.6 * hq + tol) & (k_bottom <= tq - tol)
    # A glyph of the suit's height after it on its line, tightened.
    word |= _surely_near(k_along, k_aside, k_size, (stq, sbq, slq, srq), shq, share) & (
        tall >= 0.5 * shq + tol) & (tall <= 1.5 * shq - tol) & (middle >= stq + tol) & (
        middle <= sbq - tol) & _after(k_left, k_right, slq, srq, share * shq, tol)
    plain[q[word]] = False
    # The same three, loosened: where none may be, `_checked` need not look.
    maybe_after = _surely_near(k_along, k_aside, k_size, (tq, bq, lq, rq), hq, share, -tol) & (
        tall >= 0.5 * hq - tol) & (tall <= 1.5 * hq + tol) & (middle >= tq - tol) & (
        middle <= bq + tol) & _after(k_left, k_right, lq, rq, share * hq, -tol)
    maybe_above = (k_along >= tq - 2.2 * hq - tol) & (k_along <= tq + tol) & (
        k_aside + k_size >= lq - tol) & (k_aside - k_size <= rq + tol) & (
        tall >= 0.5 * hq - tol) & (tall <= 1.5 * hq + tol) & (k_right > lq - tol) & (
        k_left < rq + tol) & (k_bottom >= tq - 0.6 * hq - tol) & (k_bottom <= tq + tol)
    maybe_s_after = _surely_near(k_along, k_aside, k_size, (stq, sbq, slq, srq), shq, share,
                                 -tol) & (tall >= 0.5 * shq - tol) & (tall <= 1.5 * shq + tol) & (
        middle >= stq - tol) & (middle <= sbq + tol) & _after(k_left, k_right, slq, srq,
                                                              share * shq, -tol)
    for column, found in enumerate((maybe_after, maybe_above, maybe_s_after)):
        crowded[q[found], column] = True
    # A ten's other digit beside the rank (`_pair`'s search), loosened, of like height.
    digit = (tall >= 0.75 * hq - tol) & (tall <= 1.33 * hq + tol) & (
        middle >= tq - 0.3 * hq - tol) & (middle <= bq + 0.3 * hq + tol) & (
        _after(k_left, k_right, lq, rq, share * hq, -tol)
        | ((lq - k_right >= -tol) & (lq - k_right <= share * hq + tol)))
    digit_fits = np.zeros(len(first), bool)
    beside = np.zeros(len(first), bool)
    beside[q[digit]] = True
    if np.any(digit):
        d = np.nonzero(digit)[0]
        digit_fits[q[d[_digit_sizes_fit(hulls, ranks[q[d]], suits[q[d]], piece[d], centres,
                                         config)]]] = True
    return first & (plain | digit_fits), beside, crowded


def _sizes_fit(rank: tuple[npt.NDArray[np.float64], ...],
               suit: tuple[npt.NDArray[np.float64], ...],
               config: IndexFinderConfig) -> npt.NDArray[np.bool_]:
    """`_checked`'s tests of the gap, the suit's height and width and the overlap across, on
    boxes (top, bottom, left, right) of rank and suit, loosened by `_TOLERANCE`."""
    tol = _TOLERANCE
    top, bottom, left, right = rank
    s_top, s_bottom, s_left, s_right = suit
    height, width = bottom - top, right - left
    s_height, s_width = s_bottom - s_top, s_right - s_left
    gap = s_top - bottom
    gap_low, gap_high = config.pair_gap
    low, high = config.suit_heights
    w_low, w_high = config.suit_widths
    overlap = np.minimum(right, s_right) - np.maximum(left, s_left)
    fit: npt.NDArray[np.bool_] = (
        (gap >= gap_low * height - tol) & (gap <= gap_high * height + tol)
        & (s_height >= low * height - tol) & (s_height <= high * height + tol)
        & (s_width >= w_low * width - tol) & (s_width <= w_high * width + tol)
        & (overlap >= config.pair_overlap * np.minimum(width, s_width) - tol))
    return fit


def _digit_sizes_fit(hulls: npt.NDArray[np.float64], ranks: npt.NDArray[np.intp],
                     suits: npt.NDArray[np.intp], digits: npt.NDArray[np.intp],
                     centres: npt.NDArray[np.float32],
                     config: IndexFinderConfig) -> npt.NDArray[np.bool_]:
    """`_sizes_fit` for ranks read with a ten's other digit, down square to the digits' line
    (loosened by `_TOLERANCE`; a line square to the way to the suit keeps the pair)."""
    line = (centres[digits] - centres[ranks]).astype(np.float64)
    line /= np.maximum(np.hypot(line[:, 0], line[:, 1]), 1e-6)[:, None]
    down = np.column_stack([-line[:, 1], line[:, 0]])
    towards = (centres[suits] - centres[ranks]).astype(np.float64)
    facing = np.einsum("pk,pk->p", down, towards)
    down[facing <= 0] *= -1.0
    across = np.column_stack([down[:, 1], -down[:, 0]])
    top, bottom, left, right = _hull_extents(hulls[ranks], down, across)
    o_top, o_bottom, o_left, o_right = _hull_extents(hulls[digits], down, across)
    rank = (np.minimum(top, o_top), np.maximum(bottom, o_bottom), np.minimum(left, o_left),
            np.maximum(right, o_right))
    fit = _sizes_fit(rank, _hull_extents(hulls[suits], down, across), config)
    unsure: npt.NDArray[np.bool_] = fit | (np.abs(facing) <= 1e-3 * np.hypot(
        towards[:, 0], towards[:, 1]))
    return unsure


def _after(k_left: npt.NDArray[np.float64], k_right: npt.NDArray[np.float64],
           left: npt.NDArray[np.float64], right: npt.NDArray[np.float64],
           clear: npt.NDArray[np.float64], tol: float) -> npt.NDArray[np.bool_]:
    """`_beside`'s test of a piece after the columns, tightened by a positive `tol` (loosened
    by a negative one)."""
    gap = k_left - right
    after: npt.NDArray[np.bool_] = ((gap >= tol) & (gap <= clear - tol)) | (
        (k_left > left + tol) & (k_right > right + tol) & (gap < -tol))
    return after


def _surely_near(along: npt.NDArray[np.float64], aside: npt.NDArray[np.float64],
                 size: npt.NDArray[np.float64], box: tuple[npt.NDArray[np.float64], ...],
                 height: npt.NDArray[np.float64], share: float,
                 tol: float = _TOLERANCE) -> npt.NDArray[np.bool_]:
    """`_beside`'s first look by centres and sizes for a box (top, bottom, left, right),
    tightened by a positive `tol` (loosened by a negative one)."""
    top, bottom, left, right = box
    clear = share * height
    near: npt.NDArray[np.bool_] = (
        (along >= top - 0.75 * height + tol) & (along <= bottom + 0.75 * height - tol)
        & (aside - size <= right + clear - tol) & (aside + size >= left - clear + tol)
        & (size >= 0.35 * height + tol))
    return near


def _padded_hulls(pieces: list[_Glyph]) -> npt.NDArray[np.float64]:
    """Every piece's hull points in one array, short hulls padded with their first point."""
    most = max(len(p.hull) for p in pieces)
    hulls = np.empty((len(pieces), most, 2), np.float64)
    for n, piece in enumerate(pieces):
        count = len(piece.hull)
        hulls[n, :count] = piece.hull
        hulls[n, count:] = piece.hull[0]
    return hulls


def _hull_extents(hulls: npt.NDArray[np.float64], down: npt.NDArray[np.float64],
                  across: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float64], ...]:
    """Least and greatest projections (plus one, as `_extents`) of each hull along its own
    down and across: top, bottom, left, right."""
    along = np.einsum("pmk,pk->pm", hulls, down)
    aside = np.einsum("pmk,pk->pm", hulls, across)
    return (along.min(axis=1), along.max(axis=1) + 1.0, aside.min(axis=1),
            aside.max(axis=1) + 1.0)


def _pair(pieces: list[_Glyph], i: int, j: int, centres: npt.NDArray[np.float32],
          sizes: npt.NDArray[np.float32], config: IndexFinderConfig,
          seek_digits: bool = True,
          neighbours: tuple[bool, ...] = (True, True, True)) -> IndexPair | None:
    """The index of rank `i` over suit `j`, or None when they do not look like one; a ten's
    other digit is sought beside the rank when `seek_digits` (none other than one of the rank's
    height along down, 0.75 to 1.33 times, is kept as one); `neighbours` as `_checked`'s."""
    rank, suit = pieces[i], pieces[j]
    down = _unit(suit.centre - rank.centre)
    across = _across(down)
    (top, bottom), (left, right) = _extents(rank.hull, down, across)
    height = bottom - top
    # A first look, loose enough for a ten's suit paired at a slant with one digit: the suit
    # must lie below the rank, about its size; rank glyphs (one digit of a ten) stand taller
    # than wide, suits about square (letters of text read sideways do neither).
    (s_top, s_bottom), (s_left, s_right) = _extents(suit.hull, down, across)
    gap_low, gap_high = config.pair_gap
    low, high = config.suit_heights
    if not ((gap_low - 0.2) * height <= s_top - bottom <= (gap_high + 0.3) * height
            and (low - 0.15) * height <= s_bottom - s_top <= (high + 0.2) * height
            and right - left <= config.rank_aspect * height
            and s_right - s_left <= config.suit_aspect * (s_bottom - s_top)):
        return None
    if not seek_digits:
        return _checked(pieces, i, j, [], down, across, centres, sizes, config, neighbours)
    # A piece beside the rank on its line may be a ten's other digit: a '1' before a '0' (the
    # rank is then the '0', paired with the suit at a slant) or a '0' after a '1'.
    before, after = _beside(pieces, centres, sizes, (i, j), down, across, height,
                            (top - 0.3 * height, bottom + 0.3 * height), (left, right), config)
    digits = after[:1] if len(after) == 1 else before[:1] if len(before) == 1 and not after \
        else []
    first = _checked(pieces, i, j, digits, down, across, centres, sizes, config, neighbours)
    if first is not None or not digits:
        return first
    return _checked(pieces, i, j, [], down, across, centres, sizes, config, neighbours)


def _checked(pieces: list[_Glyph], i: int, j: int, digits: list[int], down: Vector,
             across: Vector, centres: npt.NDArray[np.float32], sizes: npt.NDArray[np.float32],
             config: IndexFinderConfig,
             neighbours: tuple[bool, ...] = (True, True, True)) -> IndexPair | None:
    """The index of rank `i` (with a ten's other digit `digits`, when given) over suit `j`, or
    None when they do not look like one. Without a digit, `neighbours` tells which of the looks
    for a glyph after the rank, above it and after the suit may find one (the others are not
    taken)."""
    rank, suit = pieces[i], pieces[j]
    height = float(np.subtract(*_extent(rank.hull, down)[::-1]))
    points, outline = rank.points, rank.hull
    if digits:
        other = pieces[digits[0]]
        if not 0.75 * height <= float(np.subtract(*_extent(other.hull, down)[::-1])) \
                <= 1.33 * height:
            digits = []
        else:
            # The digits' line runs across the card: down is square to it, towards the suit.
            line = _unit(other.centre - rank.centre)
            down = np.array([-line[1], line[0]], np.float32)
            down = down if float(down @ (suit.centre - rank.centre)) > 0 else -down
            across = _across(down)
            points = np.concatenate([rank.points, other.points])
            outline = np.concatenate([rank.hull, other.hull])
    (top, bottom), (left, right) = _extents(outline, down, across)
    height, width = bottom - top, right - left
    skip = (i, j, *digits)
    look_after, look_above, look_suit = neighbours if not digits else (True, True, True)
    (s_top, s_bottom), (s_left, s_right) = _extents(suit.hull, down, across)
    s_height, s_width = s_bottom - s_top, s_right - s_left
    gap_low, gap_high = config.pair_gap
    if not gap_low * height <= s_top - bottom <= gap_high * height:
        return None
    low, high = config.suit_heights
    if not low * height <= s_height <= high * height:
        return None
    low, high = config.suit_widths
    if not low * width <= s_width <= high * width:
        return None
    overlap = min(right, s_right) - max(left, s_left)
    if overlap < config.pair_overlap * min(width, s_width):
        return None
    # Glyphs of its height further on along the rank's line make a word, not an index.
    if look_after and _beside(pieces, centres, sizes, skip, down, across, height,
                              (top, bottom), (left, right), config)[1]:
        return None
    # The rank is the index's top glyph: ink of its size just above it is a line of text.
    if look_above and _above(pieces, centres, sizes, skip, across, down, height, (top, bottom),
                             (left, right)):
        return None
    # Nothing of the suit's height follows it on its line either.
    if look_suit and _beside(pieces, centres, sizes, skip, down, across, s_height,
                             (s_top, s_bottom), (s_left, s_right), config)[1]:
        return None
    # Two pips of one shape are no rank and suit.
    if shape_overlap(points, suit.points, across, down) >= config.same_shape:
        return None
    # The index's long axis (rank and suit together) gives its down more closely than the
    # glyphs' centres: a ten's suit may sit under either digit.
    axis = _long_axis(np.concatenate([points, suit.points]))
    if axis is not None and abs(float(axis @ down)) >= np.cos(np.deg2rad(20.0)):
        down = axis if float(axis @ down) > 0 else -axis
        across = _across(down)
        (top, bottom), (left, right) = _extents(outline, down, across)
        height, width = bottom - top, right - left
        s_height = float(np.subtract(*_extent(suit.hull, down)[::-1]))
    corner = across * left + down * top
    return IndexPair(corner.astype(np.float32), across, down, height, width, s_height)


def _long_axis(points: npt.NDArray[np.float32]) -> Vector | None:
    """The unit direction of the points' greatest spread; None when they spread about as much
    every way (under 1.3 times as far along it as across it)."""
    values, vectors = np.linalg.eigh(np.cov(points.T))
    if values[1] < 1.69 * max(float(values[0]), 1e-6):
        return None
    return vectors[:, 1].astype(np.float32)


def shape_overlap(first: npt.NDArray[np.float32], second: npt.NDArray[np.float32],
                  across: Vector, down: Vector, most: int = 12) -> float:
    """Intersection over union of two glyphs' shapes, each drawn upright (along `across` and
    `down`) into a square fitting its box, of `most` pixels or the smaller glyph's size."""
    drawn = []
    placed = [np.column_stack([points @ across, points @ down]) for points in (first, second)]
    least = min(float((p.max(axis=0) - p.min(axis=0)).min()) for p in placed)
    size = int(min(most, max(3.0, least)))
    for local in placed:
        low = local.min(axis=0)
        span = np.maximum(local.max(axis=0) - low, 1.0)
        cells = np.clip(((local - low) / span * (size - 1)).round().astype(np.intp), 0, size - 1)
        grid = np.zeros((size, size), bool)
        grid[cells[:, 1], cells[:, 0]] = True
        drawn.append(grid)
    union = np.count_nonzero(drawn[0] | drawn[1])
    return np.count_nonzero(drawn[0] & drawn[1]) / union if union else 0.0


def _unit(vector: npt.NDArray[np.float32]) -> Vector:
    """The vector scaled to length one."""
    return (vector / max(float(np.hypot(*vector)), 1e-6)).astype(np.float32)


def _across(down: Vector) -> Vector:
    """The card's top direction for a down direction, not mirrored (as x turns to y)."""
    return np.array([down[1], -down[0]], np.float32)


def _beside(pieces: list[_Glyph], centres: npt.NDArray[np.float32],
            sizes: npt.NDArray[np.float32], skip: tuple[int, ...], down: Vector,
            across: Vector, height: float, rows: tuple[float, float],
            columns: tuple[float, float], config: IndexFinderConfig) -> tuple[list[int], list[int]]:
    """Pieces of about `height` whose middle lies in `rows` (along down) within
    `pair_clear` heights before and after `columns` (along across)."""
    # First by centres and box sizes, all at once: a piece's centre lies within its own size
    # (and within 0.75 heights along down, being at most 1.5 tall) of where it reaches.
    clear = config.pair_clear * height
    along, aside = centres @ down, centres @ across
    near = np.nonzero(
        (along >= rows[0] - 0.75 * height) & (along <= rows[1] + 0.75 * height)
        & (aside - sizes <= columns[1] + clear) & (aside + sizes >= columns[0] - clear)
        & (sizes >= 0.35 * height))[0]
    near = np.array([k for k in near.tolist() if k not in skip], np.intp)
    before: list[int] = []
    after: list[int] = []
    if not len(near):
        return before, after
    # Every near piece's extents at once: their hulls stacked, projected, reduced per piece.
    hulls = [pieces[k].hull for k in near.tolist()]
    starts = np.cumsum([0] + [len(h) for h in hulls[:-1]])
    values = np.concatenate(hulls) @ np.array([[down[0], across[0]], [down[1], across[1]]],
                                               np.float32)
    low = np.minimum.reduceat(values, starts, axis=0)
    high = np.maximum.reduceat(values, starts, axis=0) + 1.0
    tall = high[:, 0] - low[:, 0]
    middle = (high[:, 0] + low[:, 0]) / 2
    fits = (tall >= 0.5 * height) & (tall <= 1.5 * height) & (middle >= rows[0]) & (
        middle <= rows[1])
    for n in np.nonzero(fits)[0].tolist():
        k, left, right = int(near[n]), float(low[n, 1]), float(high[n, 1])
        if 0 <= left - columns[1] <= config.pair_clear * height or (
                left > columns[0] and right > columns[1] and left - columns[1] < 0):
            after.append(k)
        elif 0 <= columns[0] - right <= config.pair_clear * height:
            before.append(k)
    return before, after


def _above(pieces: list[_Glyph], centres: npt.NDArray[np.float32],
           sizes: npt.NDArray[np.float32], skip: tuple[int, ...], across: Vector,
           down: Vector, height: float, rows: tuple[float, float],
           columns: tuple[float, float]) -> bool:
    """Whether a piece of about the rank's height lies just above it, overlapping it across."""
    along, aside = centres @ down, centres @ across
    near = np.nonzero((along >= rows[0] - 2.2 * height) & (along <= rows[0])
                      & (aside + sizes >= columns[0]) & (aside - sizes <= columns[1]))[0]
    for k in near.tolist():
        if k in skip:
            continue
        top, bottom = _extent(pieces[k].hull, down)
        if not 0.5 * height <= bottom - top <= 1.5 * height:
            continue
        left, right = _extent(pieces[k].hull, across)
        if right <= columns[0] or left >= columns[1]:
            continue
        if rows[0] - 0.6 * height <= bottom <= rows[0]:
            return True
    return False
