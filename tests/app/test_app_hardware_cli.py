"""`cardtable check-hardware`: the unattended walk passes on fake hardware; failures show."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import main
from drivers.keys import SHARED_PANEL_KEYS
from drivers.pinmap import default_pin_map
from drivers.recording import write_video


@pytest.mark.parametrize("layout", ["shared", "seats"])
def test_mock_walk_passes_every_step(layout: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-hardware", "--mock", "--layout", layout]) == 0
    out = capsys.readouterr().out
    assert "FAIL" not in out
    buttons = len(default_pin_map(layout).buttons)
    assert out.count("saw ") == buttons + len(SHARED_PANEL_KEYS)  # GPIO buttons, then the panel
    assert "unplug and replug" in out
    assert "640x480, 90 frames" in out


def test_bad_config_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "table.toml"
    config.write_text('[buttons.pins]\nOK = 17\nUNDO = 17\nFOO = "GPIO99"\n')
    assert main(["check-hardware", "--mock", "--config", str(config)]) == 2
    out = capsys.readouterr().err
    assert "buttons.pins.UNDO: GPIO17 is already used by buttons.pins.OK" in out
    assert "buttons.pins.FOO: unknown button name 'FOO'" in out


def test_live_walk_with_nothing_configured_fails(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-hardware"]) == 1
    assert "nothing to check" in capsys.readouterr().out


def test_live_walk_with_nothing_pressed_through_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "table.toml"
    config.write_text(
        '[gpio]\npin_factory = "mock"\n[signals]\nvia = "none"\n[buttons.pins]\nOK = 17\n'
    )
    assert main(["check-hardware", "--config", str(config), "--wait", "0.05"]) == 1
    out = capsys.readouterr().out
    assert "FAIL OK" in out and "saw nothing" in out


def test_live_walk_reads_a_recorded_camera(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_video(tmp_path / "cam.avi", 45, width=320, height=240)
    config = tmp_path / "table.toml"
    config.write_text('[camera]\nkind = "recorded"\npath = "cam.avi"\nfps = 15\n')
    assert main(["check-hardware", "--config", str(config)]) == 0
    assert "320x240, 45 frames" in capsys.readouterr().out


def test_console_script_runs_the_mock_walk() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "app", "check-hardware", "--mock"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "42 of 42 steps worked." in result.stdout  # keys, lights, buzzer, camera
