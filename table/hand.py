"""One hand's record: the auction, the contract, the tricks, the reneges and the points."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum

from table.bids import Bid
from table.cards import Card, Suit, effective_suit, trick_key
from table.seats import SEATS, TEAMS, Seat, Team


class HandResult(StrEnum):
    """How a hand ended, or that it has not."""

    IN_PROGRESS = "in_progress"
    PLAYED = "played"
    REDEAL = "redeal"
    ACE_NO_FACE = "ace_no_face"


@dataclass(frozen=True, slots=True)
class Contract:
    """The winning bid and the trump its bidder named."""

    seat: Seat
    bid: Bid
    trump: Suit

    @property
    def team(self) -> Team:
        """The bidding team."""
        return self.seat.team

    @property
    def sitting_out(self) -> Seat | None:
        """The bidder's partner for `ask` and `moon`, who sits the hand out."""
        return self.seat.partner if self.bid.is_alone else None


@dataclass(frozen=True, slots=True)
class Renege:
    """A proven failure to follow suit, with the card that proves it."""

    seat: Seat
    trick: int
    led: Suit
    card: Card
    proved_by_trick: int
    proved_by_card: Card


@dataclass(frozen=True, slots=True)
class Correction:
    """A misread put right: `seat`'s card in trick `trick` of hand `hand` was `card`, not `was`."""

    hand: int
    trick: int
    seat: Seat
    was: Card
    card: Card


@dataclass(frozen=True, slots=True)
class Play:
    """Where a card lies in the record: its hand, its trick and the seat that played it."""

    hand: int
    trick: int
    seat: Seat
    card: Card


@dataclass(frozen=True, slots=True)
class FailureToFollow:
    """A card that did not follow the suit led; a renege once a later card proves it."""

    seat: Seat
    trick: int
    led: Suit
    card: Card


@dataclass(slots=True)
class Trick:
    """A trick begun in the play: its leader, its cards in order, and its winner when complete."""

    leader: Seat
    cards: list[tuple[Seat, Card]] = field(default_factory=list)
    winner: Seat | None = None

    def led(self, trump: Suit) -> Suit | None:
        """The effective suit led, or None before the lead."""
        return effective_suit(self.cards[0][1], trump) if self.cards else None

    def card_of(self, seat: Seat) -> Card | None:
        """The card `seat` played to this trick, if any."""
        return next((card for who, card in self.cards if who is seat), None)


def winner(trick: Trick, trump: Suit) -> Seat:
    """The seat whose card wins the trick; of two identical cards the first played wins."""
    led = trick.led(trump)
    if led is None:
        raise ValueError("an empty trick has no winner")
    best_seat, best_card = trick.cards[0]
    for seat, card in trick.cards[1:]:
        if trick_key(card, trump, led) > trick_key(best_card, trump, led):
            best_seat, best_card = seat, card
    return best_seat


def follows_suit(card: Card, led: Suit, trump: Suit) -> bool:
    """True when the card is of the effective suit led."""
    return effective_suit(card, trump) is led


@dataclass(slots=True)
class Hand:
    """Everything recorded in one hand."""

    number: int
    dealer: Seat
    bids: list[tuple[Seat, Bid]] = field(default_factory=list)
    discarded: bool = False
    contract: Contract | None = None
    exchanged: bool = False
    tricks: list[Trick] = field(default_factory=list)
    reneges: list[Renege] = field(default_factory=list)
    corrections: list[Correction] = field(default_factory=list)
    failures: list[FailureToFollow] = field(default_factory=list)
    played: Counter[Card] = field(default_factory=Counter)
    result: HandResult = HandResult.IN_PROGRESS
    claimed_by: Seat | None = None
    points: dict[Team, int] = field(default_factory=lambda: dict.fromkeys(TEAMS, 0))
    players: int = len(SEATS)

    @property
    def has_events(self) -> bool:
        """True once anything happened in this hand."""
        return bool(self.bids) or self.discarded or self.result is not HandResult.IN_PROGRESS

    @property
    def bidding_order(self) -> tuple[Seat, ...]:
        """The four seats in bidding order: from the dealer's left, dealer last."""
        return self.dealer.left.clockwise_from()

    @property
    def high_bid(self) -> tuple[Seat, Bid] | None:
        """The highest bid so far and who made it (bids only ever go up)."""
        return next(((seat, bid) for seat, bid in reversed(self.bids) if not bid.is_pass), None)

    @property
    def active_seats(self) -> tuple[Seat, ...]:
        """Seats that play this hand: all four, or three when the bidder's partner sits out."""
        out = self.contract.sitting_out if self.contract else None
        return tuple(seat for seat in SEATS if seat is not out)

    @property
    def current_trick(self) -> Trick | None:
        """The trick being played, or the last one when the hand is over."""
        return self.tricks[-1] if self.tricks else None

    @property
    def tricks_won(self) -> dict[Team, int]:
        """Completed tricks taken by each team."""
        won = dict.fromkeys(TEAMS, 0)
        for trick in self.tricks:
            if trick.winner is not None:
                won[trick.winner.team] += 1
        return won

    @property
    def completed_tricks(self) -> int:
        """How many tricks have all their cards."""
        return sum(1 for trick in self.tricks if trick.winner is not None)

    def plays_of(self, card: Card) -> tuple[Play, ...]:
        """Every copy of `card` played this hand, in the order played."""
        return tuple(
            Play(self.number, number, seat, played)
            for number, trick in enumerate(self.tricks, start=1)
            for seat, played in trick.cards
            if played == card
        )

    def played_at(self, trick: int, seat: Seat) -> Card | None:
        """The card `seat` played in trick `trick` (numbered from 1), if any."""
        if not 1 <= trick <= len(self.tricks):
            return None
        return self.tricks[trick - 1].card_of(seat)

    def where_played(self, card: Card) -> tuple[int, Seat] | None:
        """The trick number and seat of the first copy of `card` played this hand."""
        for number, trick in enumerate(self.tricks, start=1):
            for seat, played in trick.cards:
                if played == card:
                    return number, seat
        return None
