"""The plain, frozen view the display draws; values use the table log's notation."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from display.cards import (
    Bid,
    Renege,
    Trick,
    check_bid,
    check_card,
    check_seat,
    check_suit,
    check_team,
    team_of,
)
from display.errors import ViewError
from display.prompts import PROMPT_TYPES, Prompt


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
        if self.prompt is not None and not isinstance(self.prompt, PROMPT_TYPES):
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
