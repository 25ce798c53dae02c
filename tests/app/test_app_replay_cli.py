"""The `replay` and `simulate` commands, run through the real entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from table.log import dump_events
from tests.table.reneges_data import RENEGE_HAND
from tests.table.tablelog import HAND_E3, events


def write_log(path: Path, *lines: str) -> Path:
    path.write_text(dump_events(events(*lines)), encoding="utf-8")
    return path


def test_replay_text_tells_the_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = write_log(tmp_path / "game.jsonl", *RENEGE_HAND)
    assert main(["replay", str(log)]) == 0
    out = capsys.readouterr().out
    assert "bidding: E 3, S pass, W pass, N pass" in out
    assert "contract: E bid 3, trump ♥" in out
    assert "trick 1: E:J♥ S:9♥ W:J♦ N:Q♥ -> E" in out
    assert "RENEGE by N: trick 3, ♠ led, played 10♣; proved by J♠ in trick 4" in out
    assert "points: NS +1, EW +3" in out
    assert "Score: NS 1, EW 3; no winner yet" in out


def test_replay_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = write_log(tmp_path / "game.jsonl", *HAND_E3, "bid S 4")
    assert main(["replay", str(log), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["score"] == {"NS": 3, "EW": 3} and data["winner"] is None
    assert [hand["result"] for hand in data["hands"]] == ["played", "in_progress"]
    assert data["hands"][0]["contract"] == {"seat": "E", "bid": 3, "trump": "H"}
    assert data["hands"][1]["points"] == {"NS": 0, "EW": 0}


def test_invalid_log_exits_2_naming_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text(dump_events(events("bid E 4", "bid S 4")), encoding="utf-8")
    assert main(["replay", str(log), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("line 3: S bid 4, but the bid to beat is 4")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "line 1: the log is empty"),
        ('{"type": "bid", "seat": "E", "bid": 3}\n', "line 1: the first line must be a 'game'"),
        ('{"type": "game", "dealer": "X"}\n', "line 1: 'X' is not a seat"),
        ('{"type": "game", "dealer": "N", "rules": {"jokers": true}}\n', "unknown rule option"),
        ('{"type": "game", "dealer": "N"}\n[1, 2]\n', "line 2: an event must be a JSON object"),
        ('{"type": "game", "dealer": "N"}\n{"type": "bid", "seat": "E"}\n', "needs a 'bid'"),
    ],
)
def test_malformed_logs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text(content, encoding="utf-8")
    assert main(["replay", str(log)]) == 2
    assert message in capsys.readouterr().err


def test_missing_log_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path / "nope.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_simulate_writes_logs_that_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sim"
    assert main(["simulate", "--games", "2", "--seed", "7", "--out", str(out)]) == 0
    logs = sorted(out.glob("*.jsonl"))
    assert len(logs) == 2
    capsys.readouterr()
    for log in logs:
        assert main(["replay", str(log), "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["winner"] in ("NS", "EW")


@pytest.mark.parametrize(
    "args", [["--games", "0"], ["--renege-rate", "2"], ["--rules", '{"target": -1}']]
)
def test_simulate_bad_arguments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    assert main(["simulate", "--out", str(tmp_path), *args]) == 2
    assert capsys.readouterr().err
