"""`cardtable screenshots OUTDIR` and `cardtable display-demo`."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from pathlib import Path

import pygame
import pytest

from app.cli import main
from display.samples import sample_views


def test_screenshots_writes_every_state_at_each_size(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["screenshots", str(tmp_path / "shots"), "--size", "640x400",
                   "--size", "1024x600"])
    assert status == 0
    written = sorted((tmp_path / "shots").glob("*.png"))
    assert len(written) == 2 * (len(sample_views()) + 1)
    printed = capsys.readouterr().out.split()
    assert sorted(printed) == sorted(str(path) for path in written)
    for name in ("renege-alarm-640x400.png", "game-over-1024x600.png",
                 "trick-complete-four-colour-640x400.png"):
        assert (tmp_path / "shots" / name) in written
    assert pygame.image.load(tmp_path / "shots" / "hand-end-1024x600.png").get_size() == (
        1024, 600)


def test_a_bad_size_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["screenshots", str(tmp_path), "--size", "big"])
    assert caught.value.code == 2
    assert "size 'big' is not WIDTHxHEIGHT" in capsys.readouterr().err


def test_an_unwritable_outdir_is_a_clear_error(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert main(["screenshots", str(blocker / "shots")]) == 2
    assert "cannot write screenshots" in capsys.readouterr().err


def test_display_demo_shows_every_state_then_stops(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["display-demo", "--size", "800x480", "--seconds", "0.01"]) == 0
    assert capsys.readouterr().out.strip() == "0 button presses"


def test_display_demo_refuses_a_bad_interval(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["display-demo", "--seconds", "0"]) == 2
    assert "--seconds must be above 0" in capsys.readouterr().err


def test_screenshots_include_every_prompt_at_both_sizes(tmp_path: Path) -> None:
    from display.samples import prompt_views

    assert main(["screenshots", str(tmp_path)]) == 0
    for state in (*prompt_views(), "bidding", "bidding-dealer-stuck"):
        for size in ("800x480", "1920x1080"):
            assert (tmp_path / f"{state}-{size}.png").is_file(), f"{state}-{size}"
