"""Recognition that knows the card length: sizes taken from the card, not from the view."""

from __future__ import annotations

import numpy as np

from vision.card_size import CARD_ASPECT, beside_known_cards, known_width, longer_than_a_card
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


def test_an_outline_longer_than_one_card_and_a_half_of_the_known_length_is_no_card() -> None:
    known = VisionConfig(card_length=CARD)
    width = CARD * CARD_ASPECT
    assert not longer_than_a_card(_quad(0, 0, width, CARD), known)
    assert not longer_than_a_card(_quad(0, 0, width * 1.4, CARD * 1.4), known)
    assert longer_than_a_card(_quad(0, 0, width * 1.6, CARD * 1.6), known)
    assert longer_than_a_card(_quad(0, 0, CARD * 2, width), known)  # lying across
    # Without a known length no outline is too long.
    assert not longer_than_a_card(_quad(0, 0, width * 3, CARD * 3), VisionConfig())


def test_an_outline_too_long_is_no_card_only_beside_a_card_of_the_known_length() -> None:
    known = VisionConfig(card_length=CARD)
    width = CARD * CARD_ASPECT
    picture = _quad(300, 0, width * 2, CARD * 2)
    card = _quad(0, 0, width, CARD)
    assert beside_known_cards(picture, [card], known)
    assert not beside_known_cards(card, [card], known)
    # The camera came nearer: every card named is as long, none of the known length.
    assert not beside_known_cards(picture, [], known)
    assert not beside_known_cards(picture, [_quad(0, 300, width * 2, CARD * 2)], known)


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
