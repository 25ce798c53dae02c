"""An outline fitted to the card's own edges: each side moved onto the straight edge near it.

A card's outline from a mask can sit off the card: a webcam's soft edge and the card's shadow
widen what differs from the table, and a court's figure or a shadow across the face narrows what
is white. Each side of such an outline still runs near the card's real edge, where the frame
steps from table to paper all along the side. Across a band about each side, the step of the
side's polarity (paper lighter or darker than what lies outside) is found at points along it,
the outermost one of about the strongest (the face's ink lies further in);
a straight line fitted through them is the side, and the corners are where the sides meet.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.cards import Image, Quad
from vision.config import OutlineFitConfig

Floats = npt.NDArray[np.float32]
_NEXT = np.array([1, 2, 3, 0])
_BEFORE = np.array([3, 0, 1, 2])


def _clockwise(quad: Quad) -> Floats:
    """The quad's corners in clockwise order on screen (y down)."""
    pts = np.asarray(quad, np.float32).reshape(4, 2)
    x, y = pts[:, 0], pts[:, 1]
    if float(np.dot(x, y[_NEXT]) - np.dot(x[_NEXT], y)) < 0:
        pts = pts[::-1]
    return np.ascontiguousarray(pts)


def _side_line(gray: Floats, start: Floats, end: Floats, reach: float,
               config: OutlineFitConfig) -> tuple[Floats, Floats] | None:
    """A point on the fitted side and its direction, or None where no straight step runs
    along it; `start` to `end` runs clockwise, so the card lies to its right on screen."""
    along = end - start
    length = float(np.hypot(along[0], along[1]))
    if length < 4.0:
        return None
    unit = along / length
    inward = np.array([-unit[1], unit[0]], np.float32)
    shares = np.linspace(config.side_margin, 1.0 - config.side_margin, config.samples,
                         dtype=np.float32)
    offsets = np.arange(-reach, reach + 0.5, 0.5, dtype=np.float32)
    base = start[None, :] + shares[:, None] * along[None, :]
    points = base[:, None, :] + offsets[None, :, None] * inward[None, None, :]
    profile = cv2.remap(gray, points[..., 0], points[..., 1], cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE)
    step = profile[:, 2:] - profile[:, :-2]
    best_side: tuple[float, Floats, Floats] | None = None
    for sign in (1.0, -1.0):
        signed = step * np.float32(sign)
        # The outermost step at least half as strong as the strongest: the card's edge, where
        # the ink of its face lies further in.
        level = np.maximum(signed.max(axis=1, keepdims=True) * 0.5, config.min_step)
        where = (signed >= level).argmax(axis=1)
        strength = signed[np.arange(len(where)), where]
        strong = strength >= config.min_step
        if int(strong.sum()) < config.min_share * config.samples:
            continue
        found = (base + (offsets[1:-1][where])[:, None] * inward[None, :])[strong]
        line = cv2.fitLine(found.reshape(-1, 1, 2), cv2.DIST_HUBER, 0, 0.01, 0.01).reshape(4)
        direction = line[:2].astype(np.float32)
        point = line[2:].astype(np.float32)
        normal = np.array([-direction[1], direction[0]], np.float32)
        apart = np.abs((found - point[None, :]) @ normal)
        inliers = int((apart <= config.inlier_distance).sum())
        if inliers < config.min_share * config.samples:
            continue
        score = float(np.median(strength[strong])) * inliers
        if best_side is None or score > best_side[0]:
            best_side = (score, point, direction)
    if best_side is None:
        return None
    _, point, direction = best_side
    if abs(float(direction @ unit)) < np.cos(np.radians(config.max_turn_degrees)):
        return None
    return point, direction


def _meet(a: tuple[Floats, Floats], b: tuple[Floats, Floats]) -> Floats | None:
    """Where two lines (point, direction) cross, or None when they are near parallel."""
    (p, d), (q, e) = a, b
    cross = float(d[0] * e[1] - d[1] * e[0])
    if abs(cross) < 0.2:
        return None
    t = float((q[0] - p[0]) * e[1] - (q[1] - p[1]) * e[0]) / cross
    return (p + t * d).astype(np.float32)


def fitted_outline(gray: Image, quad: Quad, config: OutlineFitConfig) -> Quad | None:
    """The outline with every side moved onto the card's straight edge near it, or None when a
    side shows no such edge, the sides meet far from the outline's corners, or the outline lay
    on the card's edges already."""
    pts = _clockwise(quad)
    sides = np.linalg.norm(pts[_NEXT] - pts, axis=1)
    short = float(min(sides[0] + sides[2], sides[1] + sides[3]) / 2)
    reach = max(2.0, config.reach * short)
    image: Floats = np.asarray(gray, np.float32)
    lines = []
    for k in range(4):
        line = _side_line(image, pts[k], pts[_NEXT[k]], reach, config)
        if line is None:
            return None
        lines.append(line)
    corners = []
    for k in range(4):
        corner = _meet(lines[_BEFORE[k]], lines[k])
        if corner is None or float(np.hypot(*(corner - pts[k]))) > config.max_move * short:
            return None
        corners.append(corner)
    fitted = np.asarray(corners, np.float32)
    if float(np.hypot(*(fitted - pts).T).max()) < config.min_move * short:
        return None
    if cv2.contourArea(fitted.reshape(-1, 1, 2)) < 0.5 * cv2.contourArea(pts.reshape(-1, 1, 2)):
        return None
    return fitted
