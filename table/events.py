"""Events of the table log (TABLE_LOG.md) as frozen values, and their JSON form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from table.bids import Bid, BidError
from table.cards import Card, Suit
from table.errors import CardParseError, InvalidEvent, RulesError
from table.rules import Rules
from table.seats import Seat, SeatError


@dataclass(frozen=True, slots=True)
class GameStarted:
    """A new game: the first dealer and the house rules."""

    dealer: Seat = Seat.N
    rules: Rules = field(default_factory=Rules)


@dataclass(frozen=True, slots=True)
class BidMade:
    """A seat bid or passed."""

    seat: Seat
    bid: Bid


@dataclass(frozen=True, slots=True)
class TrumpNamed:
    """The winning bidder named trump."""

    seat: Seat
    suit: Suit


@dataclass(frozen=True, slots=True)
class ExchangeDone:
    """The `ask` exchange between the bidder (`seat`) and their partner is done."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class DealerDiscarded:
    """Joker variant: the dealer discarded their seventh card."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class AceNoFaceClaimed:
    """A player claimed Ace No Face; the hand is thrown in."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """A card was played to the current trick."""

    seat: Seat
    card: Card


@dataclass(frozen=True, slots=True)
class CardCorrected:
    """The card `seat` played in trick `trick` of hand `hand` was in fact `card`."""

    hand: int
    trick: int
    seat: Seat
    card: Card


@dataclass(frozen=True, slots=True)
class Undone:
    """The most recent event not yet taken back is taken back."""


Event = (
    GameStarted
    | BidMade
    | TrumpNamed
    | ExchangeDone
    | DealerDiscarded
    | AceNoFaceClaimed
    | CardPlayed
    | CardCorrected
    | Undone
)


def event_from_json(data: object) -> Event:
    """Build an event from one parsed log line; raises InvalidEvent naming what is wrong."""
    if not isinstance(data, Mapping):
        raise InvalidEvent(f"an event must be a JSON object, not {data!r}")
    kind = data.get("type")
    try:
        if kind == "game":
            return GameStarted(_seat(data, "dealer"), Rules.from_mapping(data.get("rules", {})))
        if kind == "bid":
            return BidMade(_seat(data), Bid.parse(_field(data, "bid")))
        if kind == "trump":
            return TrumpNamed(_seat(data), Suit.parse(_field(data, "suit")))
        if kind == "exchange":
            return ExchangeDone(_seat(data))
        if kind == "discard":
            return DealerDiscarded(_seat(data))
        if kind == "ace_no_face":
            return AceNoFaceClaimed(_seat(data))
        if kind == "card":
            return CardPlayed(_seat(data), _card(data))
        if kind == "correct":
            return CardCorrected(
                _number(data, "hand"), _number(data, "trick"), _seat(data), _card(data)
            )
        if kind == "undo":
            return Undone()
    except (BidError, CardParseError, RulesError, SeatError) as error:
        raise InvalidEvent(str(error)) from error
    if kind is None:
        raise InvalidEvent("the event has no 'type'")
    raise InvalidEvent(f"unknown event type {kind!r}")


def event_to_json(event: Event) -> dict[str, Any]:
    """The log form of an event, as TABLE_LOG.md writes it."""
    match event:
        case GameStarted(dealer, rules):
            return {"type": "game", "dealer": dealer.value, "rules": rules.to_mapping()}
        case BidMade(seat, bid):
            return {"type": "bid", "seat": seat.value, "bid": bid.log_value}
        case TrumpNamed(seat, suit):
            return {"type": "trump", "seat": seat.value, "suit": suit.value}
        case ExchangeDone(seat):
            return {"type": "exchange", "seat": seat.value}
        case DealerDiscarded(seat):
            return {"type": "discard", "seat": seat.value}
        case AceNoFaceClaimed(seat):
            return {"type": "ace_no_face", "seat": seat.value}
        case CardPlayed(seat, card):
            return {"type": "card", "seat": seat.value, "card": card.code}
        case CardCorrected(hand, trick, seat, card):
            return {
                "type": "correct",
                "hand": hand,
                "trick": trick,
                "seat": seat.value,
                "card": card.code,
            }
        case Undone():
            return {"type": "undo"}
    raise TypeError(f"not an event: {event!r}")


def _field(data: Mapping[str, Any], name: str) -> Any:
    if name not in data:
        raise InvalidEvent(f"a {data.get('type')!r} event needs a {name!r}")
    return data[name]


def _seat(data: Mapping[str, Any], name: str = "seat") -> Seat:
    return Seat.parse(_field(data, name))


def _card(data: Mapping[str, Any]) -> Card:
    return Card.parse(_field(data, "card"))


def _number(data: Mapping[str, Any], name: str) -> int:
    value = _field(data, name)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise InvalidEvent(f"{name!r} must be a whole number from 1, not {value!r}")
    return value
