"""`cardtable check-hardware`: the unattended walk passes on fake hardware; failures show."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from app.cli import main
from drivers.check import CheckReport, run_live_check, run_mock_check
from drivers.clock import ManualClock
from drivers.config import HardwareConfig, hardware_config
from drivers.keys import SHARED_PANEL_KEYS
from drivers.pinmap import PinMap, build_pin_map, default_pin_map
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
    out = capsys.readouterr().err
    assert "buttons.pins.UNDO: GPIO17 is already used by buttons.pins.OK" in out
    assert "buttons.pins.FOO: unknown button name 'FOO'" in out


def test_live_walk_with_nothing_configured_fails(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-hardware"]) == 1
    assert "nothing to check" in capsys.readouterr().out


class Person:
    """Someone at a table of mock pins: presses what they are told, says what they see and hear."""

    def __init__(self, factory: MockFactory, clock: ManualClock, pin_map: PinMap) -> None:
        self.factory = factory
        self.clock = clock
        self.gpio = {spec.label: spec.gpio for spec in pin_map.buttons}
        self.outputs = pin_map.outputs
        self.holding: int | None = None
        self.sleeps = 0
        self.lines: list[str] = []
        self.skip: set[str] = set()

    def say(self, line: str) -> None:
        self.lines.append(line)
        words = line.split()
        if words and words[0] == "press" and words[1] not in self.skip:
            self.holding = self.gpio[words[1]]
            self.factory.pin(self.holding).drive_low()
            self.sleeps = 0

    def sleep(self, seconds: float) -> None:
        self.clock.advance(seconds)
        self.sleeps += 1
        if self.holding is not None and self.sleeps == 10:  # let go after 0.1 s
            self.factory.pin(self.holding).drive_high()
            self.holding = None

    def ask(self, question: str) -> bool:
        if "turn light" in question:
            seat = question.split()[2]
            lit = [s for s, gpio in self.outputs.turn_leds.items() if self.factory.pin(gpio).state]
            return lit == [seat]
        assert self.outputs.buzzer is not None
        pin = self.factory.pin(self.outputs.buzzer)
        beeps = sum(1 for change in pin.states[1:] if change.state)
        pin.clear_states()
        return beeps == (1 if "tick" in question else 4)


def live_walk(pin_map: PinMap, skip: set[str] = frozenset()) -> tuple[CheckReport, Person]:
    factory = MockFactory()
    clock = ManualClock()
    person = Person(factory, clock, pin_map)
    person.skip = set(skip)
    try:
        report = run_live_check(
            HardwareConfig(pin_map),
            person.say,
            person.ask,
            wait_s=5.0,
            pin_factory=factory,
            clock=clock,
            sleep=person.sleep,
        )
    finally:
        factory.reset()
    return report, person


@pytest.mark.parametrize("layout", ["shared", "seats"])
def test_live_walk_with_a_person_pressing_every_button(layout: str) -> None:
    pin_map = default_pin_map(layout)
    report, person = live_walk(pin_map)
    assert [step for step in report.steps if not step[1]] == []
    assert report.ok
    assert sum(1 for line in person.lines if line.strip().startswith("press")) == len(
        pin_map.buttons
    )
    turn = [name for name, _, _ in report.steps if name.startswith("turn light")]
    assert turn == ["turn light N", "turn light E", "turn light S", "turn light W"]
    assert {"buzzer accept tick", "buzzer renege alarm"} <= {name for name, _, _ in report.steps}


def test_live_walk_names_the_button_nobody_pressed() -> None:
    report, person = live_walk(default_pin_map("shared"), skip={"HEARTS"})
    failed = [(name, detail) for name, ok, detail in report.steps if not ok]
    assert failed == [("button HEARTS", "nothing")]
    assert any(line.strip().startswith("FAIL HEARTS") for line in person.lines)


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


def test_live_walk_gives_up_on_a_camera_without_frames(tmp_path: Path) -> None:
    (tmp_path / "broken.avi").write_bytes(b"not a video at all")
    config = hardware_config({"camera": {"kind": "recorded", "path": "broken.avi"}}, base=tmp_path)
    clock = ManualClock()
    lines: list[str] = []
    report = run_live_check(config, lines.append, wait_s=2.0, clock=clock, sleep=clock.sleep)
    assert not report.ok
    assert report.steps[-1][0] == "camera"
    assert "no frames" in report.steps[-1][2] and "CameraFailed" in report.steps[-1][2]
    assert 2.0 <= clock() < 2.1  # waited out --wait on the clock, then gave up


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
