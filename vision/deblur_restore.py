"""Restore a blurred index view by deconvolution with a blur measured from the view itself."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.cards import Image
from vision.config import VisionConfig

_DIRECTIONS = 12
"""Directions (over half a turn) along which the ink's edge widths are measured."""


@dataclass(frozen=True)
class Blur:
    """A view's blur: a Gaussian of `sigma` pixels, smeared along a line of `length` pixels at
    `angle` radians (image axes, y down); both in the view's own pixels."""

    sigma: float
    length: float
    angle: float


def directional_widths(view: Image) -> np.ndarray:
    """The ink's edge width (contrast over the steepest gradient) seen along each of
    `_DIRECTIONS` directions from 0 to 180 degrees, in pixels."""
    grey = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY).astype(np.float32)
    low, high, _, _ = cv2.minMaxLoc(grey)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3) / 8.0
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3) / 8.0
    rank = int(0.99 * (gx.size - 1))
    widths = np.empty(_DIRECTIONS, np.float64)
    for i in range(_DIRECTIONS):
        angle = math.pi * i / _DIRECTIONS
        along = np.abs(gx * math.cos(angle) + gy * math.sin(angle)).reshape(-1)
        steep = float(np.partition(along, rank)[rank])
        widths[i] = (high - low) / max(steep, 1e-3)
    return widths


def measured_blur(view: Image, config: VisionConfig) -> Blur:
    """The blur that widens the view's edges beyond a sharp print's: the narrowest direction's
    excess width is a Gaussian's (a blurred step is 2.5 sigma wide), the widest direction's
    excess over the narrowest a smear along it."""
    widths = directional_widths(view)
    sharp = config.restore_sharp_width * view.shape[1]
    narrowest = float(widths.min())
    widest_at = int(np.argmax(widths))
    sigma = math.sqrt(max(narrowest**2 - sharp**2, 0.0)) / 2.5
    smear = math.sqrt(max(float(widths[widest_at]) ** 2 - narrowest**2, 0.0))
    if smear < config.restore_min_smear * narrowest:
        smear = 0.0
    return Blur(sigma=sigma, length=smear, angle=math.pi * widest_at / _DIRECTIONS)


def point_spread(blur: Blur) -> Image:
    """The blur's kernel: a line of its length and angle (drawn with sub-pixel weights), then
    the Gaussian; it sums to 1."""
    radius = math.ceil(blur.length / 2 + 3 * blur.sigma) + 1
    size = 2 * radius + 1
    kernel = np.zeros((size, size), np.float32)
    steps = max(2, math.ceil(blur.length * 4))
    dx, dy = math.cos(blur.angle), math.sin(blur.angle)
    for s in np.linspace(-blur.length / 2, blur.length / 2, steps):
        x, y = radius + s * dx, radius + s * dy
        x0, y0 = math.floor(x), math.floor(y)
        fx, fy = x - x0, y - y0
        kernel[y0, x0] += (1 - fx) * (1 - fy)
        kernel[y0, x0 + 1] += fx * (1 - fy)
        kernel[y0 + 1, x0] += (1 - fx) * fy
        kernel[y0 + 1, x0 + 1] += fx * fy
    if blur.sigma > 0.3:
        kernel = np.asarray(cv2.GaussianBlur(kernel, (0, 0), blur.sigma), np.float32)
    return kernel / float(kernel.sum())


def richardson_lucy(view: Image, kernel: Image, iterations: int) -> Image:
    """The view deconvolved by `kernel` with Richardson-Lucy iterations (stays positive, so it
    rings less than an inverse filter)."""
    observed = view.astype(np.float32) / 255.0 + 1e-3
    estimate = observed.copy()
    mirrored = np.ascontiguousarray(kernel[::-1, ::-1])
    for _ in range(iterations):
        reblurred = cv2.filter2D(estimate, -1, kernel, borderType=cv2.BORDER_REPLICATE)
        ratio = observed / np.maximum(reblurred, 1e-4)
        estimate *= cv2.filter2D(ratio, -1, mirrored, borderType=cv2.BORDER_REPLICATE)
    restored_view: Image = np.clip(estimate * 255.0, 0, 255).astype(np.uint8)
    return restored_view


def restored(view: Image, config: VisionConfig) -> Image | None:
    """The view deconvolved by its measured blur; None when it measures no blur to undo."""
    blur = measured_blur(view, config)
    # Within a sharp print's own edges: sharp artwork views measure up to 2 px of smear.
    if blur.sigma < 0.5 and blur.length < 2.5:
        return None
    return richardson_lucy(view, point_spread(blur), config.restore_iterations)
