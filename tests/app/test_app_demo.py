"""The demo command and the command-line dispatcher."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from app.commands import DEMO_LOG


def test_demo_plays_the_recorded_game_to_its_end(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--narrate"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("New game, dealer")
    assert "!!! RENEGE by" in out
    assert "win the game" in out
    assert main(["replay", str(DEMO_LOG), "--json"]) == 0
    final = json.loads(capsys.readouterr().out)
    ns, ew = final["score"]["NS"], final["score"]["EW"]
    assert f"NS {ns} - EW {ew}" in out


def test_demo_refuses_an_invalid_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text('{"type": "game", "dealer": "N"}\n{"type": "bid", "seat": "S", "bid": 3}\n')
    assert main(["demo", "--narrate", "--log", str(log)]) == 2
    assert capsys.readouterr().err.startswith("line 2: S bid 3 out of turn")


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "replay" in capsys.readouterr().out


@pytest.mark.parametrize("tricks", ["0", "-3"])
def test_demo_refuses_fewer_than_one_trick(tricks: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--tricks", tricks]) == 2
    assert capsys.readouterr().err.startswith(f"--tricks must be at least 1, not {tricks}")
