"""Reading and writing table logs: JSON Lines, one event per line (TABLE_LOG.md)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path

from table.errors import InvalidEvent, LogError
from table.events import Event, GameStarted, event_from_json, event_to_json
from table.state import GameState


def parse_line(number: int, line: str) -> Event:
    """Parse one log line; raises LogError naming the line number."""
    try:
        data = json.loads(line.strip())
    except json.JSONDecodeError as error:
        raise LogError(number, f"not valid JSON: {error.msg} (column {error.colno})") from None
    try:
        return event_from_json(data)
    except InvalidEvent as error:
        raise LogError(number, error.reason) from None


def parse_lines(lines: Iterable[str]) -> Iterator[tuple[int, Event]]:
    """Yield (line number, event) for each non-blank line, parsing lazily."""
    for number, line in enumerate(lines, start=1):
        if line.strip():
            yield number, parse_line(number, line)


def replay_lines(lines: Iterable[str]) -> GameState:
    """Replay log lines into a state; the first invalid line raises LogError naming it."""
    state: GameState | None = None
    for number, event in parse_lines(lines):
        try:
            if state is None:
                if not isinstance(event, GameStarted):
                    raise InvalidEvent("the first line must be a 'game' event")
                state = GameState(event)
            else:
                state.apply(event)
        except InvalidEvent as error:
            raise LogError(number, error.reason) from None
    if state is None:
        raise LogError(1, "the log is empty: the first line must be a 'game' event")
    return state


def read_log(path: str | Path) -> GameState:
    """Replay a log file."""
    with Path(path).open(encoding="utf-8") as handle:
        return replay_lines(handle)


def dump_events(events: Iterable[Event]) -> str:
    """The log text of an event list, one JSON object per line."""
    return "".join(json.dumps(event_to_json(event)) + "\n" for event in events)
