"""Seats around the table and the two partnerships."""

from __future__ import annotations

from enum import StrEnum

from table.errors import TableError, shown


class SeatError(TableError, ValueError):
    """A text is not one of the seats N, E, S, W."""


class Team(StrEnum):
    """A partnership: partners sit opposite."""

    NS = "NS"
    EW = "EW"

    @property
    def other(self) -> Team:
        """The opposing team."""
        return Team.EW if self is Team.NS else Team.NS


class Seat(StrEnum):
    """A seat, in clockwise order N, E, S, W."""

    N = "N"
    E = "E"
    S = "S"
    W = "W"

    @classmethod
    def parse(cls, text: object) -> Seat:
        """The seat named by `text` (`"N"`, `"E"`, `"S"` or `"W"`)."""
        if isinstance(text, str):
            try:
                return _BY_LETTER.get(text) or cls(text.strip().upper())
            except ValueError:
                pass
        raise SeatError(f"{shown(text)} is not a seat (N, E, S or W)")

    @classmethod
    def from_log(cls, value: object) -> Seat:
        """The seat in the log notation: exactly `"N"`, `"E"`, `"S"` or `"W"`."""
        if isinstance(value, str) and value in _BY_LETTER:
            return _BY_LETTER[value]
        raise SeatError(f'{shown(value)} is not a seat ("N", "E", "S" or "W")')

    @property
    def left(self) -> Seat:
        """The next seat clockwise: the player to this seat's left."""
        return SEATS[(SEATS.index(self) + 1) % len(SEATS)]

    @property
    def partner(self) -> Seat:
        """The seat opposite."""
        return SEATS[(SEATS.index(self) + 2) % len(SEATS)]

    @property
    def team(self) -> Team:
        """The partnership this seat belongs to."""
        return Team.NS if self in (Seat.N, Seat.S) else Team.EW

    def clockwise_from(self) -> tuple[Seat, ...]:
        """All four seats, starting with this one, clockwise."""
        start = SEATS.index(self)
        return SEATS[start:] + SEATS[:start]


SEATS: tuple[Seat, ...] = (Seat.N, Seat.E, Seat.S, Seat.W)
_BY_LETTER: dict[str, Seat] = {seat.value: seat for seat in SEATS}
TEAMS: tuple[Team, ...] = (Team.NS, Team.EW)
