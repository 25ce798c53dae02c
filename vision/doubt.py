"""A frame looked at again with the learned finder when the colour masks leave doubt."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.cards import CardObservation, Quad, inside


def in_doubt(observations: Sequence[CardObservation]) -> bool:
    """Whether a frame's recognition leaves something unread: an outline or a corner that is
    present but not named."""
    return any(o.reading is None for o in observations)


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
    first time changes."""
    out = list(first)
    given = {o.name for o in first if o.name}
    named = [o.corners for o in first if o.name]
    for fresh in second:
        if fresh.name is None or fresh.name in given:
            continue
        if any(on_one_card(fresh.corners, known, share) for known in named):
            continue
        out = [o for o in out if o.name or not on_one_card(fresh.corners, o.corners, share)]
        out.append(fresh)
        given.add(fresh.name)
        named.append(fresh.corners)
    return out
