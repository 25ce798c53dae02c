"""How far each game's events have reached the MQTT broker, kept in the journal itself.

The journal is the truth: an event is marked published only once the broker acknowledged it,
so after the broker or the network comes back the rest is sent in order, from there on. A journal
that never had a publisher starts with its earlier games counted as sent (they are history, not
news: only the game being played goes out event by event), and imported games are never sent.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.import_log import PUBLISHED_TABLE
from app.journal import IMPORTED_TABLE, game_players, has_table

OUTBOX_SCHEMA = (
    f"CREATE TABLE IF NOT EXISTS {PUBLISHED_TABLE} ("
    "game_id INTEGER PRIMARY KEY, seq INTEGER NOT NULL DEFAULT 0)"
)


@dataclass(frozen=True, slots=True)
class Pending:
    """One journaled event the broker has not acknowledged yet."""

    game_id: int
    seq: int
    at: str
    event: dict[str, Any]


@dataclass(frozen=True, slots=True)
class GameRow:
    """A game's line in the journal, as the broker's `games/<id>` topic carries it."""

    id: int
    started_at: str
    finished_at: str | None
    winner: str | None
    score_ns: int
    score_ew: int


class Outbox:
    """The journal seen from the publisher: what is left to send, and marking what was sent."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db = sqlite3.connect(path, isolation_level=None, timeout=10.0,
                                   check_same_thread=False)
        with self._transaction() as db:
            if not self._has_table(PUBLISHED_TABLE):
                db.execute(OUTBOX_SCHEMA)
                self._history_sent(db)

    def _has_table(self, name: str) -> bool:
        return has_table(self._db, name)

    def _imported(self) -> str:
        """SQL naming the imported games (none when nothing was ever imported)."""
        if self._has_table(IMPORTED_TABLE):
            return f"SELECT game_id FROM {IMPORTED_TABLE}"
        return "SELECT NULL WHERE 0"

    def _history_sent(self, db: sqlite3.Connection) -> None:
        """Count every game but the latest as sent, to its last event: a first publisher
        resumes from the table's game, not from the start of the journal."""
        db.execute(
            f"INSERT INTO {PUBLISHED_TABLE} (game_id, seq) "
            "SELECT game_id, MAX(seq) FROM events WHERE game_id < "
            f"(SELECT COALESCE(MAX(id), 0) FROM games WHERE id NOT IN ({self._imported()})) "
            f"AND game_id NOT IN ({self._imported()}) GROUP BY game_id")

    def close(self) -> None:
        """Close the connection."""
        self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def pending(self, limit: int = 500) -> list[Pending]:
        """The oldest unpublished events, game by game and in sequence."""
        rows = self._db.execute(
            "SELECT e.game_id, e.seq, e.at, e.event FROM events e "
            f"LEFT JOIN {PUBLISHED_TABLE} p ON p.game_id = e.game_id "
            f"WHERE e.seq > COALESCE(p.seq, 0) AND e.game_id NOT IN ({self._imported()}) "
            "ORDER BY e.game_id, e.seq LIMIT ?",
            (limit,),
        ).fetchall()
        return [Pending(int(g), int(s), str(at), json.loads(text)) for g, s, at, text in rows]

    def published(self, game_id: int) -> int:
        """The last sequence of `game_id` the broker acknowledged (0 for none)."""
        row = self._db.execute(
            f"SELECT seq FROM {PUBLISHED_TABLE} WHERE game_id = ?", (game_id,)
        ).fetchone()
        return int(row[0]) if row else 0

    def mark(self, game_id: int, seq: int) -> None:
        """Record that the broker has every event of `game_id` up to `seq`."""
        with self._transaction() as db:
            db.execute(
                f"INSERT INTO {PUBLISHED_TABLE} (game_id, seq) VALUES (?, ?) "
                "ON CONFLICT(game_id) DO UPDATE SET seq = MAX(seq, excluded.seq)",
                (game_id, seq),
            )

    def game(self, game_id: int) -> GameRow | None:
        """The game's row: start, end, winner and score."""
        row = self._db.execute(
            "SELECT id, started_at, finished_at, winner, score_ns, score_ew FROM games "
            "WHERE id = ?", (game_id,)
        ).fetchone()
        return GameRow(*row) if row else None

    def events(self, game_id: int) -> list[dict[str, Any]]:
        """Every journaled event of a game, oldest first, as table log objects."""
        rows = self._db.execute(
            "SELECT event FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        return [json.loads(row[0]) for row in rows]

    def games(self) -> list[int]:
        """Every game whose events have all reached the broker (retained topics to renew)."""
        rows = self._db.execute(
            f"SELECT g.id FROM games g JOIN {PUBLISHED_TABLE} p ON p.game_id = g.id "
            f"WHERE g.id NOT IN ({self._imported()}) ORDER BY g.id"
        ).fetchall()
        return [int(row[0]) for row in rows]

    def latest_game(self) -> int | None:
        """The game the table shows (an imported game never is)."""
        row = self._db.execute(
            f"SELECT MAX(id) FROM games WHERE id NOT IN ({self._imported()})").fetchone()
        return int(row[0]) if row and row[0] is not None else None

    def players(self, game_id: int) -> dict[str, str]:
        """Who sat where in `game_id` as the journal recorded it; empty when nobody was named."""
        return game_players(self._db, game_id)
