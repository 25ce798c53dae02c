"""Feature vectors of normalised glyph images, shared by fitting and reading."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.cards import Image

Vector = npt.NDArray[np.float32]

CELLS = 4
BINS = 9
PI = np.float32(np.pi)


@cache
def _cell_offsets(size: int) -> npt.NDArray[np.int32]:
    """For each pixel of a square glyph, the first histogram bin of its cell."""
    rows = (np.arange(size) // (size // CELLS)).clip(0, CELLS - 1)
    offsets: npt.NDArray[np.int32] = ((rows[:, None] * CELLS + rows[None, :]) * BINS).astype(
        np.int32)
    return offsets


def gradient_histograms(glyph: Image) -> Vector:
    """Histograms of unsigned gradient orientation over a CELLS x CELLS grid (a small HOG)."""
    image = cv2.GaussianBlur(glyph, (3, 3), 0)
    gx = cv2.Sobel(image, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(image, cv2.CV_32F, 0, 1, ksize=3)
    magnitude, angle = cv2.cartToPolar(gx, gy)
    # angle % pi, exactly and faster: subtracting pi from an angle in [pi, 2 pi) loses nothing.
    half_turn = angle - PI * (angle >= PI)
    bins = (half_turn / np.pi * BINS).astype(np.int32) % BINS
    index = _cell_offsets(glyph.shape[0]) + bins
    hist = np.bincount(index.ravel(), weights=magnitude.ravel(), minlength=CELLS * CELLS * BINS)
    hist = hist.reshape(CELLS * CELLS, BINS).astype(np.float64)
    hist = hist / (np.linalg.norm(hist, axis=1, keepdims=True) + 1e-3 * (hist.max() + 1.0))
    flat: Vector = hist.reshape(-1).astype(np.float32)
    return flat


def glyph_features(glyph: Image) -> Vector:
    """Gradient histograms of the glyph plus its coarse pixels and aspect, L2-normalised."""
    hog = gradient_histograms(glyph)
    coarse = cv2.resize(glyph, (8, 8), interpolation=cv2.INTER_AREA).reshape(-1) / 255.0
    _, _, width, height = cv2.boundingRect(glyph)
    aspect = width / height if height else 0.0
    vector = np.concatenate([hog, 0.5 * coarse, [aspect]]).astype(np.float32)
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm > 0 else vector


def glyphs_features(glyphs: Sequence[Image]) -> list[Vector]:
    """`glyph_features` of several glyphs of one size at once, side by side: the same vectors."""
    count = len(glyphs)
    if count == 1:
        return [glyph_features(glyphs[0])]
    size = glyphs[0].shape[0]
    # Each glyph mirrored 2 pixels beyond its sides, as OpenCV's filters see a lone glyph's border.
    padded = cv2.hconcat([cv2.copyMakeBorder(g, 0, 0, 2, 2, cv2.BORDER_REFLECT_101)
                          for g in glyphs])
    image = cv2.GaussianBlur(padded, (3, 3), 0)
    gx = cv2.Sobel(image, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(image, cv2.CV_32F, 0, 1, ksize=3)
    magnitude, angle = (
        a.reshape(size, count, size + 4)[:, :, 2:-2].reshape(size, count * size)
        for a in cv2.cartToPolar(gx, gy)
    )
    half_turn = angle - PI * (angle >= PI)
    bins = (half_turn / np.pi * BINS).astype(np.int32) % BINS
    index = _row_offsets(size, count) + bins
    cells = CELLS * CELLS * BINS
    hist = np.bincount(index.ravel(), weights=magnitude.ravel(), minlength=cells * count)
    hist = hist.reshape(count, CELLS * CELLS, BINS).astype(np.float64)
    floor = 1e-3 * (hist.max(axis=(1, 2), keepdims=True) + 1.0)
    hist = hist / (np.linalg.norm(hist, axis=2, keepdims=True) + floor)
    coarse = cv2.resize(cv2.hconcat(list(glyphs)), (8 * count, 8),
                        interpolation=cv2.INTER_AREA) / 255.0
    vectors = []
    for k, glyph in enumerate(glyphs):
        _, _, width, height = cv2.boundingRect(glyph)
        aspect = width / height if height else 0.0
        pixels = coarse[:, 8 * k : 8 * k + 8].reshape(-1)
        vector = np.concatenate([hist[k].reshape(-1), 0.5 * pixels, [aspect]]).astype(np.float32)
        norm = float(np.linalg.norm(vector))
        vectors.append(vector / norm if norm > 0 else vector)
    return vectors


@cache
def _row_offsets(size: int, count: int) -> npt.NDArray[np.int32]:
    """`_cell_offsets` for `count` glyphs side by side, each glyph's cells after the last's."""
    one = _cell_offsets(size)
    step = CELLS * CELLS * BINS
    offsets: npt.NDArray[np.int32] = np.hstack([one + k * step for k in range(count)]).astype(
        np.int32)
    return offsets
