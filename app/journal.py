"""The journal: every accepted event committed to SQLite before the table shows it."""

from __future__ import annotations

import errno
import json
import os
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from drivers.inputs import PanelKey
from table import Event, GameStarted, GameState, Team, Undone
from table.events import event_from_json, event_to_json
from table.log import dump_events

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    winner TEXT,
    score_ns INTEGER NOT NULL DEFAULT 0,
    score_ew INTEGER NOT NULL DEFAULT 0,
    on_table TEXT NOT NULL DEFAULT '[]'
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    at TEXT NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS probe (filler BLOB);
CREATE TABLE IF NOT EXISTS game_players (game_id INTEGER PRIMARY KEY, players TEXT NOT NULL);
"""
IMPORTED_TABLE = "imported_games"
"""Games added by `cardtable import`: history, never resumed by the table (app/import_log.py)."""
PLAYERS_TABLE = "game_players"
"""Who sat where in each game, as the table's config named them while it was played."""

# Each step brings a journal from the version before it (PRAGMA user_version) to the next.
# Version 1: per card event, who named it (camera or person), what the camera had read, and
# where the card lies (hand, trick).
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        "ALTER TABLE events ADD COLUMN source TEXT",
        "ALTER TABLE events ADD COLUMN camera_read TEXT",
        "ALTER TABLE events ADD COLUMN hand INTEGER",
        "ALTER TABLE events ADD COLUMN trick INTEGER",
    ),
    # Version 2: the serial panel's key lines whose answer the journal holds (the boot id of
    # the panel, the line's number in that boot), so a key resent after a restart is not
    # applied twice.
    (
        "CREATE TABLE panel_keys (boot TEXT NOT NULL, seq INTEGER NOT NULL, at TEXT NOT NULL, "
        "PRIMARY KEY (boot, seq)) WITHOUT ROWID",
    ),
    # Version 3: where in the journal each key's answer was committed (the latest game and
    # its last event then), so a recovered journal keeps the keys of the events it keeps.
    (
        "ALTER TABLE panel_keys ADD COLUMN game_id INTEGER",
        "ALTER TABLE panel_keys ADD COLUMN event_seq INTEGER",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)
