"""The journal: every accepted event committed to SQLite before the table shows it."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from table import Event, GameStarted, GameState, Team
from table.events import event_from_json, event_to_json
from table.log import dump_events

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    winner TEXT,
    score_ns INTEGER NOT NULL DEFAULT 0,
    score_ew INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    at TEXT NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


class JournalError(Exception):
    """The journal cannot do what was asked; the message names the game or file."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game as `cardtable games` lists it."""

    id: int
    started_at: str
    finished_at: str | None
    winner: str | None
    score_ns: int
    score_ew: int
    events: int


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Journal:
    """An SQLite journal in WAL mode with synchronous=FULL: an acknowledged event survives."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
        except sqlite3.DatabaseError as error:
            raise JournalError(f"cannot open the journal {self.path}: {error}") from error

    def close(self) -> None:
        """Close the database."""
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def start_game(self, start: GameStarted) -> int:
        """Record a new game with its first event, closing any open one; returns the game id."""
        with self._transaction() as db:
            db.execute("UPDATE games SET finished_at = ? WHERE finished_at IS NULL", (_now(),))
            cursor = db.execute("INSERT INTO games (started_at) VALUES (?)", (_now(),))
            game_id = int(cursor.lastrowid or 0)
            db.execute(
                "INSERT INTO events (game_id, seq, at, event) VALUES (?, 1, ?, ?)",
                (game_id, _now(), json.dumps(event_to_json(start))),
            )
        return game_id

    def append(self, game_id: int, event: Event, state: GameState) -> int:
        """Commit one accepted event (and the game's score) durably; returns its sequence."""
        with self._transaction() as db:
            row = db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?", (game_id,)
            ).fetchone()
            seq = int(row[0]) + 1
            db.execute(
                "INSERT INTO events (game_id, seq, at, event) VALUES (?, ?, ?, ?)",
                (game_id, seq, _now(), json.dumps(event_to_json(event))),
            )
            db.execute(
                "UPDATE games SET score_ns = ?, score_ew = ?, winner = ?, finished_at = ? "
                "WHERE id = ?",
                (
                    state.scores[Team.NS],
                    state.scores[Team.EW],
                    state.winner.value if state.winner else None,
                    _now() if state.winner else None,
                    game_id,
                ),
            )
        return seq

    def events(self, game_id: int) -> list[Event]:
        """The journaled events of a game, oldest first."""
        rows = self._db.execute(
            "SELECT event FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        if not rows:
            raise JournalError(f"no game {game_id} in {self.path}")
        return [event_from_json(json.loads(row[0])) for row in rows]

    def games(self) -> list[GameRecord]:
        """Every game, oldest first."""
        rows = self._db.execute(
            "SELECT g.id, g.started_at, g.finished_at, g.winner, g.score_ns, g.score_ew, "
            "(SELECT COUNT(*) FROM events e WHERE e.game_id = g.id) FROM games g ORDER BY g.id"
        ).fetchall()
        return [GameRecord(*row) for row in rows]

    def unfinished_game(self) -> int | None:
        """The game in progress (neither won nor given up for a new one), if any."""
        row = self._db.execute(
            "SELECT id FROM games WHERE finished_at IS NULL ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return int(row[0]) if row else None

    def export(self, game_id: int) -> str:
        """A game as a table log that `cardtable replay` reads."""
        return dump_events(self.events(game_id))
