"""A card's size and shape in a frame: known from its length (`VisionConfig.card_length`), or
judged from an outline."""

from __future__ import annotations

import numpy as np

from vision.cards import NEXT_CORNER, PREVIOUS_CORNER, Quad, side_lengths
from vision.config import VisionConfig

CARD_ASPECT = 63.0 / 88.0
"""A poker-size card's width over its length (63 x 88 mm)."""


def known_width(config: VisionConfig) -> float | None:
    """The card width in frame pixels the caller gave through its length, or None."""
    return config.card_length * CARD_ASPECT if config.card_length else None


def card_shaped(quad: Quad, typical: float | None, config: VisionConfig,
                aspects: tuple[float, float] | None = None) -> bool:
    """Whether an outline is a whole card's: right-angled at every corner (within
    `shape_max_skew`), of a card's aspect (`aspects`, else `card_aspects`), and as wide as the
    cards read whole (within `width_step` of `typical`, when given)."""
    pts = np.asarray(quad, np.float32)
    sides = pts[NEXT_CORNER] - pts
    lengths = side_lengths(sides)
    if lengths.min() < 1.0:
        return False
    units = sides / lengths[:, None]
    cosines = np.abs((units * units[PREVIOUS_CORNER]).sum(axis=1))
    if cosines.max() > np.sin(np.deg2rad(config.shape_max_skew)):
        return False
    short, long = sorted((lengths[0] + lengths[2], lengths[1] + lengths[3]))
    low, high = aspects or config.card_aspects
    if not low <= long / short <= high:
        return False
    return typical is None or abs(short / 2 - typical) <= config.width_step * typical
