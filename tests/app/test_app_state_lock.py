"""One table per state directory: a second table or `new-game` meets the lock, changes nothing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.journal import Journal
from app.state_lock import StateLock, TableRunning, running_table
from table import GameStarted

ROOT = Path(__file__).resolve().parents[2]

HOLD = """
import sys, time
from pathlib import Path
from app.state_lock import StateLock
StateLock(Path(sys.argv[1])).acquire()
print("held", flush=True)
time.sleep(60)
"""


def _cardtable(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy")
    return subprocess.run([sys.executable, "-m", "app", *args], capture_output=True, text=True,
                          cwd=ROOT, env=env, check=False, timeout=120)


@pytest.fixture
def other_table(tmp_path: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holding the state directory, as a running table does."""
    process = subprocess.Popen([sys.executable, "-c", HOLD, str(tmp_path)], cwd=ROOT,
                               stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None and process.stdout.readline().strip() == "held"
    yield process
    process.kill()
    process.wait()


def test_a_second_lock_is_refused_with_the_holders_pid(
    tmp_path: Path, other_table: subprocess.Popen[str]
) -> None:
    assert running_table(tmp_path) == other_table.pid
    with pytest.raises(TableRunning, match=f"pid {other_table.pid}"):
        StateLock(tmp_path).acquire()


def test_the_kernel_releases_the_lock_of_a_killed_table(
    tmp_path: Path, other_table: subprocess.Popen[str]
) -> None:
    other_table.send_signal(signal.SIGKILL)
    other_table.wait()
    assert running_table(tmp_path) is None
    with StateLock(tmp_path):
        assert running_table(tmp_path) == os.getpid()
    assert running_table(tmp_path) is None


def test_a_second_table_does_not_start(tmp_path: Path, other_table: subprocess.Popen[str]) -> None:
    result = _cardtable("run", "--state-dir", str(tmp_path), "--no-display", "--max-seconds", "1")
    assert result.returncode == 2
    assert "already running" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "journal.sqlite").exists()


def test_new_game_meeting_a_running_table_changes_nothing(
    tmp_path: Path, other_table: subprocess.Popen[str]
) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        journal.start_game(GameStarted())
        before = journal.games()
    result = _cardtable("new-game", "--state-dir", str(tmp_path))
    assert result.returncode == 2 and "already running" in result.stderr
    with Journal(tmp_path / "journal.sqlite") as journal:
        assert journal.games() == before


def test_reading_commands_still_read_beside_a_running_table(
    tmp_path: Path, other_table: subprocess.Popen[str]
) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        journal.start_game(GameStarted())
    result = _cardtable("games", "--state-dir", str(tmp_path))
    assert result.returncode == 0 and "in progress" in result.stdout


def test_new_game_works_when_no_table_runs(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        journal.start_game(GameStarted())
    result = _cardtable("new-game", "--state-dir", str(tmp_path))
    assert result.returncode == 0, result.stderr
