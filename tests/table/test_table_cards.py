"""Cards: parsing, display, effective suit and trick order with bowers and the joker."""

from __future__ import annotations

import pytest

from table import JOKER, Card, CardParseError, Suit, effective_suit, trick_key
from table.cards import deck, trump_order


@pytest.mark.parametrize(
    ("text", "code", "shown"),
    [
        ("JH", "JH", "J♥"),
        ("TH", "TH", "10♥"),
        ("10H", "TH", "10♥"),
        ("as", "AS", "A♠"),
        (" 9c ", "9C", "9♣"),
        ("QD", "QD", "Q♦"),
        ("JK", "JK", "Joker"),
    ],
)
def test_parse_and_display(text: str, code: str, shown: str) -> None:
    card = Card.parse(text)
    assert card.code == code
    assert str(card) == shown
    assert repr(card) == f"Card.parse({code!r})"
    assert eval(repr(card)) == card


@pytest.mark.parametrize("text", ["8H", "2S", "JX", "1H", "", "H", "QQ", "11C"])
def test_bad_text_raises_naming_it(text: str) -> None:
    with pytest.raises(CardParseError) as caught:
        Card.parse(text)
    assert repr(text) in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_non_text_is_refused() -> None:
    with pytest.raises(CardParseError, match="12"):
        Card.parse(12)


def test_cards_are_frozen_and_hashable() -> None:
    card = Card.parse("JH")
    with pytest.raises(AttributeError):
        card.rank = "Q"  # type: ignore[misc]
    assert {Card.parse("JH"), Card.parse("jh")} == {card}


def test_left_bower_is_trump_and_not_its_printed_suit() -> None:
    assert effective_suit(Card.parse("JD"), Suit.HEARTS) is Suit.HEARTS
    assert effective_suit(Card.parse("JS"), Suit.CLUBS) is Suit.CLUBS
    assert effective_suit(Card.parse("JD"), Suit.SPADES) is Suit.DIAMONDS
    assert effective_suit(Card.parse("JH"), Suit.HEARTS) is Suit.HEARTS
    assert effective_suit(JOKER, Suit.CLUBS) is Suit.CLUBS


def test_trump_order_hearts() -> None:
    order = ["9H", "TH", "QH", "KH", "AH", "JD", "JH", "JK"]
    keys = [trump_order(Card.parse(code), Suit.HEARTS) for code in order]
    assert keys == sorted(keys)
    assert len(set(keys)) == len(keys)


def test_trick_key_trump_beats_led_beats_offsuit() -> None:
    trump, led = Suit.CLUBS, Suit.DIAMONDS
    nine_of_trump = trick_key(Card.parse("9C"), trump, led)
    ace_led = trick_key(Card.parse("AD"), trump, led)
    ace_off = trick_key(Card.parse("AH"), trump, led)
    assert nine_of_trump > ace_led > ace_off


def test_plain_jack_ranks_between_ten_and_queen() -> None:
    trump, led = Suit.SPADES, Suit.DIAMONDS
    keys = [trick_key(Card.parse(code), trump, led) for code in ("TD", "JD", "QD")]
    assert keys == sorted(keys)


def test_deck_sizes() -> None:
    assert len(deck()) == 24
    assert len(set(deck())) == 24
    assert len(deck(joker=True)) == 25
    assert JOKER in deck(joker=True)


def test_suit_parse_accepts_symbols() -> None:
    assert Suit.parse("♥") is Suit.HEARTS
    assert Suit.parse("s") is Suit.SPADES
    with pytest.raises(CardParseError):
        Suit.parse("X")
