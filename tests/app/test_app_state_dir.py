"""A state directory the table cannot write is the environment's fault: one line naming it,
exit 1 (systemd starts the table again), nothing changed; a path that is wrong stays exit 2."""

from __future__ import annotations

import errno
import json
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest

from app.cli import main
from app.script import script_from_events
from app.state_dir import ENVIRONMENT_EXIT, environment_problem
from table.simulate import simulate_game
from tests.harness.read_only import immutable, immutable_unsupported, read_only_mount


@pytest.fixture(autouse=True)
def headless(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.delenv("CARDTABLE_STATE_DIR", raising=False)


@contextmanager
def immutable_folder(folder: Path) -> Iterator[None]:
    why = immutable_unsupported(folder)
    if why is not None:
        pytest.skip(f"cannot make a folder refuse root's writes: {why}")
    with immutable([folder]):
        yield


@contextmanager
def mounted_read_only(folder: Path) -> Iterator[None]:
    with read_only_mount(folder) as why:
        if why is not None:
            pytest.skip(f"cannot mount a folder read-only: {why}")
        yield


READ_ONLY: dict[str, Callable[[Path], AbstractContextManager[None]]] = {
    "immutable folder": immutable_folder,
    "read-only bind mount": mounted_read_only,
}


def write_script(path: Path, lines: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def files_of(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


@pytest.mark.parametrize("way", sorted(READ_ONLY))
def test_an_empty_state_dir_that_cannot_be_written_exits_1_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], way: str
) -> None:
    lines = script_from_events(simulate_game(seed=2).events)[:6]
    script = write_script(tmp_path / "hand.jsonl", lines)
    state = tmp_path / "state"
    state.mkdir()
    with READ_ONLY[way](state):
        status = main(["run", "--script", str(script), "--state-dir", str(state), "--no-display"])
    err = capsys.readouterr().err
    assert status == ENVIRONMENT_EXIT != 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert f"the state directory {state} cannot be used" in err, err
    assert "systemd starts it again" in err, err
    assert list(state.iterdir()) == []


@pytest.mark.parametrize("way", sorted(READ_ONLY))
def test_a_game_on_a_state_dir_gone_read_only_is_kept_and_resumes_once_writable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], way: str
) -> None:
    game = simulate_game(seed=5, dealer=None)
    lines = script_from_events(game.events)
    config = tmp_path / "table.toml"
    config.write_text(f'[game]\ndealer = "{game.events[0].dealer}"\n')  # type: ignore[union-attr]
    state = tmp_path / "state"
    half = len(lines) // 2
    whole = write_script(tmp_path / "game.jsonl", lines)

    def run(*extra: str) -> int:
        return main(["run", "--config", str(config), "--state-dir", str(state), "--no-display",
                     *extra])

    assert run("--script", str(write_script(tmp_path / "half.jsonl", lines[:half]))) == 0
    before = files_of(state)
    capsys.readouterr()
    with READ_ONLY[way](state):
        status = run("--script", str(whole), "--script-from", str(half + 1))
        captured = capsys.readouterr()
        assert files_of(state) == before
    assert status == ENVIRONMENT_EXIT, captured.err
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err, captured.err
    assert str(state) in captured.err and "read-only" in captured.err, captured.err
    assert "ack " not in captured.out  # not one line was taken
    assert run("--script", str(whole), "--script-from", str(half + 1)) == 0
    capsys.readouterr()
    out = tmp_path / "game.log.jsonl"
    assert main(["export", "1", "--state-dir", str(state), "--out", str(out)]) == 0
    assert main(["replay", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["winner"] == game.state.winner
    assert summary["score"] == {team.value: score for team, score in game.state.scores.items()}


@pytest.mark.parametrize(
    ("code", "said"),
    [(errno.EROFS, "read-only"), (errno.EACCES, "permission denied"),
     (errno.EPERM, "not permitted"), (errno.ENOSPC, "full"), (errno.EIO, "disk error"),
     (errno.ENOENT, "missing")],
)
def test_disk_and_permission_errors_are_the_environments_and_name_the_file(
    tmp_path: Path, code: int, said: str
) -> None:
    error = OSError(code, "x", str(tmp_path / "table.lock"))
    problem = environment_problem(error, tmp_path)
    assert problem is not None and said in problem
    assert problem.startswith(f"the state directory {tmp_path} cannot be used")
    assert "(table.lock)" in problem


@pytest.mark.parametrize("code", [errno.EEXIST, errno.ENOTDIR, errno.ENAMETOOLONG, errno.EISDIR])
def test_a_path_that_is_wrong_is_no_environment_problem(tmp_path: Path, code: int) -> None:
    assert environment_problem(OSError(code, "x", str(tmp_path)), tmp_path) is None


def test_a_state_dir_that_is_a_file_is_still_a_bad_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = write_script(tmp_path / "hand.jsonl",
                          script_from_events(simulate_game(seed=2).events)[:3])
    not_a_folder = tmp_path / "state"
    not_a_folder.write_text("")
    assert main(["run", "--script", str(script), "--state-dir", str(not_a_folder),
                 "--no-display"]) == 2
    err = capsys.readouterr().err
    assert str(not_a_folder) in err and "Traceback" not in err
