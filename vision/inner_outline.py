"""A named outline lying inside a card's outline, and much smaller than it, is no card."""

from __future__ import annotations

from dataclasses import replace
from statistics import median

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
    whole = {k: o.corners.astype(np.float32) for k, o in enumerate(observations) if o.whole}
    areas = {k: float(cv2.contourArea(quad)) for k, quad in whole.items()}
    named = [k for k in whole if observations[k].name is not None]
    out = list(observations)
    if len(named) < 2:
        return out
    sides = {k: (long_side(quad), short_side(quad)) for k, quad in whole.items()}
    for k in named:
        # Only an outline at least this much larger can hold it (cards of one size seldom do).
        larger = [j for j in whole if j != k and 0.0 < areas[k] <= most_area * areas[j]]
        if not larger:
            continue
        others = [j for j in named if j != k]
        length = median(sides[j][0] for j in others)
        width = median(sides[j][1] for j in others)
        if any(_near(sides[j][0], length) and _near(sides[j][1], width)
               and _inside(whole[k], areas[k], whole[j]) for j in larger):
            out[k] = replace(observations[k], reading=None, confidence=0.0)
    return out


def _near(size: float, typical: float) -> bool:
    """Whether a side's length is within `CARD_SIZE_BAND` of the typical card's either way."""
    return typical / CARD_SIZE_BAND <= size <= typical * CARD_SIZE_BAND


def _inside(quad: Quad, area: float, outer: Quad) -> bool:
    """Whether `quad` (of `area`) lies inside `outer`: `WITHIN_SHARE` of its area does."""
    shared, _ = cv2.intersectConvexConvex(quad, outer)
    return float(shared) >= WITHIN_SHARE * area
