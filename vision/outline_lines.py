"""Cards inside an unread outline, made of the straight lines there: a card on a card.

Two light cards that overlap make one light region, and its outline spans both: neither card's
index lies at its corners, so it stays unread. The top card's four sides still show as straight
edges (three against the table, one as a step or a shadow on the card beneath). The line
quads (`card_lines.line_quads`) built from the segments in and about the outline are
the cards it may hold; those of a card's size and shape that no edge crosses are read afresh.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.card_lines import line_quads, line_segments
from vision.cards import Image, Quad
from vision.config import VisionConfig
from vision.outline_sides import crossed


def _sides(quad: Quad) -> tuple[float, float]:
    """The quad's mean short and long side."""
    pts = np.asarray(quad, np.float32).reshape(4, 2)
    sides = np.linalg.norm(np.roll(pts, -1, axis=0) - pts, axis=1)
    first, second = float(sides[0] + sides[2]) / 2, float(sides[1] + sides[3]) / 2
    return min(first, second), max(first, second)


def _inside_share(quad: Quad, outline: Quad) -> float:
    """Share of the quad's area inside the outline."""
    a, b = (cv2.convexHull(np.asarray(q, np.float32).reshape(-1, 1, 2)) for q in (quad, outline))
    common, _ = cv2.intersectConvexConvex(a, b)
    area = float(cv2.contourArea(a))
    return float(common) / area if area > 0 else 0.0


def cards_within(gray: Image, outline: Quad, config: VisionConfig, width: float | None,
                 limit: int, min_inside: float) -> list[Quad]:
    """Up to `limit` card quads of straight lines lying `min_inside` or more inside an unread
    outline, best supported first (several may be one card, its sides found in pieces); as
    wide as the cards read (`width`, when any), else at least half the outline's width, and no
    edge across them."""
    short, long = _sides(outline)
    if short <= 0:
        return []
    grow = round(0.2 * short)
    x, y, w, h = cv2.boundingRect(np.rint(np.asarray(outline)).astype(np.int32))
    x0, y0 = max(0, x - grow), max(0, y - grow)
    x1, y1 = min(gray.shape[1], x + w + grow), min(gray.shape[0], y + h + grow)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return []
    min_side = 0.85 * width if width else 0.5 * short
    max_side = 1.2 * config.lines_max_aspect * width if width else 1.1 * long
    segments = line_segments(gray[y0:y1, x0:x1], 1.0, config.lines_min_length * min_side,
                             config.lines_max_segments)
    segments += np.array([x0, y0, x0, y0], np.float32)
    found: list[Quad] = []
    for quad, _ in line_quads(gray, segments, config, min_side, max_side):
        if width and not 0.85 * width <= _sides(quad)[0] <= 1.15 * width:
            continue
        if _inside_share(quad, outline) < min_inside or crossed(gray, quad, config):
            continue
        found.append(quad)
        if len(found) >= limit:
            break
    return found
