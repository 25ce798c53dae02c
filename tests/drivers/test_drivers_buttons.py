"""Buttons on gpiozero mock pins: presses become typed events, chatter and doubles become one."""

from __future__ import annotations

import importlib.util

import pytest
from gpiozero.pins.mock import MockFactory

from drivers.buttons import ButtonPanel, make_pin_factory
from drivers.debounce import KeyTiming
from drivers.inputs import (
    BidPressed,
    CardKeyPressed,
    ConfirmPressed,
    CorrectKeyPressed,
    NewGameCancelled,
    NewGameConfirmed,
    NewGameRequested,
    PassPressed,
    TrumpPressed,
    UndoPressed,
)
from drivers.keys import SHARED_PANEL_KEYS
from drivers.pinmap import default_pin_map

from .conftest import FakeClock

TIMING = KeyTiming(settle_s=0.02, repeat_s=0.25, hold_s=2.0, confirm_s=10.0)


@pytest.fixture
def shared_panel(mock_factory: MockFactory, clock: FakeClock) -> ButtonPanel:
    panel = ButtonPanel(default_pin_map("shared"), mock_factory, timing=TIMING, clock=clock)
    yield panel
    panel.close()


def press(factory: MockFactory, clock: FakeClock, gpio: int, hold: float = 0.1) -> None:
    """Press and release like a person: down, settle, up, settle."""
    pin = factory.pin(gpio)
    pin.drive_low()
    clock.advance(hold)
    pin.drive_high()
    clock.advance(0.05)


def test_every_shared_key_gives_its_event(
    shared_panel: ButtonPanel, mock_factory: MockFactory, clock: FakeClock
) -> None:
    events = []
    for name in SHARED_PANEL_KEYS:
        press(mock_factory, clock, shared_panel.pin_map.gpio_of(name))
        clock.advance(0.3)
        events.extend(shared_panel.poll())
    assert events == [
        BidPressed(None, 3),
        BidPressed(None, 4),
        BidPressed(None, 5),
        BidPressed(None, 6),
        BidPressed(None, "ask"),
        BidPressed(None, "moon"),
        PassPressed(None),
        TrumpPressed(None, "C"),
        TrumpPressed(None, "D"),
        TrumpPressed(None, "H"),
        TrumpPressed(None, "S"),
        ConfirmPressed(None),
        UndoPressed(None),
        CardKeyPressed(None),
        CorrectKeyPressed(None),
    ]


def test_chattering_switch_gives_one_press(
    shared_panel: ButtonPanel, mock_factory: MockFactory, clock: FakeClock
) -> None:
    pin = mock_factory.pin(shared_panel.pin_map.gpio_of("4"))
    for _ in range(5):  # contact bounce: 2 ms edges
        pin.drive_low()
        clock.advance(0.002)
        pin.drive_high()
        clock.advance(0.002)
    pin.drive_low()
    clock.advance(0.15)
    pin.drive_high()
    for _ in range(3):
        pin.drive_low()
        clock.advance(0.003)
        pin.drive_high()
        clock.advance(0.003)
    clock.advance(0.1)
    assert shared_panel.poll() == [BidPressed(None, 4)]


def test_double_press_gives_one_event_but_later_press_counts(
    shared_panel: ButtonPanel, mock_factory: MockFactory, clock: FakeClock
) -> None:
    gpio = shared_panel.pin_map.gpio_of("PASS")
    press(mock_factory, clock, gpio, hold=0.06)
    press(mock_factory, clock, gpio, hold=0.06)  # 0.11 s after the first: a double press
    assert shared_panel.poll() == [PassPressed(None)]
    clock.advance(0.5)
    press(mock_factory, clock, gpio)
    assert shared_panel.poll() == [PassPressed(None)]


def test_press_needs_settling_before_it_counts(
    shared_panel: ButtonPanel, mock_factory: MockFactory, clock: FakeClock
) -> None:
    pin = mock_factory.pin(shared_panel.pin_map.gpio_of("OK"))
    pin.drive_low()
    assert shared_panel.poll() == []
    clock.advance(0.019)
    assert shared_panel.poll() == []
    clock.advance(0.002)
    assert shared_panel.poll() == [ConfirmPressed(None)]


def test_glitch_shorter_than_settle_time_is_ignored(
    shared_panel: ButtonPanel, mock_factory: MockFactory, clock: FakeClock
) -> None:
    pin = mock_factory.pin(shared_panel.pin_map.gpio_of("HEARTS"))
    pin.drive_low()
    clock.advance(0.005)
    pin.drive_high()
    clock.advance(1.0)
    assert shared_panel.poll() == []


