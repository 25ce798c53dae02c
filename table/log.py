"""Reading and writing table logs: JSON Lines, one event per line (TABLE_LOG.md)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from table.errors import InvalidEvent, LogError, Refusal
from table.events import Event, GameStarted, event_from_json, event_to_json
from table.state import GameState

# What JSON counts as whitespace around a value; anything else (form feed, NBSP, U+2028) is not.
JSON_WHITESPACE = " \t\r\n"


class _NotAnEvent(ValueError):
    """What the JSON reader accepts but a log may not hold: a key twice, NaN or Infinity."""


def parse_line(number: int, line: str) -> Event:
    """Parse one log line (with or without its newline); raises LogError naming the line."""
    text = line[:-1] if line.endswith("\n") else line
    if not text.strip(JSON_WHITESPACE):
        raise LogError(number, "a blank line: every line of a log is one JSON object")
    try:
        data = json.loads(text, object_pairs_hook=_object, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise LogError(number, f"not valid JSON: {error.msg} (column {error.colno})") from None
    except _NotAnEvent as error:
        raise LogError(number, str(error)) from None
    except RecursionError:
        raise LogError(number, "not valid JSON: nested too deeply for an event") from None
    except ValueError:
        raise LogError(number, "not valid JSON: a number with too many digits") from None
    try:
        return event_from_json(data)
    except InvalidEvent as error:
        raise LogError(number, error.reason, error.kind) from None


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _NotAnEvent(f"the key {json.dumps(key)[:40]} appears twice in the object")
        result[key] = value
    return result


def _no_constant(name: str) -> object:
    raise _NotAnEvent(f"not valid JSON: {name} is not a JSON value")


def parse_lines(lines: Iterable[str]) -> Iterator[tuple[int, Event]]:
    """Yield (line number, event) for each line, parsing lazily; a blank line is invalid."""
    for number, line in enumerate(lines, start=1):
        yield number, parse_line(number, line)


def replay_lines(lines: Iterable[str]) -> GameState:
    """Replay log lines into a state; the first invalid line raises LogError naming it."""
    state: GameState | None = None
    for number, event in parse_lines(lines):
        try:
            if state is None:
                if not isinstance(event, GameStarted):
                    raise InvalidEvent("the first line must be a 'game' event", Refusal.GAME_START)
                state = GameState(event)
            else:
                state.apply(event)
        except InvalidEvent as error:
            raise LogError(number, error.reason, error.kind) from None
    if state is None:
        raise LogError(1, "the log is empty: the first line must be a 'game' event")
    return state


def log_lines(path: str | Path) -> list[str]:
    """The lines of a log file, each with its newline; LogError names a line that is not UTF-8.

    Lines end at `\\n` only, as JSON Lines has it; OSError when the file cannot be read.
    """
    data = Path(path).read_bytes()
    pieces = data.split(b"\n")
    raw = [piece + b"\n" for piece in pieces[:-1]]
    if pieces[-1]:
        raw.append(pieces[-1])
    lines = []
    for number, piece in enumerate(raw, start=1):
        try:
            lines.append(piece.decode("utf-8"))
        except UnicodeDecodeError as error:
            byte = piece[error.start]
            raise LogError(
                number, f"not UTF-8 text: byte 0x{byte:02x} at column {error.start + 1}"
            ) from None
    return lines


def read_log(path: str | Path) -> GameState:
    """Replay a log file; LogError names the first bad line, OSError an unreadable file."""
    return replay_lines(log_lines(path))


def dump_events(events: Iterable[Event]) -> str:
    """The log text of an event list, one JSON object per line."""
    return "".join(json.dumps(event_to_json(event)) + "\n" for event in events)
