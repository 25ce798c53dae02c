"""The plain, frozen view the display draws; values use the table log's notation."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from display.errors import ViewError

if TYPE_CHECKING:
    from display.prompts import Prompt

SEATS = ("N", "E", "S", "W")
TEAMS = ("NS", "EW")
SUITS = ("C", "D", "H", "S")
RANKS = ("9", "T", "J", "Q", "K", "A")
JOKER = "JK"
NAMED_BIDS = ("pass", "ask", "moon")

Bid = int | str
"""A bid as in the log: a number of tricks, "ask", "moon" or "pass"."""


class Phase(StrEnum):
    """What the table is waiting for."""

    BIDDING = "bidding"
    TRUMP = "trump"
    EXCHANGE = "exchange"
    DISCARD = "discard"
    PLAY = "play"
    HAND_END = "hand_end"
    GAME_OVER = "game_over"


class ProblemKind(StrEnum):
    """A situation the table needs a human for."""

    UNREADABLE_CARD = "unreadable_card"
    ALREADY_PLAYED = "already_played"
    OUT_OF_TURN = "out_of_turn"
    DISCONNECTED = "disconnected"
    FAULT = "fault"  # a part of the table itself stopped: `device` says which, `detail` why


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
class TeamPair:
    """One number per team, e.g. scores or tricks won."""

    ns: int = 0
    ew: int = 0

    def __getitem__(self, team: str) -> int:
        return self.ns if check_team(team) == "NS" else self.ew


@dataclass(frozen=True)
class SeatNames:
    """Player names by seat; an empty name shows the seat letter alone."""

    n: str = ""
    e: str = ""
    s: str = ""
    w: str = ""

    def __getitem__(self, seat: str) -> str:
        return {"N": self.n, "E": self.e, "S": self.s, "W": self.w}[check_seat(seat)]

    def label(self, seat: str) -> str:
        """"N" or "N Ann" when a name is configured."""
        name = self[seat]
        return f"{seat} {name}" if name else seat

    def team_label(self, team: str) -> str:
        """"NS" or "NS Ann & Cat" when both names are configured."""
        first, second = check_team(team)[0], team[1]
        if self[first] and self[second]:
            return f"{team} {self[first]} & {self[second]}"
        return team


@dataclass(frozen=True)
class BidMade:
    """A seat's bid or pass."""

    seat: str
    bid: Bid

    def __post_init__(self) -> None:
        check_seat(self.seat)
        check_bid(self.bid)


@dataclass(frozen=True)
class Contract:
    """The winning bid: who, what, trump (None until named) and who sits out."""

    seat: str
    bid: Bid
    trump: str | None = None
    sitting_out: str | None = None
    tricks_in_hand: int = 6

    def __post_init__(self) -> None:
        check_seat(self.seat)
        if check_bid(self.bid) == "pass":
            raise ViewError("a contract's bid cannot be 'pass'")
        if self.trump is not None:
            check_suit(self.trump)
        if self.sitting_out is not None:
            check_seat(self.sitting_out)

    @property
    def team(self) -> str:
        """The bidding team."""
        return team_of(self.seat)

    @property
    def tricks_needed(self) -> int:
        """Tricks the bidding team must take: the number bid, or every trick for ask and moon."""
        return self.bid if isinstance(self.bid, int) else self.tricks_in_hand


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


@dataclass(frozen=True)
class Problem:
    """A problem the table needs a human for; `device` names what is disconnected or failed,
    `detail` what a fault is ("camera stopped: no frames")."""

    kind: ProblemKind
    seat: str | None = None
    card: str | None = None
    device: str | None = None
    detail: str | None = None

    def __post_init__(self) -> None:
        if self.seat is not None:
            check_seat(self.seat)
        if self.card is not None:
            check_card(self.card)
        if self.kind is ProblemKind.DISCONNECTED and not self.device:
            raise ViewError("a disconnected problem must name its device, e.g. 'camera'")
        if self.kind is ProblemKind.FAULT and not (self.device and self.detail):
            raise ViewError("a fault must name its device and say what happened")


@dataclass(frozen=True)
class HandSummary:
    """How a hand ended: tricks taken, renege penalties, points scored and the new score."""

    number: int
    result: str
    contract: Contract | None
    tricks: TeamPair
    penalties: TeamPair
    points: TeamPair
    scores: TeamPair

    @property
    def made(self) -> bool | None:
        """Whether the bidding team made its contract; None without a contract."""
        if self.contract is None:
            return None
        return self.tricks[self.contract.team] >= self.contract.tricks_needed


@dataclass(frozen=True)
class View:
    """Everything the screen shows, as plain values.

    `legal_bids` are the calls the seat to bid may make now (pass included when allowed);
    `prompt` is at most one question for the players (`display.prompts`), shown over the game.
    """

    phase: Phase
    dealer: str
    scores: TeamPair = TeamPair()
    target: int = 32
    names: SeatNames = SeatNames()
    hand_number: int = 1
    turn: str | None = None
    bids: tuple[BidMade, ...] = ()
    contract: Contract | None = None
    trick: Trick | None = None
    last_trick_winner: str | None = None
    tricks_won: TeamPair = TeamPair()
    reneges: tuple[Renege, ...] = ()
    alarm: Renege | None = None
    problems: tuple[Problem, ...] = ()
    hand_end: HandSummary | None = None
    winner: str | None = None
    renege_penalty: int = 2
    legal_bids: tuple[Bid, ...] = ()
    prompt: Prompt | None = None

    def __post_init__(self) -> None:
        check_seat(self.dealer)
        for seat in (self.turn, self.last_trick_winner):
            if seat is not None:
                check_seat(seat)
        if self.winner is not None:
            check_team(self.winner)
        for bid in self.legal_bids:
            check_bid(bid)
        if self.prompt is not None:
            from display.prompts import PROMPT_TYPES

            if not isinstance(self.prompt, PROMPT_TYPES):
                raise ViewError(f"prompt {self.prompt!r} is not a card pick, correction, "
                                "played picker, suspect or misread question")

    @property
    def high_bid(self) -> BidMade | None:
        """The highest bid so far (passes excluded), or None."""
        best: BidMade | None = None
        for made in self.bids:
            if made.bid != "pass" and (best is None or bid_order(made.bid) > bid_order(best.bid)):
                best = made
        return best


def bid_order(bid: Bid) -> int:
    """Sort key of a bid: numbers by value, then ask, then moon; pass lowest."""
    if isinstance(bid, int):
        return bid
    return {"pass": 0, "ask": 100, "moon": 101}[bid]
