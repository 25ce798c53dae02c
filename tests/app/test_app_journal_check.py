"""A damaged, emptied or deleted journal is never replaced silently; its valid part is rebuilt."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from app.journal import Journal
from app.journal_check import (
    JournalDamaged,
    check_journal,
    guard_for_start,
    mark_created,
    recover_journal,
)
from table import GameStarted, GameState
from table.simulate import simulate_game

ROOT = Path(__file__).resolve().parents[2]


def _journal(path: Path, games: int = 2, seed: int = 3) -> list[str]:
    """A journal of simulated games, as the table writes it; returns each game's log text."""
    texts = []
    with Journal(path) as journal:
        for number in range(games):
            game = simulate_game(seed=seed + number)
            start, *rest = game.events
            assert isinstance(start, GameStarted)
            game_id = journal.start_game(start)
            state = GameState(start)
            for event in rest:
                state.apply(event)
                journal.append(game_id, event, state)
            texts.append(journal.export(game_id))
    mark_created(path)
    return texts


def _spoil_event(path: Path, game_id: int, seq: int, text: str) -> None:
    db = sqlite3.connect(path)
    db.execute("UPDATE events SET event = ? WHERE game_id = ? AND seq = ?", (text, game_id, seq))
    db.commit()
    db.close()


def _cardtable(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app", *args], capture_output=True, text=True,
                          cwd=ROOT, check=False, timeout=120)


def test_a_sound_journal_checks_sound(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    _journal(path)
    health = check_journal(path)
    assert health.is_sound and len(health.games) == 2
    assert all(game.valid == game.events > 10 for game in health.games)
    guard_for_start(path)


@pytest.mark.parametrize("spoil", ['{"type": "card", "seat": "N"', '{"type": "shuffle"}',
                                   '{"type": "bid", "seat": "N", "bid": 99}', "\x00\xff"])
def test_a_spoilt_event_is_found_and_the_start_refused(tmp_path: Path, spoil: str) -> None:
    path = tmp_path / "journal.sqlite"
    _journal(path)
    _spoil_event(path, 2, 12, spoil)
    health = check_journal(path)
    assert not health.is_sound
    assert health.games[0].problem is None
    assert health.games[1].valid == 11 and health.games[1].problem
    before = path.read_bytes()
    with pytest.raises(JournalDamaged, match="game 2, event 12"):
        guard_for_start(path)
    assert path.read_bytes() == before


def test_recover_keeps_the_longest_valid_prefix_and_the_original(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    logs = _journal(path)
    _spoil_event(path, 2, 12, "{not json")
    before = path.read_bytes()
    out = tmp_path / "recovered.sqlite"
    health = recover_journal(path, out)
    assert health.is_sound and [game.valid for game in health.games] == [
        len(logs[0].splitlines()), 11]
    assert path.read_bytes() == before
    with Journal(out) as fresh:
        assert fresh.export(1) == logs[0]
        assert fresh.export(2).splitlines() == logs[1].splitlines()[:11]


def test_recover_will_not_overwrite(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    _journal(path, games=1)
    out = tmp_path / "exists.sqlite"
    out.write_text("mine")
    with pytest.raises(JournalDamaged, match="exists already"):
        recover_journal(path, out)
    assert out.read_text() == "mine"


def test_changed_bytes_in_the_file_are_damage(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    _journal(path, games=1)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    for offset in range(0, 100):
        data[offset] ^= 0x5A  # the header: SQLite no longer knows the file
    path.write_bytes(bytes(data))
    assert not check_journal(path).is_sound
    with pytest.raises(JournalDamaged, match="damaged"):
        guard_for_start(path)


@pytest.mark.parametrize("how", ["deleted", "emptied"])
def test_a_vanished_journal_is_not_started_afresh(tmp_path: Path, how: str) -> None:
    path = tmp_path / "journal.sqlite"
    _journal(path, games=1)
    for extra in (path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        extra.unlink(missing_ok=True)
    if how == "deleted":
        path.unlink()
    else:
        path.write_bytes(b"")
    with pytest.raises(JournalDamaged, match="was created here"):
        guard_for_start(path)


def test_a_new_state_directory_starts_without_complaint(tmp_path: Path) -> None:
    guard_for_start(tmp_path / "journal.sqlite")


def test_the_journal_commands(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    _journal(path)
    assert _cardtable("journal", "check", str(path)).returncode == 0
    _spoil_event(path, 1, 5, "[]")
    check = _cardtable("journal", "check", str(path))
    assert check.returncode == 1 and "game 1" in check.stdout and "DAMAGED" in check.stdout
    out = tmp_path / "new.sqlite"
    recover = _cardtable("journal", "recover", str(path), "--out", str(out))
    assert recover.returncode == 0, recover.stderr
    assert "is unchanged" in recover.stdout and out.exists()
    missing = _cardtable("journal", "check", str(tmp_path / "nothing.sqlite"))
    assert missing.returncode == 2 and "no such journal" in missing.stderr


def test_run_refuses_a_damaged_journal_with_a_message(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    _journal(path, games=1)
    _spoil_event(path, 1, 8, "{")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy")
    result = subprocess.run(
        [sys.executable, "-m", "app", "run", "--state-dir", str(tmp_path), "--no-display",
         "--max-seconds", "1"], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120,
        check=False)
    assert result.returncode == 2
    assert "damaged" in result.stderr and "Traceback" not in result.stderr


def test_recover_keeps_who_named_each_card_and_what_the_camera_read(tmp_path: Path) -> None:
    from app.journal import Provenance
    from table import CardPlayed

    path = tmp_path / "journal.sqlite"
    game = simulate_game(seed=6)
    start, *rest = game.events
    assert isinstance(start, GameStarted)
    sources = ("camera", "person")
    with Journal(path) as journal:
        game_id = journal.start_game(start)
        state = GameState(start)
        for number, event in enumerate(rest):
            state.apply(event)
            where = (Provenance(sources[number % 2], "?" if number % 3 else None, number // 30,
                                number % 12) if isinstance(event, CardPlayed) else None)
            journal.append(game_id, event, state, provenance=where)
        standing = journal.card_records(game_id)
    _spoil_event(path, game_id, len(game.events) - 3, "{not json")
    out = tmp_path / "recovered.sqlite"
    recover_journal(path, out)
    with Journal(out) as fresh:
        recovered = fresh.card_records(game_id)
    assert len(recovered) > 20 and {r.provenance.source for r in recovered if r.provenance} == {
        "camera", "person"}
    assert recovered == [r for r in standing if r.seq < len(game.events) - 3]
