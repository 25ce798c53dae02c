"""Naming cards, seats and tricks with the panel keys' second labels (hardware/README.md)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from drivers.keys import JOKER_KEY, RANK_KEYS, SEAT_KEYS, SUIT_KEYS, TRICK_KEYS, TRICK_SHIFT_KEY
from table import JOKER, Card, Seat

RANK_NAMES = {"9": "9", "T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}


class Stage(StrEnum):
    """What the keys name next."""

    NONE = "none"  # nothing keyed in: keys mean what their main label says
    CARD = "card"  # after CARD: a rank key, then a suit key
    SEAT = "seat"  # after CORRECT: the seat of the card to correct
    TRICK = "trick"  # then its trick


@dataclass(frozen=True, slots=True)
class Keyed:
    """A key taken by the entry: `message` says what it did; `card`, `seat` or `trick` when
    the entry of one is complete."""

    message: str
    card: Card | None = None
    seat: Seat | None = None
    trick: int | None = None


@dataclass(slots=True)
class KeyEntry:
    """The keys pressed so far towards a card, a seat or a trick."""

    stage: Stage = Stage.NONE
    rank: str | None = None
    shift: bool = False

    @property
    def partial(self) -> bool:
        """Whether something has been keyed that a further key must complete."""
        return self.stage is not Stage.NONE or self.rank is not None or self.shift

    def clear(self) -> None:
        """Drop whatever was keyed."""
        self.stage, self.rank, self.shift = Stage.NONE, None, False

    def card_key(self, key: str, joker: bool) -> Keyed | None:
        """A key towards a card: rank then suit, or the joker key; None if it names no card."""
        if key in RANK_KEYS:
            self.rank = RANK_KEYS[key]
            return Keyed(f"{RANK_NAMES[self.rank]}: now the suit")
        if key in SUIT_KEYS and self.rank is not None:
            card = Card.parse(self.rank + SUIT_KEYS[key])
            self.clear()
            return Keyed(f"{card} named", card=card)
        if key == JOKER_KEY and self.rank is None:
            self.clear()
            if not joker:
                return Keyed("the joker is not in this deck")
            return Keyed("joker named", card=JOKER)
        return None

    def seat_key(self, key: str) -> Keyed | None:
        """A key towards a seat (3 4 5 6 = N E S W); None if it names none."""
        if key not in SEAT_KEYS:
            return None
        seat = Seat(SEAT_KEYS[key])
        self.stage = Stage.TRICK
        return Keyed(f"seat {seat}: now the trick", seat=seat)

    def trick_key(self, key: str) -> Keyed | None:
        """A key towards a trick (3 4 5 6 ASK MOON = 1 to 6; PASS first adds 6)."""
        if key == TRICK_SHIFT_KEY and not self.shift:
            self.shift = True
            return Keyed("tricks 7 to 12: now the trick key")
        if key not in TRICK_KEYS:
            return None
        trick = TRICK_KEYS[key] + (6 if self.shift else 0)
        self.clear()
        return Keyed(f"trick {trick}", trick=trick)
