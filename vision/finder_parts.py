"""Cards parted from light things they touch: a region opened until thin bridges break.

A card touching a light streak of wood, a grout line or the edge of a paper is one region with
it in a mask, not card-shaped as a whole. Opening the region (erosion, then dilation)
with a disc wider than the bridge parts the card from it, while the card itself, far wider
than the disc, keeps its shape.
"""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np

from vision.cards import Image


def parted_pieces(contour: Image, kernels: tuple[int, ...]) -> Iterator[tuple[int, Image]]:
    """Outer contours of the pieces a region (filled, holes and all) falls into when opened by
    discs of the given diameters (in mask pixels), each with its diameter."""
    x, y, w, h = cv2.boundingRect(contour)
    margin = 2
    region = np.zeros((h + 2 * margin, w + 2 * margin), np.uint8)
    cv2.drawContours(region, [contour], -1, 255, -1, offset=(margin - x, margin - y))
    for size in kernels:
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
        opened = cv2.morphologyEx(region, cv2.MORPH_OPEN, disc)
        pieces, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        for piece in pieces:
            yield size, piece + np.array([x - margin, y - margin], np.int32)
