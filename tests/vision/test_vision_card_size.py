"""Recognition that knows the card length: sizes taken from the card, not from the view."""

from __future__ import annotations

import numpy as np

from vision.card_size import CARD_ASPECT, known_width
from vision.config import VisionConfig
from vision.finder_corners import typical_width

CARD = 140.0
"""A card's length in a 1080p camera's play-area view."""


def _quad(x: float, y: float, width: float, height: float) -> np.ndarray:
    return np.array([[x, y], [x + width, y], [x + width, y + height], [x, y + height]],
                    np.float32)


def test_the_known_width_is_a_poker_cards_share_of_its_length() -> None:
    assert known_width(VisionConfig()) is None
    assert known_width(VisionConfig(card_length=CARD)) == CARD * 63 / 88


def test_with_no_card_read_the_typical_width_is_the_known_cards_not_a_blobs() -> None:
    card, blob = _quad(100, 100, 100, 140), _quad(400, 400, 420, 300)
    unknown, known = VisionConfig(), VisionConfig(card_length=CARD)
    # Not knowing the card, every unread outline counts: the blob over several cards too.
    assert typical_width([], [card, blob], unknown) == 200
    assert typical_width([], [card, blob], known) == 100
    assert typical_width([], [blob], known) == CARD * CARD_ASPECT
    assert typical_width([], [], unknown) is None
    # A card read tells the width, known length or not.
    read = _quad(0, 0, 90, 126)
    assert typical_width([read], [card, blob], known) == 90
