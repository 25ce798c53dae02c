"""`cardtable run` on a script: headless screens, acks, journal, export, resume."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from app.script import ScriptError, load_script, script_from_events
from table.simulate import simulate_game
from tests.table.tablelog import HAND_E3, events


def write_script(path: Path, lines: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


@pytest.fixture(autouse=True)
def headless(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.delenv("CARDTABLE_STATE_DIR", raising=False)


def test_a_scripted_hand_headless(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = write_script(tmp_path / "hand.jsonl", script_from_events(events(*HAND_E3)))
    state, shots = tmp_path / "state", tmp_path / "shots"
    assert main(["run", "--script", str(script), "--state-dir", str(state),
                 "--headless", str(shots)]) == 0
    acks = capsys.readouterr().out.split("\n")
    assert acks[0] == "ack 1 2" and acks[-2].startswith("ack ")
    pngs = sorted(shots.glob("*.png"))
    assert pngs[0].name == "0001_start.png"
    assert len(pngs) == 1 + 5 + 24  # start, four bids and trump, 24 cards
    assert main(["games", "--state-dir", str(state)]) == 0
    header, row = capsys.readouterr().out.splitlines()
    assert header.split() == ["game", "started", "(UTC)", "NS", "EW", "events", "status"]
    assert row.split()[0] == "1" and row.split()[3:] == ["3", "3", "30", "in", "progress"]
    log = tmp_path / "game.jsonl"
    assert main(["export", "1", "--state-dir", str(state), "--out", str(log)]) == 0
    assert main(["replay", str(log), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["score"] == {"NS": 3, "EW": 3}


def test_run_resumes_a_whole_game_in_two_halves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = simulate_game(seed=4, dealer=None)
    lines = script_from_events(game.events)
    rules = game.state.rules
    config = tmp_path / "table.toml"
    config.write_text(f'[game]\ndealer = "{game.events[0].dealer}"\n')  # type: ignore[union-attr]
    assert rules.target == 32
    script = write_script(tmp_path / "game.jsonl", lines)
    state = tmp_path / "state"
    half = len(lines) // 2
    half_script = write_script(tmp_path / "half.jsonl", lines[:half])

    def run(script_path: Path, *extra: str) -> int:
        return main(["run", "--config", str(config), "--script", str(script_path),
                     "--state-dir", str(state), "--no-display", *extra])

    assert run(half_script) == 0
    assert run(script, "--script-from", str(half + 1)) == 0
    capsys.readouterr()
    assert main(["export", "1", "--state-dir", str(state), "--out", str(tmp_path / "x.jsonl")]) == 0
    assert main(["replay", str(tmp_path / "x.jsonl"), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["winner"] == game.state.winner
    assert summary["score"] == {team.value: score for team, score in game.state.scores.items()}


def test_bad_script_and_config_stop_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "bad.jsonl"
    script.write_text('{"press": "bid", "seat": "E", "bid": 3}\n{"press": "dance"}\n')
    assert main(["run", "--script", str(script), "--state-dir", str(tmp_path)]) == 2
    assert "line 2: unknown press 'dance'" in capsys.readouterr().err
    config = tmp_path / "table.toml"
    config.write_text("[gmae]\n")
    assert main(["run", "--config", str(config), "--state-dir", str(tmp_path)]) == 2
    assert "unknown section [gmae]" in capsys.readouterr().err
    with pytest.raises(ScriptError, match="line 1"):
        write_script(script, [])
        script.write_text('{"card": "8H", "seat": "E"}\n')
        load_script(script)


def test_journal_commands_report_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "7", "--state-dir", str(tmp_path)]) == 2
    assert "no journal in" in capsys.readouterr().err
    assert main(["games", "--state-dir", str(tmp_path)]) == 2
    assert "no journal in" in capsys.readouterr().err
    assert not (tmp_path / "journal.sqlite").exists()  # reading creates nothing
    assert main(["new-game", "--state-dir", str(tmp_path)]) == 0
    assert "game 1 ready, N deals" in capsys.readouterr().out
    assert main(["export", "7", "--state-dir", str(tmp_path)]) == 2
    assert "no game 7" in capsys.readouterr().err
    assert main(["games", "--state-dir", str(tmp_path)]) == 0
    bad = tmp_path / "bad.toml"
    bad.write_text("[nope]\n")
    assert main(["games", "--config", str(bad)]) == 2
    assert "unknown section [nope]" in capsys.readouterr().err


@pytest.mark.parametrize("no_web", [False, True])
def test_no_web_leaves_the_page_and_mqtt_to_cardtable_web(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_web: bool
) -> None:
    import socket

    script = write_script(tmp_path / "hand.jsonl", script_from_events(events(*HAND_E3)))
    with socket.create_server(("127.0.0.1", 0)) as taken:  # the port the page would listen on
        config = tmp_path / "table.toml"
        config.write_text(f'[web]\nhost = "127.0.0.1"\nport = {taken.getsockname()[1]}\n')
        extra = ["--no-web"] if no_web else []
        assert main(["run", "--config", str(config), "--script", str(script), "--state-dir",
                     str(tmp_path / "state"), "--no-display", *extra]) == 0
    tried = "the web page is off: cannot listen" in capsys.readouterr().err
    assert tried is not no_web
