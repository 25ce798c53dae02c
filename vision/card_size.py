"""A card's size in a frame when the caller knows its length (`VisionConfig.card_length`)."""

from __future__ import annotations

from vision.config import VisionConfig

CARD_ASPECT = 63.0 / 88.0
"""A poker-size card's width over its length (63 x 88 mm)."""


def known_width(config: VisionConfig) -> float | None:
    """The card width in frame pixels the caller gave through its length, or None."""
    return config.card_length * CARD_ASPECT if config.card_length else None
