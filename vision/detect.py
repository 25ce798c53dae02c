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


def _masks(small: Image, pad: int, config: VisionConfig) -> list[Image]:
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
    masks += _off_background_masks(small, pad, config)
    return masks


def _off_background_masks(small: Image, pad: int, config: VisionConfig) -> list[Image]:
    """Masks of what differs in colour from the table, taken as the frame's border colour."""
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    inner = lab[pad:-pad, pad:-pad]
    strip = max(2, pad // 2)
    border = np.concatenate([
        inner[:strip].reshape(-1, 3), inner[-strip:].reshape(-1, 3),
        inner[:, :strip].reshape(-1, 3), inner[:, -strip:].reshape(-1, 3),
    ])
    table = np.median(border, axis=0)
    spread = np.median(np.abs(border - table), axis=0)
    if float(spread.max()) > config.max_table_spread:
        return []
    distance = np.linalg.norm(lab - table, axis=2)
    distance[:pad] = 0
    distance[-pad:] = 0
    distance[:, :pad] = 0
    distance[:, -pad:] = 0
    closing = np.ones((5, 5), np.uint8)
    masks = []
    for level in config.table_distances:
        mask = (distance > level).astype(np.uint8) * 255
        masks.append(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, closing))
    return masks


def _edge_support(contour: npt.NDArray[np.int32], quad: Quad, reach: float) -> float:
    """Share of points along the quad's sides that lie within `reach` pixels of the contour."""
    ends = np.roll(quad, -1, axis=0)
    steps = np.linspace(0.0, 1.0, 16, endpoint=False, dtype=np.float32)
    samples = (quad[:, None, :] + (ends - quad)[:, None, :] * steps[None, :, None]).reshape(-1, 2)
    near = sum(
        abs(cv2.pointPolygonTest(contour, (float(x), float(y)), True)) <= reach for x, y in samples
    )
    return near / len(samples)


def _approx_quad(hull: npt.NDArray[np.int32], config: VisionConfig) -> Quad | None:
    """A four-corner approximation of a convex hull, trying coarser tolerances in turn."""
    perimeter = cv2.arcLength(hull, True)
    for factor in (0.5, 0.75, 1.0, 1.5):
        approx = cv2.approxPolyDP(hull, factor * config.approx_epsilon * perimeter, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float32)
        if len(approx) < 4:
            return None
    return None


def _quad_of(contour: npt.NDArray[np.int32], config: VisionConfig) -> Quad | None:
    """The contour's card-shaped quad, or None when it is not card-like."""
    area = cv2.contourArea(contour)
    hull = cv2.convexHull(contour)
    hull_area = cv2.contourArea(hull)
    if hull_area <= 0 or area / hull_area < config.min_solidity:
        return None
    rough = _approx_quad(hull, config)
    if rough is None:
        return None
    quad = rough
    if cv2.contourArea(quad) < config.min_hull_fill * hull_area:
        return None
    _, (side_a, side_b), _ = cv2.minAreaRect(quad)
    aspect = max(side_a, side_b) / max(1.0, min(side_a, side_b))
    if not config.min_aspect < aspect < config.max_aspect:
        return None
    reach = config.support_reach * min(side_a, side_b)
    if _edge_support(contour, quad, reach) < config.min_edge_support:
        return None
    return order_corners(quad)


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
    for mask in _masks(small, pad, config):
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, opening)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
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
