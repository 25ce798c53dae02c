"""What the club takes from the broker: each message checked against a strict schema, so only
known fields of known types (bounded in size) ever reach the standings or a page."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    StringConstraints,
    ValidationError,
    model_serializer,
)

from app.web.addresses import public_url

MAX_PAYLOAD = 64 * 1024
TABLE_NAME = re.compile(r"[a-z0-9_-]{1,40}")
Seat = Literal["N", "E", "S", "W"]
TeamName = Literal["NS", "EW"]
Count = Annotated[int, Field(ge=0, le=1_000_000)]
Points = Annotated[int, Field(ge=-1_000_000, le=1_000_000)]
Name = Annotated[str, StringConstraints(max_length=60)]
Word = Annotated[str, StringConstraints(pattern=r"^[a-z_]{1,20}$")]
Suit = Literal["S", "H", "D", "C"]
CardCode = Annotated[str, StringConstraints(pattern=r"^(JK|[9TJQKA][SHDC])$")]
Bid = Count | Word
Stamp = Annotated[str, StringConstraints(max_length=40)]


def _safe_url(value: object) -> str | None:
    """A plain http(s) address as it came; anything else (javascript:, markup, quotes,
    credentials, too long, not text) becomes None, so it is dropped, never shown."""
    if not isinstance(value, str):
        return None
    try:
        return public_url(value)
    except ValueError:
        return None


SafeUrl = Annotated[str | None, BeforeValidator(_safe_url)]


class _Strict(BaseModel):
    """No coercion ("abc" is no number), unknown fields dropped."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)


class Score(_Strict):
    """Both teams' numbers."""

    NS: Points
    EW: Points


class Contract(_Strict):
    """The winning bid."""

    seat: Seat
    bid: Bid
    trump: Suit
    sitting_out: Seat | None = None


class Trick(_Strict):
    """The trick on the table."""

    number: Count
    leader: Seat
    cards: Annotated[list[tuple[Seat, CardCode]], Field(max_length=8)]
    winner: Seat | None = None


class Alarm(_Strict):
    """A renege waiting for the players' answer."""

    seat: Seat
    trick: Count
    led: Suit
    card: CardCode
    proved_by_trick: Count
    proved_by_card: CardCode
    hand: Count


class Problem(_Strict):
    """Something standing at the table."""

    kind: Word
    seat: Seat | None = None
    card: CardCode | None = None
    device: Name | None = None
    reason: Annotated[str, StringConstraints(max_length=200)] | None = None


class TableState(_Strict):
    """A table's live view (`cardtable/<table>/state`)."""

    game: Count | None
    seq: Count
    phase: Word
    target: Points
    score: Score
    winner: TeamName | None = None
    dealer: Seat
    turn: Seat | None = None
    seats: dict[Seat, Name]
    hand: Count
    bids: Annotated[list[tuple[Seat, Bid]], Field(max_length=64)]
    contract: Contract | None = None
    trick: Trick | None = None
    tricks_won: Score
    alarms: Annotated[list[Alarm], Field(max_length=16)] = []
    problems: Annotated[list[Problem], Field(max_length=32)] = []
    url: SafeUrl = None  # the table's page, from its `[web] public_url`

    @model_serializer(mode="wrap")
    def _url_only_when_given(self, plain: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """The state as the table sent it: no `url` key when it gave none (or a dropped one)."""
        data: dict[str, Any] = plain(self)
        if data.get("url") is None:
            data.pop("url", None)
        return data


class GameResult(_Strict):
    """A game's record (`cardtable/<table>/games/<id>`)."""

    id: Count
    started_at: Stamp | None = None
    finished_at: Stamp | None = None
    winner: TeamName | None = None
    score: Score
    hands: Count
    players: dict[Seat, Name] = {}


class BadMessage(ValueError):
    """A broker message the club will not take; the message says what was wrong."""


def checked(model: type[_Strict], payload: bytes) -> dict[str, Any]:
    """The payload as `model` allows it (plain JSON values); BadMessage naming the fault."""
    if len(payload) > MAX_PAYLOAD:
        raise BadMessage(f"{len(payload)} bytes, more than {MAX_PAYLOAD}")
    try:
        return model.model_validate_json(payload).model_dump(mode="json")
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the message"
        raise BadMessage(f"{where}: {first['msg']} ({error.error_count()} problem(s))") from None
    except (ValueError, RecursionError) as error:
        raise BadMessage(f"not JSON: {str(error)[:80]}") from None


def status(payload: bytes) -> str:
    """A table's `status`: online or offline; BadMessage for anything else."""
    text = payload.decode("utf-8", "replace")
    if text not in ("online", "offline"):
        raise BadMessage(f"status {text[:40]!r}: expected online or offline")
    return text