UNREADABLE = "?"
"""`camera_read` of a card the camera saw but could not read."""


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where a card event came from: `source` "camera" or "person"; `camera_read` is the card
    the camera had read there, UNREADABLE, or None when the camera saw nothing."""

    source: str
    camera_read: str | None = None
    hand: int | None = None
    trick: int | None = None


@dataclass(frozen=True, slots=True)
class CardRecord:
    """A card or correct event that still stands (not undone), with its provenance."""

    seq: int
    event: Event
    provenance: Provenance | None


class JournalError(Exception):
    """The journal cannot do what was asked; the message names the game or file."""


class JournalUnavailable(JournalError):
    """The journal cannot take a write now (disk full, read-only, locked, failing);
    nothing of the attempted transaction was kept. `reason` is short, for the screen."""

    def __init__(self, path: Path, reason: str, detail: str) -> None:
        super().__init__(f"the journal {path} cannot write: {reason} ({detail})")
        self.reason = reason


SQLITE_REASONS = (
    ("SQLITE_FULL", "disk full"),
    ("SQLITE_READONLY", "read-only"),
    ("SQLITE_BUSY", "locked by another program"),
    ("SQLITE_LOCKED", "locked by another program"),
    ("SQLITE_IOERR", "disk error"),
    ("SQLITE_CANTOPEN", "cannot open its files"),
)
OS_REASONS = {errno.ENOSPC: "disk full", errno.EDQUOT: "disk full", errno.EROFS: "read-only",
              errno.EACCES: "read-only", errno.EPERM: "read-only", errno.EIO: "disk error"}


def unavailable_reason(error: BaseException) -> str | None:
    """Why a write failed, when the storage (not the SQL) is the cause; None otherwise."""
    if isinstance(error, sqlite3.OperationalError):
        name = getattr(error, "sqlite_errorname", "") or ""
        for prefix, reason in SQLITE_REASONS:
            if name.startswith(prefix):
                return reason
        return None
    if isinstance(error, OSError):
        return OS_REASONS.get(error.errno or 0, "disk error")
    return None


NOT_WRITABLE = "read-only"
VAGUE_REASONS = ("disk error", "cannot open its files")
"""What SQLite reports for a file the kernel refused to write (EPERM, EROFS, EACCES)."""


def storage_reason(path: Path, reason: str) -> str:
    """`reason` made precise: SQLite calls a journal, WAL or folder the kernel will not let
    this process write (a read-only mount, an immutable file, another user's) a disk error."""
    if reason not in VAGUE_REASONS:
        return reason
    files = [path.parent, path, *(Path(f"{path}{s}") for s in ("-wal", "-shm"))]
    if any(f.exists() and not os.access(f, os.W_OK) for f in files):
        return NOT_WRITABLE
    return reason


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


BUSY_TIMEOUT_S = 1.0
"""A write waits this long for another connection's lock, then counts as unavailable."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Journal:
    """An SQLite journal in WAL mode with synchronous=FULL: an acknowledged event survives."""

    seat_names: dict[str, str] | None = None
    """Who sits where, as the config names them: recorded with each game the table plays."""

    def __init__(self, path: str | Path, *, busy_timeout_s: float = BUSY_TIMEOUT_S) -> None:
        """`busy_timeout_s`: how long a write waits for another connection's lock."""
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._depth = 0
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=busy_timeout_s)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
            self._migrate()
        except sqlite3.DatabaseError as error:
            reason = unavailable_reason(error)
            if reason is not None:
                reason = storage_reason(self.path, reason)
                raise JournalUnavailable(self.path, reason, str(error)) from error
            raise JournalError(f"cannot open the journal {self.path}: {error}") from error

    def _migrate(self) -> None:
        """Bring a journal written by older code up to SCHEMA_VERSION, one step at a time."""
        version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise JournalError(
                f"the journal {self.path} was written by newer code (schema {version}, "
                f"this code knows up to {SCHEMA_VERSION})"
            )
        for number in range(version, SCHEMA_VERSION):
            with self._transaction() as db:
                for statement in MIGRATIONS[number]:
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {number + 1}")

    def close(self) -> None:
        """Close the database."""
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def atomic(self) -> Iterator[None]:
        """Every write inside commits together at the end, or none does.

        Raises JournalUnavailable when the storage refuses (nothing is kept then).
        """
        self._depth += 1
        try:
            yield
            if self._depth == 1 and self._db.in_transaction:
                self._db.execute("COMMIT")
        except BaseException as error:
            if self._depth == 1:
                self._rollback()
            reason = unavailable_reason(error)
            if reason is not None and not isinstance(error, JournalUnavailable):
                reason = storage_reason(self.path, reason)
                raise JournalUnavailable(self.path, reason, str(error)) from error
            raise
        finally:
            self._depth -= 1

    def _rollback(self) -> None:
        if self._db.in_transaction:
            # SQLite may have rolled back by itself (a full disk, an I/O error)
            with suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self.atomic():
            if not self._db.in_transaction:
                self._db.execute("BEGIN IMMEDIATE")
            yield self._db

    def probe(self) -> None:
        """Write and delete a page-sized row; raises JournalUnavailable if the disk refuses."""
        page = int(self._db.execute("PRAGMA page_size").fetchone()[0])
        with self._transaction() as db:
            db.execute("INSERT INTO probe (filler) VALUES (zeroblob(?))", (page,))
        with self._transaction() as db:
            db.execute("DELETE FROM probe")

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

    def append(
        self,
        game_id: int,
        event: Event,
        state: GameState,
        on_table: Iterable[tuple[str, str]] | None = None,
        provenance: Provenance | None = None,
    ) -> int:
        """Commit one accepted event, the score and the cards on the table; returns its sequence.

        A card or correct event carries its provenance: who named it and what the camera read.
        """
        where = provenance or Provenance(source="")
        with self._transaction() as db:
            row = db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?", (game_id,)
            ).fetchone()
            seq = int(row[0]) + 1
            if self.seat_names:  # the first names recorded for a game stand
                db.execute(f"INSERT OR IGNORE INTO {PLAYERS_TABLE} (game_id, players) "
                           "VALUES (?, ?)", (game_id, json.dumps(self.seat_names)))
            db.execute(
                "INSERT INTO events (game_id, seq, at, event, source, camera_read, hand, trick) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    seq,
                    _now(),
                    json.dumps(event_to_json(event)),
                    where.source or None,
                    where.camera_read,
                    where.hand,
                    where.trick,
                ),
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
            if on_table is not None:
                db.execute(
                    "UPDATE games SET on_table = ? WHERE id = ?",
                    (json.dumps(sorted(on_table)), game_id),
                )
        return seq

    def record_keys(self, keys: Iterable[PanelKey]) -> None:
        """Remember panel keys whose answer is final; inside `atomic`, with their events.

        The keys of earlier boots are forgotten: a panel that restarted lost its queue, so it
        never sends them again (and a new random boot id cannot meet an old one's numbers).
        """
        lines = [(key.boot, seq) for key in keys for seq in key.seqs]
        if not lines:
            return
        boots = sorted({boot for boot, _ in lines})
        with self._transaction() as db:  # two ranges of the primary key: no scan of this boot's
            db.execute("DELETE FROM panel_keys WHERE boot < ? OR boot > ?", (boots[0], boots[-1]))
            game_id, event_seq = db.execute(
                "SELECT g.id, (SELECT MAX(seq) FROM events WHERE game_id = g.id) "
                "FROM (SELECT MAX(id) AS id FROM games) AS g").fetchone()
            at = _now()
            db.executemany(
                "INSERT OR IGNORE INTO panel_keys (boot, seq, at, game_id, event_seq) "
                "VALUES (?, ?, ?, ?, ?)",
                [(boot, seq, at, game_id, event_seq) for boot, seq in lines])

    def holds_key(self, key: PanelKey) -> bool:
        """Whether any line of `key` was recorded: its answer is final, it is a resend."""
        if not key.seqs:
            return False
        marks = ",".join("?" * len(key.seqs))
        row = self._db.execute(
            f"SELECT 1 FROM panel_keys WHERE boot = ? AND seq IN ({marks}) LIMIT 1",
            (key.boot, *key.seqs),
        ).fetchone()
        return row is not None

    def set_on_table(self, game_id: int, on_table: Iterable[tuple[str, str]]) -> None:
        """Remember which played cards still lie on the table (seat, card)."""
        with self._transaction() as db:
            db.execute(
                "UPDATE games SET on_table = ? WHERE id = ?",
                (json.dumps(sorted(on_table)), game_id),
            )

    def on_table(self, game_id: int) -> list[tuple[str, str]]:
        """The (seat, card) pairs last remembered as lying on the table."""
        row = self._db.execute("SELECT on_table FROM games WHERE id = ?", (game_id,)).fetchone()
        return [(seat, card) for seat, card in json.loads(row[0])] if row else []

    def events(self, game_id: int) -> list[Event]:
        """The journaled events of a game, oldest first."""
        rows = self._db.execute(
            "SELECT event FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        if not rows:
            raise JournalError(f"no game {game_id} in {self.path}")
        return [event_from_json(json.loads(row[0])) for row in rows]

    def card_records(self, game_id: int) -> list[CardRecord]:
        """The card and correct events of a game that still stand (undo resolved), oldest first."""
        rows = self._db.execute(
            "SELECT seq, event, source, camera_read, hand, trick FROM events "
            "WHERE game_id = ? ORDER BY seq",
            (game_id,),
        ).fetchall()
        if not rows:
            raise JournalError(f"no game {game_id} in {self.path}")
        standing: list[CardRecord] = []
        for seq, text, source, camera_read, hand, trick in rows[1:]:
            event = event_from_json(json.loads(text))
            if isinstance(event, Undone):
                if standing:
                    standing.pop()
                continue
            provenance = Provenance(source, camera_read, hand, trick) if source else None
            standing.append(CardRecord(int(seq), event, provenance))
        return [record for record in standing if record.provenance is not None]

    def games(self) -> list[GameRecord]:
        """Every game, oldest first."""
        rows = self._db.execute(
            "SELECT g.id, g.started_at, g.finished_at, g.winner, g.score_ns, g.score_ew, "
            "(SELECT COUNT(*) FROM events e WHERE e.game_id = g.id) FROM games g ORDER BY g.id"
        ).fetchall()
        return [GameRecord(*row) for row in rows]

    def latest_game(self, *, imported: bool = False) -> int | None:
        """The most recent game, won or not: the one the table shows on start. An imported game
        is history, never resumed (the table starts a new one after it); `imported` counts it."""
        query = "SELECT MAX(id) FROM games"
        if not imported and self._has_table(IMPORTED_TABLE):
            query += f" WHERE id NOT IN (SELECT game_id FROM {IMPORTED_TABLE})"
        row = self._db.execute(query).fetchone()
        return int(row[0]) if row and row[0] is not None else None

    def players(self, game_id: int) -> dict[str, str]:
        """Who sat where in `game_id` (seat letter to name); empty when nobody was named."""
        return game_players(self._db, game_id)

    def _has_table(self, name: str) -> bool:
        return has_table(self._db, name)

    def unfinished_game(self) -> int | None:
        """The game in progress (neither won nor given up for a new one), if any."""
        row = self._db.execute(
            "SELECT id FROM games WHERE finished_at IS NULL ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return int(row[0]) if row else None

    def export(self, game_id: int) -> str:
        """A game as a table log that `cardtable replay` reads."""
        return dump_events(self.events(game_id))


def has_table(db: sqlite3.Connection, name: str) -> bool:
    """Whether the journal holds a table of this name (older journals lack the newer ones)."""
    row = db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)).fetchone()
    return row is not None


def game_players(db: sqlite3.Connection, game_id: int) -> dict[str, str]:
    """Who sat where in `game_id` as the journal recorded it; empty when nobody was named."""
    if not has_table(db, PLAYERS_TABLE):
        return {}
    row = db.execute(
        f"SELECT players FROM {PLAYERS_TABLE} WHERE game_id = ?", (game_id,)).fetchone()
    return {str(seat): str(name) for seat, name in json.loads(row[0]).items()} if row else {}
