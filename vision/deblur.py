"""Sharpen a blurred index view so that its glyphs part and keep their corners when cut."""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards import Image
from vision.config import VisionConfig


def sharpened(view: Image, config: VisionConfig) -> Image:
    """The view unsharp-masked at a radius of `sharpen_radius` of its width."""
    sigma = max(0.8, config.sharpen_radius * view.shape[1])
    blurred = cv2.GaussianBlur(view, (0, 0), sigma)
    amount = config.sharpen_amount
    return cv2.addWeighted(view, 1.0 + amount, blurred, -amount, 0.0)


def edge_width(view: Image) -> float:
    """How blurred a view is: the width of its steepest ink edges (the ink's contrast over its
    steepest gradient) as a share of the view's width."""
    grey = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY)
    low, high, _, _ = cv2.minMaxLoc(grey)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    magnitude = cv2.magnitude(gx, gy)
    values = magnitude.reshape(-1)
    rank = int(0.99 * (values.size - 1))
    steep = float(np.partition(values, rank)[rank]) / 8.0
    return float((high - low) / max(steep, 1e-3) / view.shape[1])
