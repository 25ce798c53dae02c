"""Find card outlines in a frame: bright low-saturation quads of card shape."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.cards import Quad
from vision.config import VisionConfig

Image = npt.NDArray[np.uint8]


def order_corners(points: npt.NDArray[np.floating]) -> Quad:
    """Order four points clockwise (in image coordinates) starting from the top-left-most."""
    pts = np.asarray(points, dtype=np.float32).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]
    start = int(np.argmin(pts.sum(axis=1)))
    return np.roll(pts, -start, axis=0)


def _shrink(frame: Image, config: VisionConfig) -> tuple[Image, float, int]:
    """Return the frame shrunk and padded for detection, its scale and the padding in pixels."""
    height, width = frame.shape[:2]
    scale = min(1.0, config.detect_long_side / max(height, width))
    small = frame
    if scale < 1.0:
        size = (round(width * scale), round(height * scale))
        small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    pad = max(2, round(config.pad_fraction * max(small.shape[:2])))
    padded = cv2.copyMakeBorder(small, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(40, 40, 40))
    return padded, scale, pad


def _masks(small: Image, config: VisionConfig) -> list[Image]:
    """Binary masks in which a card face should appear as one region."""
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    whiteness = cv2.subtract(hsv[:, :, 2], hsv[:, :, 1])
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(gray, config.canny_low, config.canny_high)
    not_edges = cv2.bitwise_not(cv2.dilate(edges, np.ones((3, 3), np.uint8)))
    otsu, _ = cv2.threshold(whiteness, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    masks: list[Image] = []
    for level in (otsu, otsu + 20, otsu + 40, 160, 200):
        if level >= 255:
            continue
        mask = (whiteness > level).astype(np.uint8) * 255
        masks += [mask, cv2.bitwise_and(mask, not_edges)]
    block = (min(small.shape[:2]) // 4) | 1
    for offset in (-5, -15):
        mask = cv2.adaptiveThreshold(
            whiteness, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, block, offset
        )
        masks.append(cv2.bitwise_and(mask, not_edges))
    masks.append(not_edges)
    return masks


def _quad_of(contour: npt.NDArray[np.int32], config: VisionConfig) -> Quad | None:
    """The contour's card-shaped quad, or None when it is not card-like."""
    area = cv2.contourArea(contour)
    hull = cv2.convexHull(contour)
    hull_area = cv2.contourArea(hull)
    if hull_area <= 0 or area / hull_area < config.min_solidity:
        return None
    approx = cv2.approxPolyDP(hull, config.approx_epsilon * cv2.arcLength(hull, True), True)
    if len(approx) != 4:
        return None
    _, (side_a, side_b), _ = cv2.minAreaRect(approx)
    aspect = max(side_a, side_b) / max(1.0, min(side_a, side_b))
    if not config.min_aspect < aspect < config.max_aspect:
        return None
    return order_corners(approx.reshape(4, 2))


def _box_iou(a: Quad, b: Quad) -> float:
    """IoU of the bounding boxes of two quads."""
    ax0, ay0 = a.min(axis=0)
    ax1, ay1 = a.max(axis=0)
    bx0, by0 = b.min(axis=0)
    bx1, by1 = b.max(axis=0)
    inter = max(0.0, min(ax1, bx1) - max(ax0, bx0)) * max(0.0, min(ay1, by1) - max(ay0, by0))
    union = (ax1 - ax0) * (ay1 - ay0) + (bx1 - bx0) * (by1 - by0) - inter
    return float(inter / union) if union > 0 else 0.0


def find_cards(frame: Image, config: VisionConfig | None = None) -> list[Quad]:
    """Return the outline of every card found in a BGR frame, largest first."""
    config = config or VisionConfig()
    small, scale, pad = _shrink(frame, config)
    frame_area = small.shape[0] * small.shape[1]
    candidates: list[tuple[float, Quad]] = []
    opening = np.ones((3, 3), np.uint8)
    for mask in _masks(small, config):
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, opening)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for contour in contours:
            area = cv2.contourArea(contour)
            if not config.min_card_area * frame_area < area < config.max_card_area * frame_area:
                continue
            quad = _quad_of(contour, config)
            if quad is not None:
                candidates.append((area, quad))
    kept: list[Quad] = []
    for _, quad in sorted(candidates, key=lambda item: -item[0]):
        if all(_box_iou(quad, other) <= config.nms_iou for other in kept):
            kept.append(quad)
    height, width = frame.shape[:2]
    limit = np.array([width - 1, height - 1], dtype=np.float32)
    return [np.clip((quad - pad) / scale, 0, limit).astype(np.float32) for quad in kept]
