"""`cardtable check-hardware`: the unattended walk passes on fake hardware; failures show."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import main
from drivers.check import CheckReport, run_mock_check
from drivers.pinmap import build_pin_map, default_pin_map
from drivers.recording import write_video


@pytest.mark.parametrize("layout", ["shared", "seats"])
def test_mock_walk_passes_every_step(layout: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-hardware", "--mock", "--layout", layout]) == 0
    out = capsys.readouterr().out
    assert "FAIL" not in out
    buttons = len(default_pin_map(layout).buttons)
    assert out.count("saw ") == buttons + 13  # GPIO buttons, then the 13 panel keys
    assert "unplug and replug" in out
    assert "640x480, 90 frames" in out


def test_mock_walk_covers_buttons_lights_panel_and_camera() -> None:
    lines: list[str] = []
    report = run_mock_check(default_pin_map("seats"), lines.append)
    names = [name for name, _, _ in report.steps]
    assert report.ok
    assert {"button N.PASS", "button W.OK", "new game (hold UNDO, OK)", "turn light S"} <= set(
        names
    )
    assert {"buzzer renege alarm", "panel reconnect", "panel button UNDO", "camera"} <= set(names)


def test_mock_walk_reports_a_map_without_outputs() -> None:
    report = run_mock_check(build_pin_map({"buttons": {"pins": {"OK": 17, "PASS": 27}}}))
    assert report.ok
    assert not any(name.startswith(("turn light", "buzzer")) for name, _, _ in report.steps)


def test_empty_report_is_not_ok() -> None:
    assert not CheckReport().ok
    report = CheckReport()
    report.add("a", True, "")
    report.add("b", False, "broken")
    assert not report.ok


def test_bad_config_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "table.toml"
    config.write_text('[buttons.pins]\nOK = 17\nUNDO = 17\nFOO = "GPIO99"\n')
    assert main(["check-hardware", "--mock", "--config", str(config)]) == 2
    out = capsys.readouterr().out
    assert "buttons.pins.UNDO: GPIO17 is already used by buttons.pins.OK" in out
    assert "buttons.pins.FOO: unknown button name 'FOO'" in out


def test_live_walk_with_nothing_configured_fails(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-hardware"]) == 1
    assert "nothing to check" in capsys.readouterr().out


def test_live_walk_fails_when_no_one_presses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "table.toml"
    config.write_text(
        '[gpio]\npin_factory = "mock"\n[signals]\nvia = "none"\n[buttons.pins]\nOK = 17\n'
    )
    assert main(["check-hardware", "--config", str(config), "--wait", "0.05"]) == 1
    out = capsys.readouterr().out
    assert "FAIL OK" in out and "saw nothing" in out


@pytest.mark.parametrize(("frames", "status"), [(45, 0), (0, 1)])
def test_live_walk_reads_a_recorded_camera(
    tmp_path: Path, frames: int, status: int, capsys: pytest.CaptureFixture[str]
) -> None:
    if frames:
        write_video(tmp_path / "cam.avi", frames, width=320, height=240)
    config = tmp_path / "table.toml"
    config.write_text('[camera]\nkind = "recorded"\npath = "cam.avi"\nfps = 15\n')
    assert main(["check-hardware", "--config", str(config), "--wait", "0.5"]) == status
    out = capsys.readouterr().out
    if frames:
        assert "320x240, 45 frames" in out
    else:
        assert "CameraFailed" in out


def test_console_script_runs_the_mock_walk() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "app", "check-hardware", "--mock"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "38 of 38 steps worked." in result.stdout


def test_cli_module_imports_nothing_heavy() -> None:
    code = (
        "import sys, drivers.cli; "
        "heavy = {'cv2', 'serial', 'gpiozero', 'pygame', 'numpy'} & set(sys.modules); "
        "print(sorted(heavy))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.strip() == "[]"
