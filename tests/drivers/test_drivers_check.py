"""The walk of `cardtable check-hardware`: every step on mock pins, a fake panel and a camera."""

from __future__ import annotations

from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from drivers.check import CheckReport, run_live_check, run_mock_check
from drivers.clock import ManualClock
from drivers.config import HardwareConfig, hardware_config
from drivers.pinmap import PinMap, build_pin_map, default_pin_map


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
