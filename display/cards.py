"""Seats, teams, suits, cards and bids in the table log's notation, with their checks, and
the tricks and reneges made of them."""

from __future__ import annotations

from dataclasses import dataclass

from display.errors import ViewError

SEATS = ("N", "E", "S", "W")
TEAMS = ("NS", "EW")
SUITS = ("C", "D", "H", "S")
RANKS = ("9", "T", "J", "Q", "K", "A")
JOKER = "JK"
NAMED_BIDS = ("pass", "ask", "moon")

Bid = int | str
"""A bid as in the log: a number of tricks, "ask", "moon" or "pass"."""


def check_seat(seat: str) -> str:
    """Return `seat` if it is one of N, E, S, W; raise ViewError otherwise."""
    if seat not in SEATS:
        raise ViewError(f"seat {seat!r} is not one of N, E, S, W")
    return seat


def check_team(team: str) -> str:
    """Return `team` if it is NS or EW; raise ViewError otherwise."""
    if team not in TEAMS:
        raise ViewError(f"team {team!r} is not NS or EW")
    return team


def check_suit(suit: str) -> str:
    """Return `suit` if it is one of C, D, H, S; raise ViewError otherwise."""
    if suit not in SUITS:
        raise ViewError(f"suit {suit!r} is not one of C, D, H, S")
    return suit


def check_card(card: str) -> str:
    """Return `card` if it is a card code such as "JH", "TH" or "JK"; raise ViewError otherwise."""
    if card == JOKER or (len(card) == 2 and card[0] in RANKS and card[1] in SUITS):
        return card
    raise ViewError(f"card {card!r} is not a card code such as 'JH', 'TH' or 'JK'")


def check_bid(bid: Bid) -> Bid:
    """Return `bid` if it is a number of tricks, "ask", "moon" or "pass"; raise ViewError."""
    if isinstance(bid, bool) or not isinstance(bid, int | str):
        raise ViewError(f"bid {bid!r} is not a number of tricks, 'ask', 'moon' or 'pass'")
    if isinstance(bid, int):
        if not 1 <= bid <= 12:
            raise ViewError(f"bid {bid!r} is not a number of tricks from 1 to 12")
        return bid
    if bid not in NAMED_BIDS:
        raise ViewError(f"bid {bid!r} is not a number of tricks, 'ask', 'moon' or 'pass'")
    return bid


def partner_of(seat: str) -> str:
    """The seat opposite `seat`."""
    return SEATS[(SEATS.index(check_seat(seat)) + 2) % 4]


def next_seat(seat: str) -> str:
    """The seat to the left of `seat` (clockwise), who deals or bids next."""
    return SEATS[(SEATS.index(check_seat(seat)) + 1) % 4]


def team_of(seat: str) -> str:
    """The team `seat` plays for."""
    return "NS" if check_seat(seat) in ("N", "S") else "EW"


@dataclass(frozen=True)
class Trick:
    """A trick: its leader, the cards played so far as (seat, card) and its winner once complete."""

    number: int
    leader: str
    cards: tuple[tuple[str, str], ...] = ()
    winner: str | None = None

    def __post_init__(self) -> None:
        check_seat(self.leader)
        for seat, card in self.cards:
            check_seat(seat)
            check_card(card)
        if self.winner is not None:
            check_seat(self.winner)

    def card_of(self, seat: str) -> str | None:
        """The card `seat` played to this trick, if any."""
        return next((card for played_by, card in self.cards if played_by == seat), None)


@dataclass(frozen=True)
class Renege:
    """A proven renege: `seat` failed to follow `led` in trick `trick`, proved later."""

    seat: str
    trick: int
    led: str
    card: str
    proved_by_trick: int
    proved_by_card: str

    def __post_init__(self) -> None:
        check_seat(self.seat)
        check_suit(self.led)
        check_card(self.card)
        check_card(self.proved_by_card)
