"""`cardtable run --demo`: the table program on the demo's recorded camera and buttons."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.camera_demo import DEMO_GAME
from app.cli import main
from app.state_lock import StateLock
from table import CardPlayed, TrumpNamed
from table.log import parse_lines


@pytest.fixture(autouse=True)
def headless(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")


def test_the_first_trick_is_journaled_and_read_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state, screens = tmp_path / "state", tmp_path / "screens"
    assert main(["run", "--demo", "--tricks", "1", "--state-dir", str(state),
                 "--headless", str(screens)]) == 0
    out = capsys.readouterr().out
    assert f"cardtable games --state-dir {state}" in out and "game 1: no winner yet" in out
    log = tmp_path / "game.jsonl"
    assert main(["export", "1", "--state-dir", str(state), "--out", str(log)]) == 0
    with DEMO_GAME.open() as handle:
        shipped = [event for _, event in parse_lines(handle)]
    with log.open() as handle:
        played = [event for _, event in parse_lines(handle)]
    first_trick = shipped.index(next(e for e in shipped if isinstance(e, CardPlayed))) + 4
    assert played == shipped[:first_trick]
    assert any(isinstance(event, TrumpNamed) for event in played)
    names = sorted(path.name for path in screens.glob("*.png"))
    assert names[0].endswith("_start.png") and names[-1].endswith("_the_end_no_winner.png")
    assert main(["games", "--state-dir", str(state)]) == 0
    assert "in progress" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--demo", "--tricks", "0"], "--tricks must be at least 1, not 0"),
        (["--tricks", "2"], "--tricks goes with --demo"),
        (["--real-time"], "--real-time goes with --demo"),
        (["--demo", "--config", "table.toml"], "leave out --config and --script"),
        (["--demo", "--script", "presses.jsonl"], "leave out --config and --script"),
    ],
)
def test_options_that_do_not_go_with_the_demo_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str], message: str
) -> None:
    state = tmp_path / "state"
    assert main(["run", *arguments, "--state-dir", str(state), "--no-display"]) == 2
    assert message in capsys.readouterr().err
    assert not (state / "journal.sqlite").exists()


def test_a_table_already_running_in_the_state_directory_is_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    state.mkdir()
    with StateLock(state):
        assert main(["run", "--demo", "--state-dir", str(state), "--no-display"]) == 2
    assert "already running" in capsys.readouterr().err
    assert not (state / "journal.sqlite").exists()
