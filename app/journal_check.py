"""What of a journal is readable, and a fresh journal rebuilt from its longest valid prefixes."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from table import Event, GameStarted, GameState, InvalidEvent, Team
from table.events import event_from_json

MARKER_SUFFIX = ".created"
"""Beside the journal: proof that one existed, so a deleted or emptied journal is noticed."""


class JournalDamaged(Exception):
    """The journal cannot be trusted as it is; the message names the file and the damage."""


@dataclass(slots=True)
class GameHealth:
    """One game of a journal: how many of its events read and replay, and the first problem."""

    game_id: int
    started_at: str
    events: int
    valid: int
    problem: str | None = None


@dataclass(slots=True)
class JournalHealth:
    """A whole journal: the file's own check and every game's."""

    path: Path
    problem: str | None = None
    games: list[GameHealth] = field(default_factory=list)
    keys_carried: int | None = None  # after a recovery: panel keys kept, and left out
    keys_left: int = 0

    @property
    def is_sound(self) -> bool:
        """True when the file and every game read and replay to the end."""
        return self.problem is None and all(game.problem is None for game in self.games)

    def lines(self) -> list[str]:
        """The report `cardtable journal check` prints."""
        out = [f"{self.path}: " + ("sound" if self.is_sound else "DAMAGED")]
        if self.problem:
            out.append(f"  file: {self.problem}")
        for game in self.games:
            state = ("ok" if game.problem is None
                     else f"first bad event {game.valid + 1}: {game.problem}")
            out.append(f"  game {game.game_id} ({game.started_at[:16].replace('T', ' ')}): "
                       f"{game.valid} of {game.events} events valid; {state}")
        if self.keys_carried is not None:
            out.append(f"  panel keys: {self.keys_carried} carried (answered by the events "
                       f"kept), {self.keys_left} left out (answered by events not kept)")
        return out


def marker_of(journal: Path) -> Path:
    """The marker file that records that this journal was created."""
    return journal.with_name(journal.name + MARKER_SUFFIX)


def check_journal(path: Path) -> JournalHealth:
    """Read a journal without writing to it: the file's integrity, then every game's events.

    Raises JournalUnavailable when the storage, not the file, is at fault (a read-only folder
    where SQLite cannot make the WAL's index, a lock held, a disk error): that is no damage.
    """
    health = JournalHealth(path)
    if not path.exists():
        health.problem = "no such file"
        return health
    if path.stat().st_size == 0:
        health.problem = "the file is empty (0 bytes)"
        return health
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as error:
        _raise_if_storage(path, error)
        health.problem = f"cannot open: {error}"
        return health
    try:
        verdict = [row[0] for row in db.execute("PRAGMA quick_check").fetchall()]
        if verdict != ["ok"]:
            health.problem = "SQLite integrity: " + "; ".join(str(v) for v in verdict[:3])
        games = db.execute("SELECT id, started_at FROM games ORDER BY id").fetchall()
        for game_id, started_at in games:
            health.games.append(_check_game(db, int(game_id), str(started_at)))
    except sqlite3.Error as error:
        _raise_if_storage(path, error)
        health.problem = f"unreadable: {error}"
    finally:
        db.close()
    return health


def _raise_if_storage(path: Path, error: sqlite3.Error) -> None:
    from app.journal import JournalUnavailable, storage_reason, unavailable_reason

    reason = unavailable_reason(error)
    if reason is not None:
        raise JournalUnavailable(path, storage_reason(path, reason), str(error)) from error


def _check_game(db: sqlite3.Connection, game_id: int, started_at: str) -> GameHealth:
    seqs = [int(row[0]) for row in db.execute(
        "SELECT seq FROM events WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()]
    health = GameHealth(game_id, started_at, len(seqs), 0)
    events, problem = _valid_prefix(db, game_id, seqs)
    health.valid, health.problem = len(events), problem
    return health


def _valid_prefix(
    db: sqlite3.Connection, game_id: int, seqs: list[int]
) -> tuple[list[tuple[int, str, Event]], str | None]:
    """The longest run of events from the first that read and replay: (seq, at, event) each."""
    kept: list[tuple[int, str, Event]] = []
    state: GameState | None = None
    for expected, seq in enumerate(seqs, start=1):
        if seq != expected:
            return kept, f"event {expected} is missing"
        try:
            at, text = db.execute("SELECT at, event FROM events WHERE game_id = ? AND seq = ?",
                                  (game_id, seq)).fetchone()
            event = event_from_json(json.loads(text))
            if state is None:
                if not isinstance(event, GameStarted):
                    return kept, "the first event is not a 'game' event"
                state = GameState(event)
            else:
                state.apply(event)
        except (sqlite3.Error, ValueError, TypeError, KeyError, InvalidEvent) as error:
            return kept, _short(error)
        kept.append((seq, str(at), event))
    return kept, None


def _short(error: Exception) -> str:
    text = getattr(error, "reason", None) or str(error) or type(error).__name__
    return text if len(text) <= 120 else text[:117] + "..."


def recover_journal(path: Path, out: Path) -> JournalHealth:
    """Write a fresh journal at `out` holding each game's longest valid prefix; `path` is kept."""
    from app.journal import Journal

    if out.exists():
        raise JournalDamaged(f"{out} exists already: name a new file for the recovered journal")
    health = check_journal(path)
    if not health.games:
        raise JournalDamaged(f"{path}: no game can be read ({health.problem or 'no games'})")
    Journal(out).close()  # the schema, WAL mode
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    target = sqlite3.connect(out, isolation_level=None)
    kept: dict[int, int] = {}
    try:
        target.execute("BEGIN IMMEDIATE")
        for game in health.games:
            seqs = [int(row[0]) for row in source.execute(
                "SELECT seq FROM events WHERE game_id = ? ORDER BY seq", (game.game_id,))]
            events, _ = _valid_prefix(source, game.game_id, seqs)
            if events:
                _copy_game(source, target, game, events)
                kept[game.game_id] = len(events)
        whole = all(game.problem is None for game in health.games)
        carried, left = _copy_keys(source, target, kept, whole)
        target.execute("COMMIT")
    finally:
        source.close()
        target.close()
    recovered = check_journal(out)
    recovered.keys_carried, recovered.keys_left = carried, left
    return recovered


KeyRow = tuple[str, int, str, int | None, int | None]


def _copy_keys(
    source: sqlite3.Connection, target: sqlite3.Connection, kept: dict[int, int], whole: bool
) -> tuple[int, int]:
    """The panel keys whose answer lies in the recovered part, into the fresh journal, so a key
    the panel sends again is only acknowledged; a key answered by an event not kept is left out,
    so it takes effect again. A key recorded before its place was (schema 2) is carried only
    when every game was recovered whole. (carried, left out)."""
    rows = _key_rows(source)
    carried = [row for row in rows if _answer_kept(row, kept, whole)]
    target.executemany(
        "INSERT INTO panel_keys (boot, seq, at, game_id, event_seq) VALUES (?, ?, ?, ?, ?)",
        carried)
    return len(carried), len(rows) - len(carried)


def _key_rows(source: sqlite3.Connection) -> list[KeyRow]:
    columns = {row[1] for row in source.execute("PRAGMA table_info(panel_keys)")}
    if not columns:
        return []  # a journal older than the panel's key lines
    where = ("game_id, event_seq" if "event_seq" in columns else "NULL, NULL")
    try:
        return [(str(boot), int(seq), str(at), game, event) for boot, seq, at, game, event in
                source.execute(f"SELECT boot, seq, at, {where} FROM panel_keys")]
    except sqlite3.DatabaseError:
        return []  # the key table itself is damaged: every key takes effect again


def _answer_kept(row: KeyRow, kept: dict[int, int], whole: bool) -> bool:
    _, _, _, game_id, event_seq = row
    if game_id is None or event_seq is None:
        return whole
    return kept.get(game_id, 0) >= event_seq


def _copy_game(
    source: sqlite3.Connection,
    target: sqlite3.Connection,
    game: GameHealth,
    events: list[tuple[int, str, Event]],
) -> None:
    """One game's valid prefix into the fresh journal, with its times, its replayed score and
    each card's provenance (who named it, what the camera read, where it lay)."""
    from table.events import event_to_json
    from table.state import replay

    state = replay(event for _, _, event in events)
    ns, ew = state.scores[Team.NS], state.scores[Team.EW]
    finished = events[-1][1] if state.winner else None
    winner = state.winner.value if state.winner else None
    cursor = target.execute(
        "INSERT INTO games (id, started_at, finished_at, winner, score_ns, score_ew) "
        "VALUES (?, ?, ?, ?, ?, ?)", (game.game_id, game.started_at, finished, winner, ns, ew))
    game_id = int(cursor.lastrowid or game.game_id)
    target.executemany(
        "INSERT INTO events (game_id, seq, at, event) VALUES (?, ?, ?, ?)",
        [(game_id, seq, at, json.dumps(event_to_json(event))) for seq, at, event in events])
    columns = {row[1] for row in source.execute("PRAGMA table_info(events)")}
    if "source" not in columns:
        return  # a journal older than provenance
    target.executemany(
        "UPDATE events SET source = ?, camera_read = ?, hand = ?, trick = ? "
        "WHERE game_id = ? AND seq = ?",
        [(*_provenance(source, game.game_id, seq), game_id, seq) for seq, _, _ in events])


def _provenance(source: sqlite3.Connection, game_id: int, seq: int) -> tuple[object, ...]:
    try:
        row = source.execute("SELECT source, camera_read, hand, trick FROM events "
                             "WHERE game_id = ? AND seq = ?", (game_id, seq)).fetchone()
    except sqlite3.DatabaseError:
        row = None
    return tuple(row) if row is not None else (None, None, None, None)


def mark_created(path: Path) -> None:
    """Leave the marker that says this journal exists (once, beside it)."""
    marker = marker_of(path)
    if not marker.exists():
        from datetime import UTC, datetime

        marker.write_text(f"created {datetime.now(UTC).isoformat(timespec='seconds')}\n")


def guard_for_start(path: Path) -> None:
    """Refuse to run on a journal that was deleted, emptied or damaged; the file is left as is."""
    marker = marker_of(path)
    advice = (f"it is kept as it is; `cardtable journal check {path}` tells what is readable and "
              f"`cardtable journal recover {path} --out NEW` rebuilds its valid part")
    if not path.exists() or path.stat().st_size == 0:
        if marker.exists():
            what = "is missing" if not path.exists() else "is empty (0 bytes)"
            raise JournalDamaged(
                f"the journal {path} {what}, but one was created here "
                f"({marker.read_text().strip()}): restore it from a backup, or remove {marker} "
                "to start a new journal on purpose")
        return
    health = check_journal(path)
    if health.problem is not None:
        raise JournalDamaged(f"the journal {path} is damaged ({health.problem}): {advice}")
    if health.games and health.games[-1].problem is not None:
        last = health.games[-1]
        raise JournalDamaged(
            f"the journal {path} is damaged: game {last.game_id}, event {last.valid + 1}: "
            f"{last.problem}; {advice}")
