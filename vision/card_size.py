"""A card's size and shape in a frame: known from its length (`VisionConfig.card_length`), or
judged from an outline."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.cards import NEXT_CORNER, PREVIOUS_CORNER, Quad, side_lengths
from vision.config import VisionConfig
from vision.deblur_outline import long_side

CARD_ASPECT = 63.0 / 88.0
"""A poker-size card's width over its length (63 x 88 mm)."""


def longer_than_a_card(corners: Quad, config: VisionConfig) -> bool:
    """Whether a whole outline is longer than one card of the known length can be
    (`known_card_longest` card lengths): a box, a tray, a picture, cards outlined together. The
    outline stage does not read it; the searches within it still look for cards there."""
    return bool(config.card_length) and long_side(corners) > (config.known_card_longest
                                                              * float(config.card_length or 0))


def beside_known_cards(corners: Quad, named: Sequence[Quad], config: VisionConfig) -> bool:
    """Whether a whole outline is `longer_than_a_card` while a card of the known length is
    named in the view (`named`: the outlines of the cards named whole): a box or a picture of a
    card beside the table's cards. With none named, the camera may have come nearer: the
    outline may be one card of a new length, and is named as any other."""
    return longer_than_a_card(corners, config) and any(
        not longer_than_a_card(quad, config) for quad in named)


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
