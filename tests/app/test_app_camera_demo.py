"""The camera demo: rendered frames through recognition, referee and screen, end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.camera_demo import DEMO_GAME, demo_faces, presses_by_hand, run_demo, write_recording
from app.cli import main
from table import CardPlayed
from table.log import parse_lines


@pytest.fixture(autouse=True)
def headless(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")


def test_demo_deck_has_every_card_with_alpha() -> None:
    faces = demo_faces()
    assert len(faces) == 24 and all(face.shape[2] == 4 for face in faces.values())


def test_presses_are_grouped_by_hand() -> None:
    presses = presses_by_hand(DEMO_GAME)
    assert sorted(presses) == [1, 2]
    assert [type(p).__name__ for p in presses[1]][-1] == "TrumpPressed"


def test_two_tricks_of_the_demo_reach_the_journal_and_the_screen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    result = run_demo(tmp_path, max_tricks=2, say=lambda line: None)
    with DEMO_GAME.open() as handle:
        played = [e for _, e in parse_lines(handle) if isinstance(e, CardPlayed)][:8]
    with result.log.open() as handle:
        journaled = [e for _, e in parse_lines(handle) if isinstance(e, CardPlayed)]
    assert journaled == played
    assert result.cards_read == 8 and result.screens >= 13
    assert len(list((tmp_path / "screens").glob("*.png"))) == result.screens
    capsys.readouterr()
    assert main(["replay", str(result.log), "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["score"] == result.shown_scores
    assert len(result.latency_s) == 8 and max(result.latency_s) < 1.5


def test_cardtable_run_on_a_recorded_camera(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config, presses = write_recording(tmp_path / "rec", max_tricks=1, size=(1280, 720))
    state = tmp_path / "state"
    assert main(["run", "--config", str(config), "--script", str(presses), "--no-display",
                 "--state-dir", str(state)]) == 0
    log = tmp_path / "game.jsonl"
    assert main(["export", "1", "--state-dir", str(state), "--out", str(log)]) == 0
    with DEMO_GAME.open() as handle:
        expected = [e for _, e in parse_lines(handle) if isinstance(e, CardPlayed)][:4]
    with log.open() as handle:
        assert [e for _, e in parse_lines(handle) if isinstance(e, CardPlayed)] == expected
