"""Recognition that knows the card length: sizes taken from the card, not from the view."""

from __future__ import annotations

import numpy as np

from vision.card_size import CARD_ASPECT, known_width
from vision.config import VisionConfig
from vision.pipeline import typical_width

VIEW = 1080
"""A 1080p camera's play-area view, in which a card is about 140 px long."""
CARD = 140.0


def _quad(x: float, y: float, width: float, height: float) -> np.ndarray:
    return np.array([[x, y], [x + width, y], [x + width, y + height], [x, y + height]],
                    np.float32)


def test_the_known_width_is_a_poker_cards_share_of_its_length() -> None:
    assert known_width(VisionConfig()) is None
    assert known_width(VisionConfig(card_length=CARD)) == CARD * 63 / 88


def test_with_no_card_read_the_typical_width_is_the_known_cards_not_a_blobs() -> None:
    card, blob = _quad(100, 100, 100, 140), _quad(400, 400, 420, 300)
    unknown, known = VisionConfig(), VisionConfig(card_length=CARD)
    # From the view's size alone a card 100 px wide is too narrow for a 1080 px view (under
    # 0.12 of it): only the blob over several cards counts.
    assert typical_width([], [card, blob], VIEW, unknown) == 300
    assert typical_width([], [card, blob], VIEW, known) == 100
    assert typical_width([], [blob], VIEW, known) == CARD * CARD_ASPECT
    assert typical_width([], [], VIEW, unknown) is None
    # A card read tells the width, known length or not.
    read = _quad(0, 0, 90, 126)
    assert typical_width([read], [card, blob], VIEW, known) == 90
