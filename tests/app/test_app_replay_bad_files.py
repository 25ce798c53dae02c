"""`replay`, `demo --narrate --log` and `simulate` on bad input: a clear message and exit 2."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from app.cli import main

GAME = '{"type": "game", "dealer": "N", "rules": {}}\n'
BID = '{"type": "bid", "seat": "E", "bid": 3}\n'


def binary(path: Path) -> None:
    path.write_bytes(bytes(random.Random(7).randrange(256) for _ in range(4096)))


def text(content: str) -> Callable[[Path], None]:
    def write(path: Path) -> None:
        path.write_text(content, encoding="utf-8")

    return write


def raw(content: bytes) -> Callable[[Path], None]:
    def write(path: Path) -> None:
        path.write_bytes(content)

    return write


def folder(path: Path) -> None:
    path.mkdir()


def missing(path: Path) -> None:
    del path


def event(**fields: object) -> str:
    return json.dumps(fields) + "\n"


# Each bad file, and how the message on standard error starts.
BAD_FILES: dict[str, tuple[Callable[[Path], None], str]] = {
    "binary": (binary, "line "),
    "invalid utf-8": (raw(GAME.encode() + b'{"type": "undo"\xff}\n'), "line 2: not UTF-8"),
    "latin-1": (raw(GAME.encode() + '{"type": "é"}\n'.encode("latin-1")), "line 2: not UTF-8"),
    "utf-16": (raw(GAME.encode("utf-16")), "line 1:"),
    "empty": (text(""), "line 1: the log is empty"),
    "only a newline": (text("\n"), "line 1: a blank line"),
    "huge card": (text(GAME + event(type="card", seat="E", card="Q" * 10**7)), "line 2"),
    "huge line of digits": (
        text(GAME + '{"type": "bid", "bid": ' + "7" * 100_000 + "}\n"),
        "line 2",
    ),
    "5000-digit bid string": (text(GAME + event(type="bid", seat="E", bid="4" * 5000)), "line 2"),
    "superscript bid": (text(GAME + event(type="bid", seat="E", bid="³")), "line 2"),
    "deeply nested": (text(GAME + "[" * 1000 + "]" * 1000 + "\n"), "line 2"),
    "very deeply nested": (text(GAME + '{"a": ' * 100_000 + "1" + "}" * 100_000), "line 2"),
    "nested field": (text(GAME + event(type="card", seat="E", card=[[[["JH"]]]])), "line 2"),
    "wrong types": (text(GAME + event(type="bid", seat=["E"], bid={"n": 3})), "line 2"),
    "type not a string": (text(GAME + event(type=7)), "line 2: unknown event type 7"),
    "a list": (text("[1, 2, 3]\n"), "line 1: an event must be a JSON object"),
    "a string": (text('"game"\n'), "line 1: an event must be a JSON object"),
    "null rules": (text('{"type": "game", "dealer": "N", "rules": null}\n'), "line 1"),
    "huge rule name": (text(event(type="game", dealer="N", rules={"x" * 10**6: 1})), "line 1"),
    "blank line": (text(GAME + "\n" + BID), "line 2: a blank line"),
    "form feed": (text(GAME + "\f" + BID), "line 2"),
    "line separator": (text(GAME[:-1] + "\u2028" + BID), "line 1"),
    "truncated": (text(GAME + BID[:20]), "line 2: not valid JSON"),
    "nul bytes": (raw(b"\x00" * 100), "line 1"),
    "a directory": (folder, "cannot read"),
    "missing": (missing, "cannot read"),
}


@pytest.fixture(params=sorted(BAD_FILES), ids=str)
def bad_file(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, str]:
    make, start = BAD_FILES[request.param]
    path = tmp_path / "bad.jsonl"
    make(path)
    return path, start


COMMANDS = {
    "replay": ["replay"],
    "replay --json": ["replay", "--json"],
    "demo --narrate": ["demo", "--narrate", "--log"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_bad_file_gives_a_short_message_and_exit_2(
    bad_file: tuple[Path, str], command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path, start = bad_file
    status = main([*COMMANDS[command], str(path)])
    captured = capsys.readouterr()
    assert status == 2, captured.err
    assert captured.err.startswith(start), captured.err[:300]
    assert captured.err.count("\n") == 1
    assert len(captured.err) < 300, captured.err[:300]
    if command != "demo --narrate":
        assert captured.out == ""


@pytest.mark.parametrize("name", ["binary", "very deeply nested", "huge card", "a directory"])
def test_the_real_command_exits_2_without_a_traceback(tmp_path: Path, name: str) -> None:
    make, start = BAD_FILES[name]
    path = tmp_path / "bad.jsonl"
    make(path)
    result = subprocess.run(
        [sys.executable, "-m", "app", "replay", str(path), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith(start) and len(result.stderr) < 300


def test_narration_tells_the_good_lines_before_the_bad_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.jsonl"
    path.write_text(GAME + BID + '{"type": "bid", "seat": "S", "bid": "PASS"}\n', encoding="utf-8")
    assert main(["demo", "--narrate", "--log", str(path)]) == 2
    captured = capsys.readouterr()
    assert "E bids 3" in captured.out
    assert captured.err.startswith("line 3: 'PASS' is not a bid")


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        ("[" * 5000, "--rules: not a JSON object of options"),
        ("{", "--rules: not a JSON object of options"),
        ('{"target": "x"}', "--rules: target must be a positive whole number"),
        ("[1]", "--rules: rules must be an object of options"),
    ],
)
def test_simulate_with_bad_rules_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rules: str, words: str
) -> None:
    assert main(["simulate", "--out", str(tmp_path / "logs"), "--rules", rules]) == 2
    assert capsys.readouterr().err.startswith(words)
    assert not (tmp_path / "logs").exists()


def test_simulate_out_naming_a_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "taken"
    target.write_text("mine", encoding="utf-8")
    assert main(["simulate", "--out", str(target)]) == 2
    assert capsys.readouterr().err.startswith(f"--out {target} is a file")
    assert target.read_text(encoding="utf-8") == "mine"
    assert main(["simulate", "--out", str(target / "below")]) == 2
    assert "cannot write" in capsys.readouterr().err
