"""Typed events the drivers produce: player inputs and hardware status."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

Seat: TypeAlias = Literal["N", "E", "S", "W"]
Suit: TypeAlias = Literal["C", "D", "H", "S"]
BidValue: TypeAlias = int | Literal["ask", "moon"]

SEATS: tuple[Seat, ...] = ("N", "E", "S", "W")
SUITS: tuple[Suit, ...] = ("C", "D", "H", "S")
MIN_BID = 3
MAX_BID = 12


def check_seat(seat: str | None) -> None:
    """Raise ValueError unless `seat` is one of N, E, S, W or None."""
    if seat is not None and seat not in SEATS:
        raise ValueError(f"unknown seat {seat!r}: expected one of N, E, S, W")


@dataclass(frozen=True)
class PanelKey:
    """Which key lines of the serial panel made an input: the panel's boot id (new at each
    power-up) and the lines' numbers in that boot. A resent key has the same identity."""

    boot: str
    seqs: tuple[int, ...]


@dataclass(frozen=True)
class Acknowledgeable:
    """A player input that may carry `acknowledge`: the table calls it once the input's
    answer is final (committed to the journal, or refused by the rules), never before.
    `key` names the panel key lines it came from, so a resend is answered only once."""

    acknowledge: Callable[[], None] | None = field(
        default=None, kw_only=True, compare=False, repr=False
    )
    key: PanelKey | None = field(default=None, kw_only=True, compare=False, repr=False)


@dataclass(frozen=True)
class BidPressed(Acknowledgeable):
    """A player bids a number of tricks, `ask` or `moon`."""

    seat: Seat | None
    bid: BidValue

    def __post_init__(self) -> None:
        check_seat(self.seat)
        if isinstance(self.bid, bool) or not (
            self.bid in ("ask", "moon")
            or (isinstance(self.bid, int) and MIN_BID <= self.bid <= MAX_BID)
        ):
            raise ValueError(f"unknown bid {self.bid!r}: expected 3..12, 'ask' or 'moon'")


@dataclass(frozen=True)
class PassPressed(Acknowledgeable):
    """A player passes."""

    seat: Seat | None

    def __post_init__(self) -> None:
        check_seat(self.seat)


@dataclass(frozen=True)
class TrumpPressed(Acknowledgeable):
    """The bidder names trump."""

    seat: Seat | None
    suit: Suit

    def __post_init__(self) -> None:
        check_seat(self.seat)
        if self.suit not in SUITS:
            raise ValueError(f"unknown suit {self.suit!r}: expected one of C, D, H, S")


@dataclass(frozen=True)
class ConfirmPressed(Acknowledgeable):
    """OK: confirms what the screen proposes."""

    seat: Seat | None

    def __post_init__(self) -> None:
        check_seat(self.seat)


@dataclass(frozen=True)
class UndoPressed(Acknowledgeable):
    """A short press of UNDO: take back the last event."""

    seat: Seat | None

    def __post_init__(self) -> None:
        check_seat(self.seat)


@dataclass(frozen=True)
class NewGameRequested:
    """UNDO was held long; a new game starts only if OK follows (status, not a game input)."""

    seat: Seat | None

    def __post_init__(self) -> None:
        check_seat(self.seat)


@dataclass(frozen=True)
class NewGameCancelled:
    """A pending new-game request was dropped (timeout or another key)."""

    seat: Seat | None
    reason: str


@dataclass(frozen=True)
class NewGameConfirmed(Acknowledgeable):
    """A new game: UNDO held long, then OK."""

    seat: Seat | None

    def __post_init__(self) -> None:
        check_seat(self.seat)


@dataclass(frozen=True)
class AceNoFaceClaimed(Acknowledgeable):
    """A player claims Ace No Face."""

    seat: Seat | None

    def __post_init__(self) -> None:
        check_seat(self.seat)


@dataclass(frozen=True)
class CardKeyPressed(Acknowledgeable):
    """CARD: the next rank and suit keys name a card by hand (the camera cannot read it)."""

    seat: Seat | None

    def __post_init__(self) -> None:
        check_seat(self.seat)


@dataclass(frozen=True)
class CorrectKeyPressed(Acknowledgeable):
    """CORRECT: the next keys name a played card (seat, trick) and what it really was."""

    seat: Seat | None

    def __post_init__(self) -> None:
        check_seat(self.seat)


@dataclass(frozen=True)
class PanelConnected:
    """The serial panel answered the handshake."""

    port: str
    firmware: str
    protocol: int
    seat: Seat | None


@dataclass(frozen=True)
class PanelDisconnected:
    """The serial panel went away (unplugged, silent, or the port failed)."""

    port: str
    reason: str


@dataclass(frozen=True)
class PanelKeysLost:
    """The panel's queue of unacknowledged keys overflowed: `count` key edges never arrived."""

    port: str
    count: int
    reason: str


@dataclass(frozen=True)
class CameraFailed:
    """A frame source failed to open or read."""

    source: str
    reason: str


@dataclass(frozen=True)
class CameraReopened:
    """A frame source that had failed is delivering frames again."""

    source: str


PlayerInput: TypeAlias = (
    BidPressed
    | PassPressed
    | TrumpPressed
    | ConfirmPressed
    | UndoPressed
    | NewGameConfirmed
    | AceNoFaceClaimed
    | CardKeyPressed
    | CorrectKeyPressed
)
StatusEvent: TypeAlias = (
    NewGameRequested
    | NewGameCancelled
    | PanelConnected
    | PanelDisconnected
    | PanelKeysLost
    | CameraFailed
    | CameraReopened
)
DriverEvent: TypeAlias = PlayerInput | StatusEvent
