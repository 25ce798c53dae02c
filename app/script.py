"""Scripted table input (JSON Lines): button presses and card sightings, for demos and tests."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from app.prompts import (
    Answer,
    CardNamed,
    CorrectionOpened,
    NamingAsked,
    PlayedChosen,
    PromptAnswered,
    TouchInput,
)
from app.sightings import Sighting, SightingKind
from drivers import inputs
from drivers.keys import JOKER_KEY, RANK_KEYS, SUIT_KEYS, is_key_name, press_event
from table import (
    AceNoFaceClaimed,
    BidKind,
    BidMade,
    Card,
    CardParseError,
    CardPlayed,
    DealerDiscarded,
    Event,
    ExchangeDone,
    GameStarted,
    GameState,
    Seat,
    TrumpNamed,
    Undone,
)
from table.seats import SeatError


@dataclass(frozen=True, slots=True)
class Wait:
    """Time passes at the table: the script's clock moves on by `seconds`."""

    seconds: float


ScriptItem = inputs.PlayerInput | Sighting | TouchInput | Wait


class ScriptError(ValueError):
    """A script line is not understood; the message names the line."""


@dataclass(frozen=True, slots=True)
class ScriptLine:
    """One scripted input with its 1-based line number."""

    number: int
    item: ScriptItem


def parse_script_line(number: int, text: str) -> ScriptItem:
    """One line: `{"press": "bid", "seat": "E", "bid": 3}`, `{"key": "HEARTS"}`,
    `{"card": "JH", "seat": "E"}`, `{"touch": "card", "card": "JH"}` or `{"wait": 3.5}`."""
    try:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ScriptError(f"line {number}: expected a JSON object")
        seat = data.get("seat")
        if "touch" in data:
            return _touch(number, data)
        if "wait" in data:
            seconds = data["wait"]
            if isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds < 0:
                raise ScriptError(f"line {number}: wait {seconds!r}: expected seconds, 0 or more")
            return Wait(float(seconds))
        if "key" in data:
            if not isinstance(data["key"], str) or not is_key_name(data["key"]):
                raise ScriptError(f"line {number}: unknown key {data['key']!r}")
            return press_event(data["key"], seat)
        if "card" in data or data.get("unreadable"):
            where = Seat.parse(seat)
            card = None if data.get("unreadable") else Card.parse(data["card"])
            kind = SightingKind.REMOVED if data.get("removed") else SightingKind.PLACED
            if data.get("identified"):
                kind = SightingKind.IDENTIFIED
            return Sighting(kind, float(data.get("t", 0.0)), where, card, 1.0 if card else 0.0)
        press = data.get("press")
        if press == "bid":
            return inputs.BidPressed(seat, data["bid"])
        if press == "pass":
            return inputs.PassPressed(seat)
        if press == "trump":
            return inputs.TrumpPressed(seat, data["suit"])
        if press == "ok":
            return inputs.ConfirmPressed(seat)
        if press == "undo":
            return inputs.UndoPressed(seat)
        if press == "new_game":
            return inputs.NewGameConfirmed(seat)
        if press == "ace_no_face":
            return inputs.AceNoFaceClaimed(seat)
        raise ScriptError(f"line {number}: unknown press {press!r}")
    except json.JSONDecodeError as error:
        raise ScriptError(f"line {number}: not valid JSON: {error.msg}") from None
    except RecursionError:
        raise ScriptError(f"line {number}: nested too deeply to be a script line") from None
    except (KeyError, ValueError, CardParseError, SeatError) as error:
        if isinstance(error, ScriptError):
            raise
        raise ScriptError(f"line {number}: {error}") from None