def test_long_undo_hold_then_ok_starts_new_game(
    shared_panel: ButtonPanel, mock_factory: MockFactory, clock: FakeClock
) -> None:
    undo = mock_factory.pin(shared_panel.pin_map.gpio_of("UNDO"))
    undo.drive_low()
    clock.advance(1.0)
    assert shared_panel.poll() == []
    clock.advance(1.1)
    assert shared_panel.poll() == [NewGameRequested(None)]
    assert shared_panel.new_game_pending
    undo.drive_high()
    clock.advance(0.5)
    assert shared_panel.poll() == []  # releasing after the hold is not an undo
    press(mock_factory, clock, shared_panel.pin_map.gpio_of("OK"))
    assert shared_panel.poll() == [NewGameConfirmed(None)]
    assert not shared_panel.new_game_pending


def test_new_game_request_is_cancelled_by_another_key(
    shared_panel: ButtonPanel, mock_factory: MockFactory, clock: FakeClock
) -> None:
    press(mock_factory, clock, shared_panel.pin_map.gpio_of("UNDO"), hold=2.5)
    assert shared_panel.poll() == [NewGameRequested(None)]
    press(mock_factory, clock, shared_panel.pin_map.gpio_of("PASS"))
    assert shared_panel.poll() == [NewGameCancelled(None, "PASS pressed instead of OK")]
    clock.advance(1.0)
    press(mock_factory, clock, shared_panel.pin_map.gpio_of("PASS"))
    assert shared_panel.poll() == [PassPressed(None)]


def test_new_game_request_times_out(
    shared_panel: ButtonPanel, mock_factory: MockFactory, clock: FakeClock
) -> None:
    press(mock_factory, clock, shared_panel.pin_map.gpio_of("UNDO"), hold=2.5)
    assert shared_panel.poll() == [NewGameRequested(None)]
    clock.advance(10.5)
    assert shared_panel.poll() == [NewGameCancelled(None, "no OK in time")]
    press(mock_factory, clock, shared_panel.pin_map.gpio_of("OK"))
    assert shared_panel.poll() == [ConfirmPressed(None)]


def test_short_undo_presses_take_back_one_each(
    shared_panel: ButtonPanel, mock_factory: MockFactory, clock: FakeClock
) -> None:
    gpio = shared_panel.pin_map.gpio_of("UNDO")
    press(mock_factory, clock, gpio, hold=0.2)
    clock.advance(0.5)
    press(mock_factory, clock, gpio, hold=0.2)
    assert shared_panel.poll() == [UndoPressed(None), UndoPressed(None)]


def test_seat_pads_report_the_seat(mock_factory: MockFactory, clock: FakeClock) -> None:
    with ButtonPanel(default_pin_map("seats"), mock_factory, timing=TIMING, clock=clock) as panel:
        press(mock_factory, clock, panel.pin_map.gpio_of("E.PASS"))
        clock.advance(0.3)
        press(mock_factory, clock, panel.pin_map.gpio_of("4"))
        clock.advance(0.3)
        press(mock_factory, clock, panel.pin_map.gpio_of("W.OK"))
        assert panel.poll() == [PassPressed("E"), BidPressed(None, 4), ConfirmPressed("W")]


def test_pins_are_pulled_up_and_released_on_close(
    mock_factory: MockFactory, clock: FakeClock
) -> None:
    pin_map = default_pin_map("shared")
    panel = ButtonPanel(pin_map, mock_factory, timing=TIMING, clock=clock)
    assert mock_factory.pin(pin_map.gpio_of("OK")).pull == "up"
    panel.close()
    again = ButtonPanel(pin_map, mock_factory, timing=TIMING, clock=clock)  # pins free again
    again.close()


def test_make_pin_factory_rejects_unknown_name() -> None:
    with pytest.raises(ValueError, match="'gpiod'"):
        make_pin_factory("gpiod")


def test_make_pin_factory_mock() -> None:
    factory = make_pin_factory("mock")
    try:
        assert isinstance(factory, MockFactory)
    finally:
        factory.reset()


@pytest.mark.skipif(
    any(importlib.util.find_spec(name) for name in ("lgpio", "RPi")),
    reason="a GPIO library is installed here",
)
def test_without_a_gpio_library_the_error_says_what_to_install() -> None:
    from drivers.errors import GpioUnavailableError

    with pytest.raises(GpioUnavailableError, match="python3-lgpio") as caught:
        make_pin_factory(None)  # this machine has neither lgpio nor RPi.GPIO
    assert isinstance(caught.value, ImportError)
    assert "lgpio:" in str(caught.value) and "rpigpio:" in str(caught.value)
