"""Events of the table log (TABLE_LOG.md) as frozen values, and their JSON form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from table.bids import Bid, BidError
from table.cards import Card, Suit
from table.errors import CardParseError, InvalidEvent, RulesError, shown
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


EVENT_TYPES: tuple[type, ...] = (
    GameStarted,
    BidMade,
    TrumpNamed,
    ExchangeDone,
    DealerDiscarded,
    AceNoFaceClaimed,
    CardPlayed,
    CardCorrected,
    Undone,
)


def event_from_json(data: object) -> Event:
    """Build an event from one parsed log line, strictly as TABLE_LOG.md writes it.

    Raises InvalidEvent naming what is wrong: seats, suits, cards and bids must be written
    exactly as the notation has them (`"N"`, `"H"`, `"JH"`, `4`, `"pass"`).
    """
    if not isinstance(data, Mapping):
        raise InvalidEvent(f"an event must be a JSON object, not {shown(data)}")
    kind = data.get("type")
    try:
        if kind == "game":
            return GameStarted(_seat(data, "dealer"), _rules(data))
        if kind == "bid":
            return BidMade(_seat(data), Bid.from_log(_field(data, "bid")))
        if kind == "trump":
            return TrumpNamed(_seat(data), Suit.from_log(_field(data, "suit")))
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
    raise InvalidEvent(f"unknown event type {shown(kind)}")


def check_event(event: object) -> Event:
    """The event itself when it is a well-formed event value; else InvalidEvent (malformed)."""
    if type(event) not in EVENT_TYPES:
        raise InvalidEvent(f"not an event: {shown(event)}")
    problem = _problem(event)
    if problem:
        raise InvalidEvent(f"a malformed {type(event).__name__}: {problem}")
    return event  # type: ignore[return-value]


def _problem(event: object) -> str | None:
    """What is wrong with an event value's fields, or None."""
    seat = getattr(event, "seat", Seat.N)
    if type(seat) is not Seat:
        return f"the seat is {shown(seat)}, not a Seat"
    match event:
        case GameStarted(dealer, rules):
            if type(dealer) is not Seat:
                return f"the dealer is {shown(dealer)}, not a Seat"
            if not isinstance(rules, Rules):
                return f"the rules are {shown(rules)}, not Rules"
        case BidMade(_, bid):
            if not isinstance(bid, Bid) or not bid.is_valid:
                return f"{shown(bid)} is not a valid Bid"
        case TrumpNamed(_, suit):
            if type(suit) is not Suit:
                return f"the suit is {shown(suit)}, not a Suit"
        case CardPlayed(_, card):
            return _card_problem(card)
        case CardCorrected(hand, trick, _, card):
            for name, value in (("hand", hand), ("trick", trick)):
                if type(value) is not int or value < 1:
                    return f"the {name} is {shown(value)}, not a whole number from 1"
            return _card_problem(card)
    return None


def _card_problem(card: object) -> str | None:
    if isinstance(card, Card) and card.is_valid:
        return None
    if isinstance(card, Card):
        return f"the card has rank {shown(card.rank)} and suit {shown(card.suit)}"
    return f"the card is {shown(card)}, not a Card"


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
    raise TypeError(f"not an event: {shown(event)}")


def _field(data: Mapping[str, Any], name: str) -> Any:
    if name not in data:
        raise InvalidEvent(f"a {shown(data.get('type'))} event needs a {name!r}")
    return data[name]


def _seat(data: Mapping[str, Any], name: str = "seat") -> Seat:
    return Seat.from_log(_field(data, name))


def _card(data: Mapping[str, Any]) -> Card:
    return Card.from_log(_field(data, "card"))


def _rules(data: Mapping[str, Any]) -> Rules:
    options = data.get("rules", {})
    if not isinstance(options, Mapping):
        raise InvalidEvent(f"'rules' must be an object of options, not {shown(options)}")
    return Rules.from_mapping(options)


def _number(data: Mapping[str, Any], name: str) -> int:
    value = _field(data, name)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise InvalidEvent(f"{name!r} must be a whole number from 1, not {shown(value)}")
    return value
