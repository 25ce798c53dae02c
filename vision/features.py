"""Feature vectors of normalised glyph images, shared by fitting and reading."""

from __future__ import annotations

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
