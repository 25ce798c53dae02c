"""Card notation and typed results."""

from __future__ import annotations

import numpy as np
import pytest

from vision.cards import CardObservation, Rank, Reading, Suit, parse_card
from vision.errors import CardNameError, VisionError


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [("JH", Rank.JACK, Suit.HEARTS), ("TS", Rank.TEN, Suit.SPADES), ("10c", Rank.TEN, Suit.CLUBS),
     ("4D", Rank.FOUR, Suit.DIAMONDS), (" as ", Rank.ACE, Suit.SPADES)],
)
def test_parse_card_reads_notation(text: str, rank: Rank, suit: Suit) -> None:
    assert parse_card(text) == (rank, suit)


@pytest.mark.parametrize("text", ["", "J", "JX", "1H", "JHH", "Unknown"])
def test_parse_card_rejects_bad_names_naming_them(text: str) -> None:
    with pytest.raises(CardNameError, match="not a card name") as caught:
        parse_card(text)
    assert repr(text) in str(caught.value)
    assert isinstance(caught.value, ValueError)
    assert isinstance(caught.value, VisionError)


def test_reading_names_and_euchre_membership() -> None:
    assert Reading(Rank.TEN, Suit.HEARTS, 0.9).name == "TH"
    assert Reading(Rank.NINE, Suit.CLUBS, 0.9).is_euchre
    four = Reading(Rank.FOUR, Suit.SPADES, 0.9)
    assert four.name == "4S"
    assert not four.is_euchre
    assert Suit.DIAMONDS.is_red and not Suit.SPADES.is_red


def test_unreadable_observation_has_no_name() -> None:
    corners = np.zeros((4, 2), np.float32)
    assert CardObservation(corners, None, 0.2).name is None
    read = CardObservation(corners, Reading(Rank.ACE, Suit.SPADES, 0.95), 0.95)
    assert read.name == "AS"
