"""The table run by an ordinary user (as systemd runs it, `User=cardtable`) on a state directory
or journal that user cannot write: one line naming it, exit 1, nothing lost; once the files
are the user's, the game resumes.

The tests run the table as `nobody`: they need root to switch users, and are skipped without
it. The child drops to the user after its imports, because the interpreter may live where that
user cannot read (a pyenv under /root); every file the table opens is opened as the user.
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.script import script_from_events
from app.state_dir import ENVIRONMENT_EXIT
from table.simulate import SimulatedGame, simulate_game

ROOT = Path(__file__).resolve().parents[2]
USER = "nobody"
AS_USER = """
import os, sys
import app.cli, app.runner, app.journal, app.journal_check, app.state_dir, app.script
import app.controller, app.run, app.control, sqlite3, fcntl, json, tomllib
app.cli.build_parser()  # every command module, read while the files can be
uid, gid = int(sys.argv[1]), int(sys.argv[2])
os.setgroups([])
os.setgid(gid)
os.setuid(uid)
assert os.geteuid() == uid and os.getegid() == gid
sys.exit(app.cli.main(sys.argv[3:]))
"""


def _user() -> pwd.struct_passwd:
    if os.geteuid() != 0:
        pytest.skip("switching to another user needs root")
    try:
        return pwd.getpwnam(USER)
    except KeyError:
        pytest.skip(f"no user {USER!r} here")


@pytest.fixture
def folder() -> Iterator[Path]:
    """A folder every user may enter (pytest's own are private to root)."""
    path = Path(tempfile.mkdtemp(prefix="cardtable-user-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path)


def as_user(user: pwd.struct_passwd, *args: str) -> subprocess.CompletedProcess[str]:
    """`cardtable ARGS` run as `user`."""
    return subprocess.run(
        [sys.executable, "-c", AS_USER, str(user.pw_uid), str(user.pw_gid), *args],
        capture_output=True, text=True, cwd=ROOT, timeout=180, check=False,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )  # fmt: skip


def as_root(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=180, check=False)


def scripts(folder: Path, game: SimulatedGame) -> tuple[Path, Path, int]:
    """The first half of the game's script, the whole of it, and where the second half starts."""
    lines = script_from_events(game.events)
    half = len(lines) // 2
    paths = []
    for name, part in (("half.jsonl", lines[:half]), ("whole.jsonl", lines)):
        path = folder / name
        path.write_text("".join(json.dumps(line) + "\n" for line in part))
        paths.append(path)
    return paths[0], paths[1], half + 1


def files_of(state: Path) -> dict[str, bytes]:
    """The journal's files as they hold data: a lock's pid, an index or an empty WAL aside."""
    return {path.name: path.read_bytes() for path in sorted(state.iterdir())
            if path.name != "table.lock" and not path.name.endswith("-shm")
            and not (path.name.endswith("-wal") and path.stat().st_size == 0)}


def one_clear_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == ENVIRONMENT_EXIT != 2, result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, result.stderr
    return result.stderr


def test_a_state_dir_the_user_cannot_write_exits_1_naming_it(folder: Path) -> None:
    user = _user()
    _, whole, _ = scripts(folder, simulate_game(seed=8))
    state = folder / "state"
    state.mkdir(mode=0o755)  # root's: others may read it, not write it
    err = one_clear_line(as_user(user, "run", "--script", str(whole), "--state-dir",
                                 str(state), "--no-display", "--no-web"))
    assert f"the state directory {state} cannot be used: permission denied" in err
    assert "(table.lock)" in err
    assert list(state.iterdir()) == []


def test_files_left_by_root_are_named_kept_and_the_game_resumes_once_they_are_the_users(
    folder: Path,
) -> None:
    user = _user()
    game = simulate_game(seed=9, dealer=None)
    config = folder / "table.toml"
    config.write_text(f'[game]\ndealer = "{game.events[0].dealer}"\n')  # type: ignore[union-attr]
    half, whole, second = scripts(folder, game)
    state = folder / "state"
    run = ("run", "--config", str(config), "--state-dir", str(state), "--no-display", "--no-web")
    assert as_root(*run, "--script", str(half)).returncode == 0  # someone ran it with sudo once
    os.chown(state, user.pw_uid, user.pw_gid)  # the folder is the user's, its files root's
    kept = files_of(state)
    rest = ("--script", str(whole), "--script-from", str(second))

    err = one_clear_line(as_user(user, *run, *rest))
    assert f"the state directory {state} cannot be used: permission denied (table.lock)" in err
    os.chown(state / "table.lock", user.pw_uid, user.pw_gid)
    err = one_clear_line(as_user(user, *run, *rest))
    assert f"the journal {state / 'journal.sqlite'} cannot write: read-only" in err
    assert files_of(state) == kept  # nothing written, nothing lost

    for path in state.iterdir():
        os.chown(path, user.pw_uid, user.pw_gid)
    finished = as_user(user, *run, *rest)
    assert finished.returncode == 0, finished.stderr
    out = folder / "game.jsonl"
    assert as_root("export", "1", "--state-dir", str(state), "--out", str(out)).returncode == 0
    summary = json.loads(as_root("replay", str(out), "--json").stdout)
    assert summary["winner"] == game.state.winner
    assert summary["score"] == {team.value: score for team, score in game.state.scores.items()}
