"""What the table tells the players after an input, and the problems left standing."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from table import (
    AceNoFaceClaimed,
    BidMade,
    Card,
    CardCorrected,
    CardPlayed,
    DealerDiscarded,
    Event,
    ExchangeDone,
    Renege,
    Seat,
    TrumpNamed,
    Undone,
)


class NoticeKind(StrEnum):
    """What the table tells the players after an input."""

    ACCEPTED = "accepted"
    REFUSED = "refused"
    HELD = "held"
    UNREADABLE_CARD = "unreadable_card"
    ALREADY_PLAYED = "already_played"
    OUT_OF_TURN = "out_of_turn"
    RENEGE = "renege"
    NEW_GAME = "new_game"
    PROMPT = "prompt"  # the screen asks the players something (a card, a correction)
    ENTRY = "entry"  # a key taken towards a card, a seat or a trick
    FAULT = "fault"  # a part of the table stopped (the journal, a feed thread)
    RECOVERED = "recovered"  # a part of the table that had stopped works again


@dataclass(frozen=True, slots=True)
class Notice:
    """One thing to show or sound: an accepted event, a refusal, a problem, an alarm."""

    kind: NoticeKind
    message: str
    seat: Seat | None = None
    card: Card | None = None
    renege: Renege | None = None


@dataclass(slots=True)
class Problems:
    """Problems standing until someone deals with them, keyed by seat."""

    unreadable_since: dict[Seat, float] = field(default_factory=dict)
    already_played: dict[Seat, Card] = field(default_factory=dict)
    out_of_turn: dict[Seat, Card] = field(default_factory=dict)

    @property
    def unreadable(self) -> set[Seat]:
        """Seats whose zone holds a card the camera cannot read."""
        return set(self.unreadable_since)

    def clear(self, seat: Seat | None = None) -> None:
        """Forget the problems of one seat, or all."""
        if seat is None:
            self.unreadable_since.clear()
            self.already_played.clear()
            self.out_of_turn.clear()
            return
        self.unreadable_since.pop(seat, None)
        self.already_played.pop(seat, None)
        self.out_of_turn.pop(seat, None)

    def __bool__(self) -> bool:
        return bool(self.unreadable_since or self.already_played or self.out_of_turn)


def describe(event: Event) -> str:
    """A short line for an accepted event."""
    match event:
        case BidMade(seat, bid):
            return f"{seat} passes" if bid.is_pass else f"{seat} bids {bid}"
        case TrumpNamed(seat, suit):
            return f"{seat} names trump {suit.symbol}"
        case ExchangeDone(seat):
            return f"{seat}: exchange done"
        case DealerDiscarded(seat):
            return f"{seat} discarded"
        case AceNoFaceClaimed(seat):
            return f"{seat} claims Ace No Face"
        case CardPlayed(seat, card):
            return f"{seat} plays {card}"
        case CardCorrected(hand, trick, seat, card):
            return f"{seat}'s card of trick {trick} (hand {hand}) corrected to {card}"
        case Undone():
            return "undone"
    return type(event).__name__
