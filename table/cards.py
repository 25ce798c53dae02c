"""Cards as small frozen values, and how trump ranks them (bowers and the joker)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from table.errors import CardParseError


class Suit(StrEnum):
    """A suit; the value is its letter in the log notation."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @classmethod
    def parse(cls, text: object) -> Suit:
        """The suit named by a letter (`"H"`) or a symbol (`"♥"`)."""
        if isinstance(text, str):
            key = text.strip().upper()
            for suit in cls:
                if key in (suit.value, suit.symbol, suit.name):
                    return suit
        raise CardParseError(text, "expected C, D, H or S", what="a suit")

    @classmethod
    def from_log(cls, value: object) -> Suit:
        """The suit in the log notation: exactly `"C"`, `"D"`, `"H"` or `"S"`."""
        if isinstance(value, str) and value in _BY_LETTER:
            return _BY_LETTER[value]
        raise CardParseError(value, 'expected "C", "D", "H" or "S"', what="a suit")

    @property
    def symbol(self) -> str:
        """The suit's symbol: ♣ ♦ ♥ ♠."""
        return _SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        """True for diamonds and hearts."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @property
    def same_colour(self) -> Suit:
        """The other suit of the same colour: its jack is the left bower when this suit is trump."""
        return _SAME_COLOUR[self]


_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SAME_COLOUR = {
    Suit.CLUBS: Suit.SPADES,
    Suit.SPADES: Suit.CLUBS,
    Suit.DIAMONDS: Suit.HEARTS,
    Suit.HEARTS: Suit.DIAMONDS,
}
SUITS: tuple[Suit, ...] = tuple(Suit)
_BY_LETTER: dict[str, Suit] = {suit.value: suit for suit in SUITS}

# Plain ranks, low to high; `T` is the ten.
RANKS: tuple[str, ...] = ("9", "T", "J", "Q", "K", "A")
JOKER_CODE = "JK"
_RANK_NAMES = {"9": "9", "T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}
_NON_EUCHRE_RANKS = ("2", "3", "4", "5", "6", "7", "8")


@dataclass(frozen=True, slots=True)
class Card:
    """A card: a rank of RANKS and a suit, or the joker (rank `"JK"`, suit None)."""

    rank: str
    suit: Suit | None

    @classmethod
    def parse(cls, text: object) -> Card:
        """Parse `JH`, `TH`, `10H`, `jh` or `JK`; raises CardParseError naming the text."""
        known = _BY_CODE.get(text) if isinstance(text, str) else None
        if known is not None:
            return known
        if not isinstance(text, str):
            raise CardParseError(text, "expected text such as 'JH'")
        code = text.strip().upper()
        if code == JOKER_CODE:
            return JOKER
        if len(code) < 2:
            raise CardParseError(text, "expected RANK + SUIT such as 'JH'")
        rank, suit_text = code[:-1], code[-1]
        if rank == "10":
            rank = "T"
        if suit_text not in {suit.value for suit in SUITS}:
            raise CardParseError(text, f"unknown suit {suit_text!r} (C, D, H or S)")
        suit = Suit(suit_text)
        if rank in _NON_EUCHRE_RANKS:
            raise CardParseError(text, f"rank {rank} is not in the Bid Euchre deck (9 to A)")
        if rank not in RANKS:
            raise CardParseError(text, f"unknown rank {rank!r} (9, T or 10, J, Q, K, A)")
        return cls(rank, suit)

    @classmethod
    def from_log(cls, value: object) -> Card:
        """A card in the log notation: `JH`, `TH` (or `10H`), `JK`; nothing else, no spaces."""
        if isinstance(value, str):
            code = "T" + value[2:] if len(value) == 3 and value.startswith("10") else value
            known = _BY_CODE.get(code)
            if known is not None:
                return known
        raise CardParseError(value, "expected RANK + SUIT in capitals, such as 'JH', 'TH' or 'JK'")

    @property
    def is_valid(self) -> bool:
        """True for a card of the notation (a rank of RANKS and a Suit, or the joker)."""
        if self.suit is None:
            return self.rank == JOKER_CODE
        return type(self.suit) is Suit and _BY_CODE.get(f"{self.rank}{self.suit.value}") == self

    @property
    def is_joker(self) -> bool:
        """True for the joker."""
        return self.suit is None

    @property
    def code(self) -> str:
        """The card in log notation: `JH`, `TH`, `JK`."""
        return JOKER_CODE if self.suit is None else self.rank + self.suit.value

    def __str__(self) -> str:
        if self.suit is None:
            return "Joker"
        return _RANK_NAMES[self.rank] + self.suit.symbol

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


JOKER = Card(JOKER_CODE, None)
_BY_CODE: dict[str, Card] = {JOKER_CODE: JOKER}
_BY_CODE.update({rank + suit.value: Card(rank, suit) for suit in SUITS for rank in RANKS})


def is_right_bower(card: Card, trump: Suit) -> bool:
    """True for the jack of trump."""
    return card.rank == "J" and card.suit is trump


def is_left_bower(card: Card, trump: Suit) -> bool:
    """True for the jack of the other suit of trump's colour."""
    return card.rank == "J" and card.suit is trump.same_colour


def effective_suit(card: Card, trump: Suit) -> Suit:
    """The suit a card counts as for this hand: the left bower and the joker are trump."""
    if card.suit is None or is_left_bower(card, trump):
        return trump
    return card.suit


# Trump order above the plain ranks: left bower, right bower, joker.
_LEFT_BOWER_ORDER = len(RANKS)
_RIGHT_BOWER_ORDER = len(RANKS) + 1
_JOKER_ORDER = len(RANKS) + 2


def trump_order(card: Card, trump: Suit) -> int:
    """The card's height among trumps (9 lowest, then 10 Q K A, left, right, joker)."""
    if card.is_joker:
        return _JOKER_ORDER
    if is_right_bower(card, trump):
        return _RIGHT_BOWER_ORDER
    if is_left_bower(card, trump):
        return _LEFT_BOWER_ORDER
    return RANKS.index(card.rank)


def trick_key(card: Card, trump: Suit, led: Suit) -> tuple[int, int]:
    """Ordering key within a trick: any trump beats the led suit, which beats any other card."""
    suit = effective_suit(card, trump)
    if suit is trump:
        return (2, trump_order(card, trump))
    if suit is led:
        return (1, RANKS.index(card.rank))
    return (0, 0)


def deck(joker: bool = False) -> tuple[Card, ...]:
    """One copy of the Bid Euchre deck: 24 cards, plus the joker if asked."""
    cards = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)
    return (*cards, JOKER) if joker else cards
