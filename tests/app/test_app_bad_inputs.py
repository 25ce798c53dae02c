"""Every command fed bad files and paths ends with a message and exit 2, never a traceback."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from app.cli import main

BadFile = Callable[[Path], Path]


def _write(name: str, data: bytes) -> BadFile:
    def make(folder: Path) -> Path:
        path = folder / name
        path.write_bytes(data)
        return path

    return make


def _missing(folder: Path) -> Path:
    return folder / "no-such-file"


def _folder(folder: Path) -> Path:
    path = folder / "a-folder"
    path.mkdir()
    return path


BAD_FILES: dict[str, BadFile] = {
    "binary": _write("binary.bin", bytes(range(256)) * 8),
    "invalid_utf8": _write("latin.txt", b'{"type": "game", "dealer": "\xe9"}\n'),
    "empty": _write("empty.txt", b""),
    "huge_line": _write("huge.txt", b'{"type": "' + b"x" * 2_000_000 + b'"}\n'),
    "deeply_nested": _write("nested.json", b"[" * 5000 + b"]" * 5000 + b"\n"),
    "wrong_types": _write("types.json", b'{"type": 5, "seat": [], "rules": "none"}\n'),
    "toml_garbage": _write("garbage.toml", b"[[[ = \x00\n"),
    "missing": _missing,
    "a_folder": _folder,
}

COMMANDS: dict[str, Callable[[Path, Path], list[str]]] = {
    "replay": lambda bad, tmp: ["replay", str(bad)],
    "replay_json": lambda bad, tmp: ["replay", str(bad), "--json"],
    "narrate": lambda bad, tmp: ["demo", "--narrate", "--log", str(bad)],
    "run_config": lambda bad, tmp: ["run", "--config", str(bad), "--no-display",
                                    "--max-seconds", "0.2", "--state-dir", str(tmp / "s")],
    "run_script": lambda bad, tmp: ["run", "--script", str(bad), "--no-display",
                                    "--max-seconds", "0.2", "--state-dir", str(tmp / "s")],
    "games_config": lambda bad, tmp: ["games", "--config", str(bad)],
    "games_state": lambda bad, tmp: ["games", "--state-dir", str(bad)],
    "export_state": lambda bad, tmp: ["export", "1", "--state-dir", str(bad)],
    "new_game_config": lambda bad, tmp: ["new-game", "--config", str(bad),
                                         "--state-dir", str(tmp / "s")],
    "journal_check": lambda bad, tmp: ["journal", "check", str(bad)],
    "journal_recover": lambda bad, tmp: ["journal", "recover", str(bad), "--out",
                                         str(tmp / "new.sqlite")],
    "check_hardware": lambda bad, tmp: ["check-hardware", "--mock", "--config", str(bad)],
    "simulate_rules": lambda bad, tmp: ["simulate", "--games", "1", "--rules",
                                        bad.read_text(errors="replace")[:200]
                                        if bad.is_file() else "{", "--out", str(tmp / "o")],
    "vision_detect": lambda bad, tmp: ["vision", "detect", str(bad)],
    "vision_detect_deck": lambda bad, tmp: ["vision", "detect", str(bad), "--deck", str(bad)],
}


@pytest.fixture(autouse=True)
def _quiet_screen(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("CARDTABLE_STATE_DIR", str(tmp_path / "state"))


@pytest.mark.parametrize("bad_name", sorted(BAD_FILES))
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_bad_input_is_a_message_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, bad_name: str
) -> None:
    bad = BAD_FILES[bad_name](tmp_path)
    argv = COMMANDS[command](bad, tmp_path)
    try:
        status = main(argv)
    except SystemExit as stop:  # argparse refusing an argument
        status = int(stop.code or 0)
    captured = capsys.readouterr()
    assert status in (0, 1, 2) if command == "journal_check" else status in (0, 2), captured.err
    assert "Traceback" not in captured.err
    if status == 2:
        assert captured.err.strip(), "a refusal must say why"
        assert len(captured.err) < 4000, "the message must not echo the whole input"


def test_an_unwritable_output_is_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    inside_a_file = blocker / "out"
    for argv in (["simulate", "--games", "1", "--out", str(inside_a_file)],
                 ["screenshots", str(inside_a_file)]):
        assert main(argv) == 2, argv
        assert capsys.readouterr().err.strip()
    assert os.listdir(tmp_path) == ["a-file"] or "state" in os.listdir(tmp_path)
