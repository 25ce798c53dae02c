"""Buzzer and lights on gpiozero mock pins, and the same signals over the serial panel."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from drivers.fake_panel import PtyPanel
from drivers.outputs import (
    ACCEPT_TICK_MS,
    RENEGE_ALARM_MS,
    GpioOutputs,
    NullOutputs,
    PanelOutputs,
    PatternPlayer,
)
from drivers.panel_link import PanelLink
from drivers.pinmap import OutputSpec, default_pin_map

from .conftest import FakeClock
from .test_drivers_panel_link import Pump, open_with_short_wait


def states(factory: MockFactory, gpio: int) -> list[bool]:
    return [bool(change.state) for change in factory.pin(gpio).states]


@pytest.fixture
def outputs(mock_factory: MockFactory, clock: FakeClock) -> Iterator[GpioOutputs]:
    player = PatternPlayer(background=False, sleep=clock.sleep)
    gpio = GpioOutputs(default_pin_map("shared").outputs, mock_factory, player=player)
    yield gpio
    gpio.close()


def test_renege_alarm_pattern(
    outputs: GpioOutputs, mock_factory: MockFactory, clock: FakeClock
) -> None:
    outputs.renege_alarm()
    spec = outputs.spec
    assert spec.buzzer is not None and spec.renege_led is not None
    assert states(mock_factory, spec.buzzer) == [False] + [True, False] * 4
    assert clock.sleeps == [ms / 1000 for ms in RENEGE_ALARM_MS]
    assert mock_factory.pin(spec.renege_led).state  # stays lit ...
    outputs.accept_tick()
    assert not mock_factory.pin(spec.renege_led).state  # ... until the next accepted card


def test_accept_tick_is_short_and_flashes_the_light(
    outputs: GpioOutputs, mock_factory: MockFactory, clock: FakeClock
) -> None:
    outputs.accept_tick()
    spec = outputs.spec
    assert spec.buzzer is not None and spec.accept_led is not None
    assert states(mock_factory, spec.buzzer) == [False, True, False]
    assert states(mock_factory, spec.accept_led) == [False, True, False]
    assert clock.sleeps == [ms / 1000 for ms in ACCEPT_TICK_MS]
    assert sum(ACCEPT_TICK_MS) < sum(RENEGE_ALARM_MS) / 10


def test_turn_light_follows_the_seat(outputs: GpioOutputs, mock_factory: MockFactory) -> None:
    leds = outputs.spec.turn_leds
    outputs.turn_light("E")
    assert {seat: mock_factory.pin(pin).state for seat, pin in leds.items()} == {
        "N": 0, "E": 1, "S": 0, "W": 0,
    }  # fmt: skip
    outputs.turn_light("W")
    assert [s for s, pin in leds.items() if mock_factory.pin(pin).state] == ["W"]
    outputs.turn_light(None)
    assert not any(mock_factory.pin(pin).state for pin in leds.values())
    with pytest.raises(ValueError, match="'X'"):
        outputs.turn_light("X")  # type: ignore[arg-type]


def test_outputs_are_optional(mock_factory: MockFactory, clock: FakeClock) -> None:
    player = PatternPlayer(background=False, sleep=clock.sleep)
    partial = GpioOutputs(OutputSpec(turn_leds={"N": 21}), mock_factory, player=player)
    partial.renege_alarm()
    partial.accept_tick()
    partial.turn_light("N")
    assert clock.sleeps == []  # no buzzer, no pattern
    assert mock_factory.pin(21).state
    partial.close()
    none = NullOutputs()
    none.renege_alarm()
    none.accept_tick()
    none.turn_light("S")
    none.close()


def test_active_low_outputs(mock_factory: MockFactory, clock: FakeClock) -> None:
    player = PatternPlayer(background=False, sleep=clock.sleep)
    gpio = GpioOutputs(OutputSpec(buzzer=18, active_high=False), mock_factory, player=player)
    assert mock_factory.pin(18).state  # off means high
    gpio.accept_tick()
    assert [bool(s.state) for s in mock_factory.pin(18).states][-2:] == [False, True]
    gpio.close()


def test_background_pattern_is_cut_short_by_the_next(mock_factory: MockFactory) -> None:
    player = PatternPlayer()
    gpio = GpioOutputs(OutputSpec(buzzer=18), mock_factory, player=player)
    gpio.renege_alarm()  # 1.6 s in a thread
    gpio.accept_tick()  # stops it at once and ticks
    player.stop()
    assert not mock_factory.pin(18).state
    gpio.close()


def test_panel_outputs_send_commands(tmp_path: Path, clock: FakeClock) -> None:
    panel = PtyPanel(tmp_path / "usb-MicroPython_Board-if00")
    try:
        link = PanelLink(str(panel.link_path), open_port=open_with_short_wait, clock=clock)
        pump = Pump(link, panel)
        pump.until(lambda events: link.connected)
        out = PanelOutputs(link)
        out.turn_light("S")
        out.renege_alarm()
        out.accept_tick()
        pump.until(lambda events: len(panel.buzzes) == 2)
        assert panel.buzzes == [list(RENEGE_ALARM_MS), list(ACCEPT_TICK_MS)]
        assert panel.lights == {"N": False, "E": False, "S": True, "W": False, "RENEGE": False}
        link.close()
    finally:
        panel.close()
