"""A named outline lying inside a card's outline, and much smaller than it, is no card."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision.cards import CardObservation, Quad
from vision.deblur_outline import long_side, short_side

CARD_SIZE_BAND = 1.25
"""An outline is of the frame's card size when its long and its short side are each within
this factor either way of the median of the frame's other named whole cards (an outline
around two overlapping cards may be as long as a card, never as narrow)."""
WITHIN_SHARE = 0.9
"""An outline lies inside another when this share of its area does."""


def inner_unnamed(observations: list[CardObservation], most_area: float
                  ) -> list[CardObservation]:
    """The observations with the name of every whole outline withdrawn that lies inside
    another whole outline of the frame's card size (`CARD_SIZE_BAND`) and covers at most
    `most_area` of it: the cards of one deck are of one size, so no card lies within another
    card's outline; such an outline is the other card's print, such as a court's picture
    frame. Without other named cards to give the size, nothing is withdrawn (a card may lie on
    a box or a mat of a card's shape)."""
    whole = [(k, o.corners.astype(np.float32)) for k, o in enumerate(observations) if o.whole]
    named = [(k, quad) for k, quad in whole if observations[k].name is not None]
    out = list(observations)
    for k, quad in named:
        others = [other for j, other in named if j != k]
        if not others:
            continue
        length = float(np.median([long_side(other) for other in others]))
        width = float(np.median([short_side(other) for other in others]))
        area = float(cv2.contourArea(quad))
        if any(j != k and _inside(quad, area, outer, most_area)
               and _near(long_side(outer), length) and _near(short_side(outer), width)
               for j, outer in whole):
            out[k] = replace(observations[k], reading=None, confidence=0.0)
    return out


def _near(size: float, typical: float) -> bool:
    """Whether a side's length is within `CARD_SIZE_BAND` of the typical card's either way."""
    return typical / CARD_SIZE_BAND <= size <= typical * CARD_SIZE_BAND


def _inside(quad: Quad, area: float, outer: Quad, most_area: float) -> bool:
    """Whether `quad` (of `area`) lies inside `outer` and covers at most `most_area` of it."""
    outer_area = float(cv2.contourArea(outer))
    if area <= 0.0 or area > most_area * outer_area:
        return False
    shared, _ = cv2.intersectConvexConvex(quad, outer)
    return float(shared) >= WITHIN_SHARE * area
