"""Buzzer and lights: a renege alarm, an accept tick and whose turn it is, on GPIO or the panel."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from drivers.inputs import SEATS, Seat
from drivers.panel_link import PanelLink
from drivers.pinmap import OutputSpec

# Buzzer patterns in milliseconds: on, off, on, ...
RENEGE_ALARM_MS: tuple[int, ...] = (150, 80, 150, 80, 150, 80, 900)  # three quick, one long
ACCEPT_TICK_MS: tuple[int, ...] = (30,)


class Outputs(Protocol):
    """What the table can show and sound."""

    def renege_alarm(self) -> None: ...

    def accept_tick(self) -> None: ...

    def turn_light(self, seat: Seat | None) -> None: ...

    def close(self) -> None: ...


class NullOutputs:
    """No buzzer, no lights (outputs are optional)."""

    def renege_alarm(self) -> None:
        """Nothing to sound."""

    def accept_tick(self) -> None:
        """Nothing to sound."""

    def turn_light(self, seat: Seat | None) -> None:
        """Nothing to light."""

    def close(self) -> None:
        """Nothing to release."""


class Switchable(Protocol):
    """A gpiozero output device as the player uses it."""

    def on(self) -> None: ...

    def off(self) -> None: ...


class PatternPlayer:
    """Plays on/off patterns on output devices; a new pattern cuts the running one short.

    In the background (the default) a thread does the waiting; with `sleep` given and
    `background=False` it plays in the caller's thread on that sleeper (tests).
    """

    def __init__(
        self, *, background: bool = True, sleep: Callable[[float], Any] | None = None
    ) -> None:
        self.background = background
        self._sleep = sleep
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def play(self, devices: Sequence[Switchable], pattern_ms: Sequence[int]) -> None:
        """Switch `devices` on for pattern[0] ms, off for pattern[1] ms, and so on; end off."""
        self.stop()
        if not self.background:
            self._run(devices, pattern_ms, self._sleep or self._stop.wait)
            return
        self._stop.clear()
        self._thread = threading.Thread(
            target=self._run, args=(devices, pattern_ms, self._stop.wait), daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        """Cut a running pattern short."""
        if self._thread is not None:
            self._stop.set()
            self._thread.join(timeout=2.0)
            self._thread = None
        self._stop.clear()

    def _run(
        self, devices: Sequence[Switchable], pattern_ms: Sequence[int], wait: Callable[[float], Any]
    ) -> None:
        for step, ms in enumerate(pattern_ms):
            for device in devices:
                device.on() if step % 2 == 0 else device.off()
            if wait(ms / 1000) is True:  # Event.wait returns True once stopped
                break
        for device in devices:
            device.off()


class GpioOutputs:
    """gpiozero `Buzzer` and `LED`s on the pins of an OutputSpec; absent pins are skipped."""

    def __init__(
        self, spec: OutputSpec, pin_factory: Any, *, player: PatternPlayer | None = None
    ) -> None:
        from gpiozero import LED, Buzzer

        self.spec = spec
        self.player = player or PatternPlayer()
        high = spec.active_high
        self._devices: list[Any] = []

        def make(kind: Any, pin: int | None) -> Any:
            if pin is None:
                return None
            device = kind(pin, active_high=high, initial_value=False, pin_factory=pin_factory)
            self._devices.append(device)
            return device

        try:
            self.buzzer = make(Buzzer, spec.buzzer)
            self.accept_led = make(LED, spec.accept_led)
            self.renege_led = make(LED, spec.renege_led)
            self.turn_leds: dict[Seat, Any] = {
                seat: make(LED, spec.turn_leds[seat]) for seat in SEATS if seat in spec.turn_leds
            }
        except Exception:
            self.close()
            raise

    def renege_alarm(self) -> None:
        """The alarm pattern on the buzzer; the renege light stays on until the next card."""
        if self.renege_led is not None:
            self.renege_led.on()
        self._play([self.buzzer], RENEGE_ALARM_MS)

    def accept_tick(self) -> None:
        """A short tick on the buzzer and a flash of the accept light; renege light off."""
        if self.renege_led is not None:
            self.renege_led.off()
        self._play([self.buzzer, self.accept_led], ACCEPT_TICK_MS)

    def turn_light(self, seat: Seat | None) -> None:
        """Light the seat whose turn it is; None puts every turn light out."""
        if seat is not None and seat not in SEATS:
            raise ValueError(f"unknown seat {seat!r}: expected one of N, E, S, W")
        for each, led in self.turn_leds.items():
            led.on() if each == seat else led.off()

    def close(self) -> None:
        """Stop any pattern and release the pins."""
        self.player.stop()
        for device in self._devices:
            device.close()
        self._devices.clear()

    def _play(self, devices: list[Any], pattern: Sequence[int]) -> None:
        present = [device for device in devices if device is not None]
        if present:
            self.player.play(present, pattern)


class PanelOutputs:
    """The same signals sent to the serial panel as BUZZ and LED commands."""

    def __init__(self, link: PanelLink) -> None:
        self.link = link

    def renege_alarm(self) -> None:
        """The alarm on the panel buzzer; the renege light stays on until the next card."""
        self.link.set_led("RENEGE", True)
        self.link.buzz(RENEGE_ALARM_MS)

    def accept_tick(self) -> None:
        """A tick on the panel buzzer; renege light off."""
        self.link.set_led("RENEGE", False)
        self.link.buzz(ACCEPT_TICK_MS)

    def turn_light(self, seat: Seat | None) -> None:
        """Light the seat whose turn it is."""
        for each in SEATS:
            self.link.set_led(each, each == seat)

    def close(self) -> None:
        """Put the turn lights out."""
        self.turn_light(None)
        self.link.set_led("RENEGE", False)
