"""`cardtable import`: a table log into the journal as a finished game (the inverse of export)."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from app.journal import IMPORTED_TABLE, Journal, JournalError
from table import Event, Team
from table.events import event_to_json
from table.log import log_lines, parse_lines, replay_lines
from table.state import GameState

PUBLISHED_TABLE = "mqtt_published"
"""Per game, how far its events have reached the MQTT broker (app/mqtt_outbox.py)."""


@dataclass(frozen=True, slots=True)
class Imported:
    """What an import added: the new game's number, and the game in progress renumbered."""

    game_id: int
    state: GameState
    events: int
    resumed_game: int | None  # the game in progress, now numbered after the imported one


def read_game_log(path: Path) -> tuple[list[Event], GameState]:
    """The events of a valid log and its final state; LogError names the first bad line."""
    lines = log_lines(path)
    state = replay_lines(lines)  # validates every line against the rules first
    return [event for _, event in parse_lines(lines)], state


def import_game(journal: Journal, events: list[Event], state: GameState) -> Imported:
    """Add a replayed game to the journal as a closed game, in one transaction.

    A game in progress stays the one the table resumes: it is renumbered after the imported
    game, which takes its place in the order of games.
    """
    now = datetime.now(UTC).isoformat(timespec="milliseconds")
    db = sqlite3.connect(journal.path, isolation_level=None, timeout=10.0)
    try:
        db.execute("BEGIN IMMEDIATE")
        try:
            row = db.execute(
                "SELECT id FROM games WHERE finished_at IS NULL ORDER BY id DESC LIMIT 1"
            ).fetchone()
            open_game = int(row[0]) if row else None
            top = int(db.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()[0])
            game_id = open_game if open_game is not None else top + 1
            resumed = None
            if open_game is not None:
                resumed = top + 1
                db.execute("UPDATE games SET id = ? WHERE id = ?", (resumed, open_game))
                db.execute("UPDATE events SET game_id = ? WHERE game_id = ?", (resumed, open_game))
                if _has_table(db, PUBLISHED_TABLE):
                    db.execute(
                        f"UPDATE {PUBLISHED_TABLE} SET game_id = ? WHERE game_id = ?",
                        (resumed, open_game),
                    )
            db.execute(
                "INSERT INTO games (id, started_at, finished_at, winner, score_ns, score_ew) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    now,
                    now,
                    state.winner.value if state.winner else None,
                    state.scores[Team.NS],
                    state.scores[Team.EW],
                ),
            )
            db.execute(f"CREATE TABLE IF NOT EXISTS {IMPORTED_TABLE} (game_id INTEGER PRIMARY KEY)")
            db.execute(f"INSERT INTO {IMPORTED_TABLE} (game_id) VALUES (?)", (game_id,))
            db.executemany(
                "INSERT INTO events (game_id, seq, at, event) VALUES (?, ?, ?, ?)",
                [
                    (game_id, seq, now, json.dumps(event_to_json(event)))
                    for seq, event in enumerate(events, start=1)
                ],
            )
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
    except sqlite3.DatabaseError as error:
        raise JournalError(f"cannot import into the journal {journal.path}: {error}") from error
    finally:
        db.close()
    return Imported(game_id, state, len(events), resumed)


def _has_table(db: sqlite3.Connection, name: str) -> bool:
    row = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,))
    return row.fetchone() is not None
