"""Buttons on the Pi's GPIO through gpiozero, read into typed events."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING, Any

from drivers.debounce import KeyId, KeyReader, KeyTiming
from drivers.inputs import DriverEvent
from drivers.pinmap import PinMap

if TYPE_CHECKING:
    from gpiozero import DigitalInputDevice

Clock = Callable[[], float]


class ButtonPanel:
    """Every button of a pin map as a gpiozero input; `poll()` returns what was pressed.

    gpiozero's own debouncing and hold timer are not used (`DigitalInputDevice` rather than
    `Button`): switches are read by `KeyReader` against `clock`, so chatter, double presses and
    the long UNDO hold behave the same under test and on the table.
    """

    def __init__(
        self,
        pin_map: PinMap,
        pin_factory: Any,
        *,
        timing: KeyTiming | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        from gpiozero import DigitalInputDevice

        self.pin_map = pin_map
        self.clock = clock
        self._reader = KeyReader(timing)
        self._lock = threading.Lock()
        self._events: queue.SimpleQueue[DriverEvent] = queue.SimpleQueue()
        self._buttons: dict[KeyId, DigitalInputDevice] = {}
        try:
            for spec in pin_map.buttons:
                key = KeyId(spec.name, spec.seat)
                button = DigitalInputDevice(
                    spec.gpio, pull_up=pin_map.pull_up, bounce_time=None, pin_factory=pin_factory
                )
                button.when_activated = self._callback(key, True)
                button.when_deactivated = self._callback(key, False)
                self._buttons[key] = button
        except Exception:
            self.close()
            raise

    def _callback(self, key: KeyId, pressed: bool) -> Callable[[], None]:
        def on_edge() -> None:
            self._feed(key, pressed)

        return on_edge

    def _feed(self, key: KeyId, pressed: bool) -> None:
        with self._lock:
            for event in self._reader.edge(key, pressed, self.clock()):
                self._events.put(event)

    @property
    def keys(self) -> tuple[KeyId, ...]:
        """The buttons, in pin-map order."""
        return tuple(self._buttons)

    @property
    def new_game_pending(self) -> bool:
        """Whether a long UNDO hold waits for OK."""
        return self._reader.new_game_pending

    def poll(self) -> list[DriverEvent]:
        """Everything pressed since the last call (lets time pass on the reader first)."""
        with self._lock:
            for event in self._reader.tick(self.clock()):
                self._events.put(event)
        drained: list[DriverEvent] = []
        while True:
            try:
                drained.append(self._events.get_nowait())
            except queue.Empty:
                return drained

    def close(self) -> None:
        """Release the pins."""
        for button in self._buttons.values():
            button.close()
        self._buttons.clear()

    def __enter__(self) -> ButtonPanel:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def make_pin_factory(name: str | None) -> Any:
    """A gpiozero pin factory by name: `lgpio` (Pi 5, Pi 4), `rpigpio` (Pi 4), `mock`.

    None picks gpiozero's own default order. The import is lazy: off a Pi only `mock` works.
    """
    if name is None:
        from gpiozero import Device

        return Device._default_pin_factory()
    if name == "mock":
        from gpiozero.pins.mock import MockFactory

        return MockFactory()
    if name == "lgpio":
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    if name == "rpigpio":
        from gpiozero.pins.rpigpio import RPiGPIOFactory

        return RPiGPIOFactory()
    raise ValueError(f"unknown pin factory {name!r}: expected lgpio, rpigpio or mock")
