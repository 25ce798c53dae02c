"""A frame looked at again with the learned finder when the colour masks leave doubt."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.cards import CardObservation, Quad, inside
from vision.deblur_outline import long_side
from vision.outline_boxes import Bounds


def in_doubt(observations: Sequence[CardObservation]) -> bool:
    """Whether a frame's recognition leaves something unread: an outline or a corner that is
    present but not named, or a card named from one end, whose other end lies under something."""
    return any(o.reading is None or o.one_end for o in observations)


def doubt_region(observations: Sequence[CardObservation], width: int, height: int,
                 reach: float = 1.5, whole: float = 0.5) -> Bounds | None:
    """Where a second look is needed (frame pixels: left, top, right, bottom): around every
    unread observation (or one named from one end), `reach` card lengths beyond it, so that a
    card lying beside it is seen whole. The card length is the median long side of the cards
    named whole. None (the whole frame) where no card is named whole, or where the region is
    more than `whole` of the frame."""
    unread = [np.asarray(o.corners, np.float32).reshape(-1, 2) for o in observations
              if o.reading is None or o.one_end]
    lengths = [long_side(o.corners) for o in observations if o.reading is not None and o.whole]
    if not unread or not lengths:
        return None
    grow = reach * float(np.median(lengths))
    points = np.concatenate(unread)
    left, top = (max(0.0, float(v) - grow) for v in points.min(axis=0))
    right = min(float(width), float(points[:, 0].max()) + grow)
    bottom = min(float(height), float(points[:, 1].max()) + grow)
    if (right - left) * (bottom - top) > whole * width * height:
        return None
    return left, top, right, bottom


def on_one_card(a: Quad, b: Quad, share: float = 0.25) -> bool:
    """Whether two outlines lie on one card: the centre of either inside the other, or `share`
    of the smaller covered by the larger."""
    if inside(np.mean(a, axis=0), b) or inside(np.mean(b, axis=0), a):
        return True
    first, second = (cv2.convexHull(np.asarray(q, np.float32).reshape(-1, 1, 2)) for q in (a, b))
    common, _ = cv2.intersectConvexConvex(first, second)
    smaller = min(cv2.contourArea(first), cv2.contourArea(second))
    return smaller > 0 and common >= share * smaller


def merged(first: Sequence[CardObservation], second: Sequence[CardObservation],
           share: float = 0.25) -> list[CardObservation]:
    """The first look's observations with the second look's fresh names added: a card named
    the second time counts where it lies on no card named the first time and its name is not
    given yet; it takes the place of the unread observations it lies on. Nothing named the
    first time changes. The deck constraint (`vision.deck_limit`) judges names given twice."""
    out = list(first)
    named = [o.corners for o in first if o.name]
    for fresh in second:
        if fresh.name is None:
            continue
        if any(on_one_card(fresh.corners, known, share) for known in named):
            continue
        out = [o for o in out if o.name or not on_one_card(fresh.corners, o.corners, share)]
        out.append(fresh)
        named.append(fresh.corners)
    return out
