"""The hint to enrol a deck when the camera starts without a profile."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from app.camera_demo import write_recording
from app.camera_feed import NO_DECK_NOTICE, deck_notice
from app.cli import main


@pytest.fixture(autouse=True)
def headless(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")


def test_the_notice_is_given_only_without_a_profile(tmp_path: Path) -> None:
    assert deck_notice(None) == NO_DECK_NOTICE
    assert deck_notice(tmp_path / "deck.npz") is None
    assert "cardtable deck enroll" in NO_DECK_NOTICE and "four-colour" in NO_DECK_NOTICE


def _short_recording(tmp_path: Path, deck: bool) -> Path:
    """A recorded table of a few frames, its config with or without the deck profile."""
    config, _ = write_recording(tmp_path / "rec", max_tricks=1, size=(640, 360))
    frames = sorted(p for p in (tmp_path / "rec" / "frames").iterdir() if p.suffix != ".json")
    for frame in frames[5:]:
        if frame.is_dir():
            shutil.rmtree(frame)
        else:
            frame.unlink()
    if not deck:
        text = config.read_text(encoding="utf-8").replace('deck = "deck.npz"\n', "")
        config.write_text(text, encoding="utf-8")
    return config


@pytest.mark.parametrize("deck", [False, True])
def test_cardtable_run_says_to_enrol_a_deck_only_without_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], deck: bool) -> None:
    config = _short_recording(tmp_path, deck)
    script = tmp_path / "wait.jsonl"
    script.write_text('{"wait": 0.1}\n', encoding="utf-8")
    assert main(["run", "--config", str(config), "--script", str(script), "--no-display",
                 "--max-seconds", "120", "--state-dir", str(tmp_path / "state")]) == 0
    said = capsys.readouterr().err
    assert (NO_DECK_NOTICE in said) is not deck