def _touch(number: int, data: dict[str, object]) -> TouchInput:
    """A touch on the screen: a card of a pick, a prompt's button, a played card, or asking."""
    touch, seat = data["touch"], data.get("seat")
    if touch == "card":
        code = data["card"]
        Card.parse(code)
        return CardNamed(str(code), Seat.parse(seat) if seat is not None else None)
    if touch == "button":
        try:
            return PromptAnswered(Answer(str(data["button"])))
        except ValueError:
            known = ", ".join(answer.value for answer in Answer)
            raise ScriptError(
                f"line {number}: unknown button {data['button']!r} (known: {known})"
            ) from None
    if touch == "played":
        hand, trick = data["hand"], data["trick"]
        if not isinstance(hand, int) or not isinstance(trick, int):
            raise ScriptError(f"line {number}: hand and trick must be numbers")
        return PlayedChosen(hand, trick, Seat.parse(seat))
    if touch == "correct":
        return CorrectionOpened()
    if touch == "name":
        return NamingAsked(Seat.parse(seat) if seat is not None else None)
    raise ScriptError(f"line {number}: unknown touch {touch!r}")


def read_script(lines: Iterable[str]) -> Iterator[ScriptLine]:
    """Parse every non-blank line."""
    for number, text in enumerate(lines, start=1):
        if text.strip():
            yield ScriptLine(number, parse_script_line(number, text))


def load_script(path: Path) -> list[ScriptLine]:
    """Read a script file; a file that is not UTF-8 JSON Lines is a ScriptError naming it."""
    try:
        with path.open(encoding="utf-8") as handle:
            return list(read_script(handle))
    except UnicodeDecodeError as error:
        raise ScriptError(f"{path}: not UTF-8 text (byte {error.start})") from None
    except FileNotFoundError:
        raise ScriptError(f"{path}: no such script file") from None
    except IsADirectoryError:
        raise ScriptError(f"{path}: a folder, not a script file") from None


def script_from_events(events: Iterable[Event], by_keys: bool = False) -> list[dict[str, object]]:
    """The presses and sightings that make a table log happen (the game event itself excluded).

    Passes after a moon are left out: the table records them by itself. Each completed
    trick is gathered: its cards are seen leaving their zones. Each line names its `hand`.
    `by_keys`: a table without a camera, each card named with its rank key and suit key.
    """
    lines: list[dict[str, object]] = []
    moon_bid = False
    state: GameState | None = None
    for event in events:
        if isinstance(event, GameStarted):
            state = GameState(event)
            continue
        hand = state.hand.number if state is not None else 0
        start = len(lines)
        if state is not None:
            state.apply(event)
        match event:
            case BidMade(seat, bid):
                if bid.is_pass and moon_bid:
                    continue
                moon_bid = moon_bid or bid.kind is BidKind.MOON
                if bid.is_pass:
                    lines.append({"press": "pass", "seat": seat.value})
                else:
                    lines.append({"press": "bid", "seat": seat.value, "bid": bid.log_value})
            case TrumpNamed(seat, suit):
                moon_bid = False
                lines.append({"press": "trump", "seat": seat.value, "suit": suit.value})
            case ExchangeDone(seat) | DealerDiscarded(seat):
                lines.append({"press": "ok", "seat": seat.value})
            case AceNoFaceClaimed(seat):
                moon_bid = False
                lines.append({"press": "ace_no_face", "seat": seat.value})
            case CardPlayed(seat, card) if by_keys:
                lines.extend({"key": key} for key in card_keys(card))
            case CardPlayed(seat, card):
                lines.append({"card": card.code, "seat": seat.value})
                lines.extend(_gathered(state))
            case Undone():
                lines.append({"press": "undo"})
        for line in lines[start:]:
            line["hand"] = hand
    return lines


def card_keys(card: Card) -> list[str]:
    """The keys that name `card` on the panel: its rank key and suit key, or the joker key."""
    if card.suit is None:
        return [JOKER_KEY]
    rank = next(key for key, value in RANK_KEYS.items() if value == card.rank)
    suit = next(key for key, value in SUIT_KEYS.items() if value == card.suit.value)
    return [rank, suit]


def _gathered(state: GameState | None) -> list[dict[str, object]]:
    """Removal lines for the trick the last card completed, if it did."""
    if state is None:
        return []
    hand = state.hand if state.hand.tricks else (state.completed or [state.hand])[-1]
    trick = hand.tricks[-1] if hand.tricks else None
    if trick is None or trick.winner is None:
        return []
    return [{"card": card.code, "seat": seat.value, "removed": True} for seat, card in trick.cards]
