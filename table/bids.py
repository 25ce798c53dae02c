"""Bids: a pass, a number of tricks, `ask` (six with help) or `moon` (six alone)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from table.errors import TableError, shown
from table.rules import Rules


class BidError(TableError, ValueError):
    """A value is not a bid."""


class BidKind(StrEnum):
    """What sort of call a bid is."""

    PASS = "pass"
    TRICKS = "tricks"
    ASK = "ask"
    MOON = "moon"


MINIMUM_BID = 3
MAXIMUM_BID = 12  # the highest plain bid of any rules: 12 with the double deck
_WORDS = ("pass", "ask", "moon")


@dataclass(frozen=True, slots=True)
class Bid:
    """One call in the auction; `tricks` is set only for a plain bid."""

    kind: BidKind
    tricks: int = 0

    @classmethod
    def parse(cls, value: object) -> Bid:
        """A bid as a person may type it: `4`, `"4"`, `" Pass "`, `"MOON"`; raises BidError."""
        if isinstance(value, str):
            text = value.strip().lower()
            if text.isascii() and text.isdigit() and len(text) <= len(str(MAXIMUM_BID)):
                return cls.from_log(int(text))
            if text in _WORDS:
                return cls.from_log(text)
        return cls.from_log(value)

    @classmethod
    def from_log(cls, value: object) -> Bid:
        """A bid in the log notation: a whole number `3`..`12`, `"ask"`, `"moon"` or `"pass"`."""
        if isinstance(value, int) and not isinstance(value, bool):
            if value < MINIMUM_BID:
                raise BidError(f"bid {shown(value)} is below the minimum bid of {MINIMUM_BID}")
            if value > MAXIMUM_BID:
                raise BidError(
                    f"bid {shown(value)} is above {MAXIMUM_BID}, the highest bid of any rules"
                )
            return cls(BidKind.TRICKS, value)
        if isinstance(value, str) and value in _WORDS:
            return cls(BidKind(value))
        raise BidError(f'{shown(value)} is not a bid (a number of tricks, "ask", "moon" or "pass")')

    @property
    def is_valid(self) -> bool:
        """True for a bid of the notation: a pass, ask, moon, or 3..12 tricks."""
        if type(self.kind) is not BidKind or type(self.tricks) is not int:
            return False
        if self.kind is BidKind.TRICKS:
            return MINIMUM_BID <= self.tricks <= MAXIMUM_BID
        return self.tricks == 0

    @property
    def is_pass(self) -> bool:
        """True for a pass."""
        return self.kind is BidKind.PASS

    @property
    def is_alone(self) -> bool:
        """True when the bidder's partner sits out (`ask` and `moon`)."""
        return self.kind in (BidKind.ASK, BidKind.MOON)

    @property
    def log_value(self) -> int | str:
        """The bid as the log writes it: a number or a word."""
        return self.tricks if self.kind is BidKind.TRICKS else self.kind.value

    def height(self, rules: Rules) -> int:
        """Where the bid stands in the auction order: 3 < ... < top plain bid < ask < moon."""
        top = rules.tricks_per_hand
        return {
            BidKind.PASS: 0,
            BidKind.TRICKS: self.tricks,
            BidKind.ASK: top + 1,
            BidKind.MOON: top + 2,
        }[self.kind]

    def tricks_needed(self, rules: Rules) -> int:
        """Tricks the bidding team must take to make it."""
        return self.tricks if self.kind is BidKind.TRICKS else rules.tricks_per_hand

    def made_points(self, rules: Rules, tricks_taken: int) -> int:
        """What the bidding team scores when it makes the bid."""
        if self.kind is BidKind.ASK:
            return rules.lone_value
        if self.kind is BidKind.MOON:
            return 2 * rules.lone_value
        return tricks_taken

    def set_points(self, rules: Rules) -> int:
        """What the bidding team loses when it is set (a positive number)."""
        if self.kind is BidKind.TRICKS or rules.set_penalty == "tricks":
            return self.tricks_needed(rules)
        return self.made_points(rules, rules.tricks_per_hand)

    def __str__(self) -> str:
        return str(self.log_value)


PASS = Bid(BidKind.PASS)
ASK = Bid(BidKind.ASK)
MOON = Bid(BidKind.MOON)


def all_bids(rules: Rules) -> tuple[Bid, ...]:
    """Every bid the rules allow, low to high (passes excluded)."""
    plain_top = rules.tricks_per_hand if rules.plain_six else rules.tricks_per_hand - 1
    plain = tuple(Bid(BidKind.TRICKS, n) for n in range(MINIMUM_BID, plain_top + 1))
    return (*plain, ASK, MOON)
