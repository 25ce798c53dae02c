"""The serial panel over USB: opens the port, keeps the session, reconnects with backoff.

The backoff is capped at RECONNECT_MAX_S, so a panel plugged back in is read within two
seconds. An acknowledgement the table gives (an input's `acknowledge`, from any thread) goes
on the wire at once under the link's lock, or at the end of the poll running in that thread,
so the moment between a commit and its ACK stays as short as a write.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol

from drivers.backoff import Backoff
from drivers.debounce import KeyTiming
from drivers.inputs import DriverEvent, PanelConnected, PanelDisconnected
from drivers.panel_protocol import (
    LineFramer,
    PanelSession,
    encode_buzz,
    encode_hello,
    encode_led,
)

log = logging.getLogger(__name__)

Clock = Callable[[], float]
BY_ID_DIR = Path("/dev/serial/by-id")
RECONNECT_FIRST_S = 0.5
RECONNECT_MAX_S = 2.0


class SerialPort(Protocol):
    """The part of a pyserial port the link uses."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def close(self) -> None: ...


def open_serial(url: str) -> SerialPort:
    """Open a port or pyserial URL (`/dev/serial/by-id/...`, `loop://`) without blocking reads."""
    import serial

    port: SerialPort = serial.serial_for_url(url, baudrate=115200, timeout=0, write_timeout=1.0)
    return port


def find_panel_port(by_id_dir: Path = BY_ID_DIR) -> str | None:
    """The stable name of a plugged-in MicroPython board, if there is exactly one candidate."""
    if not by_id_dir.is_dir():
        return None
    found = sorted(str(path) for path in by_id_dir.iterdir() if "MicroPython" in path.name)
    return found[0] if len(found) == 1 else None


class PanelLink:
    """One serial panel: call `poll()` often; it reads, answers, and reopens after a failure.

    Everything that takes time is measured on `clock`, so tests move time by hand.
    """

    def __init__(
        self,
        url: str,
        *,
        open_port: Callable[[str], SerialPort] = open_serial,
        clock: Clock = time.monotonic,
        backoff: Backoff | None = None,
        silence_s: float = 3.0,
        hello_every_s: float = 1.0,
        timing: KeyTiming | None = None,
        by_id_dir: Path = BY_ID_DIR,
        ack_on_receipt: bool = False,
    ) -> None:
        self.url = url  # a port, a pyserial URL, or "auto": the only MicroPython board plugged in
        self.by_id_dir = by_id_dir
        self.open_port = open_port
        self.clock = clock
        self.backoff = backoff or Backoff(RECONNECT_FIRST_S, 2.0, RECONNECT_MAX_S)
        self.silence_s = silence_s
        self.hello_every_s = hello_every_s
        self.session = PanelSession(url, timing, ack_on_receipt=ack_on_receipt)
        self.framer = LineFramer()
        self.open_attempts = 0
        self._port: SerialPort | None = None
        self._lock = threading.RLock()
        self._retry_at = float("-inf")
        self._last_line = 0.0
        self._last_hello = 0.0
        self._down_reported = False
        self._leds: dict[str, bool] = {}
        self._poller: int | None = None  # the thread inside poll(), which sends ACKs itself
        self._later: list[DriverEvent] = []  # what an ACK written between polls caused
        self.session.on_acknowledge = self._send_acks

    @property
    def connected(self) -> bool:
        """Whether the port is open and the panel answered the handshake."""
        return self._port is not None and self.session.connected

    def poll(self) -> list[DriverEvent]:
        """Read whatever arrived and keep the link up; returns the events it produced."""
        with self._lock:
            self._poller = threading.get_ident()
            try:
                events, self._later = self._later + self._poll(), []
            finally:
                self._poller = None
            return events

    def _send_acks(self) -> None:
        """Write the acknowledgements the table just gave (from whichever thread gave them)."""
        if self._poller == threading.get_ident():
            return  # inside poll(): it sends them before it returns
        with self._lock:
            if self._port is None:
                return  # kept; sent after the reconnect
            for reply in self.session.take_replies():
                failed = self._write(reply, self.clock())
                if failed:
                    self._later += failed
                    return

    def _poll(self) -> list[DriverEvent]:
        with self._lock:
            now = self.clock()
            if self._port is None:
                if now < self._retry_at:
                    return []
                return self._open(now)
            events: list[DriverEvent] = []
            try:
                while data := self._port.read(max(1, self._port.in_waiting)):
                    for line in self.framer.data_received(data):
                        heard = self.session.messages
                        found, replies = self.session.line_received(line)
                        if self.session.messages > heard:
                            self._last_line = now
                        events.extend(found)
                        for reply in replies:
                            self._port.write(reply)
                        if any(isinstance(event, PanelConnected) for event in found):
                            self._on_connected()
                for reply in self.session.take_replies():  # acknowledgements from the table
                    self._port.write(reply)
            except (OSError, ValueError) as error:  # SerialException is an OSError
                return events + self._drop(now, f"port failed: {error}")
            if self.session.connected:
                if now - self._last_line > self.silence_s:
                    events += self._drop(now, f"silent for {now - self._last_line:.1f} s")
            elif now - self._last_line > self.silence_s:
                events += self._drop(now, self.session.mismatch or "no answer to the handshake")
            elif now - self._last_hello >= self.hello_every_s:
                events += self._write(encode_hello(), now)
                self._last_hello = now
            return events

    def send(self, data: bytes) -> bool:
        """Send a command if the panel is connected; False when it could not go out."""
        with self._lock:
            if not self.connected:
                return False
            return not self._write(data, self.clock())

    def set_led(self, name: str, on: bool) -> bool:
        """Switch a panel light; remembered and sent again after a reconnect."""
        data = encode_led(name, on)
        with self._lock:
            self._leds[name] = on
            return self.send(data)

    def buzz(self, pattern_ms: Iterable[int]) -> bool:
        """Play a buzzer pattern on the panel (dropped while it is disconnected)."""
        return self.send(encode_buzz(pattern_ms))

    def close(self) -> None:
        """Close the port; `poll()` would open it again."""
        with self._lock:
            if self._port is not None:
                self._port.close()
                self._port = None
            self.session.lost()

    def run(
        self,
        stop: threading.Event,
        deliver: Callable[[DriverEvent], Any],
        *,
        interval_s: float = 0.01,
        sleep: Callable[[float], Any] | None = None,
    ) -> None:
        """Poll until `stop` is set, handing each event to `deliver` (for a reader thread)."""
        wait = sleep or stop.wait
        while not stop.is_set():
            for event in self.poll():
                deliver(event)
            wait(interval_s)
        self.close()

    def _open(self, now: float) -> list[DriverEvent]:
        self.open_attempts += 1
        target = find_panel_port(self.by_id_dir) if self.url == "auto" else self.url
        try:
            if target is None:
                raise FileNotFoundError(f"no single MicroPython board in {self.by_id_dir}")
            port = self.open_port(target)
        except (OSError, ValueError) as error:
            self._retry_at = now + self.backoff.next_delay()
            return self._report_down(f"cannot open {self.url}: {error}")
        self._port = port
        self.framer.reset()
        self._last_line = now
        self._last_hello = now
        return self._write(encode_hello(), now)

    def _on_connected(self) -> None:
        self.backoff.reset()
        self._down_reported = False
        if self._port is not None:
            for name, on in self._leds.items():
                self._port.write(encode_led(name, on))

    def _write(self, data: bytes, now: float) -> list[DriverEvent]:
        assert self._port is not None
        try:
            self._port.write(data)
        except (OSError, ValueError) as error:
            return self._drop(now, f"write failed: {error}")
        return []

    def _drop(self, now: float, reason: str) -> list[DriverEvent]:
        log.warning("panel on %s: %s; reconnecting", self.url, reason)
        if self._port is not None:
            with contextlib.suppress(OSError):
                self._port.close()
            self._port = None
        self.session.lost()
        self._retry_at = now + self.backoff.next_delay()
        return self._report_down(reason)

    def _report_down(self, reason: str) -> list[DriverEvent]:
        if self._down_reported:
            return []
        self._down_reported = True
        return [PanelDisconnected(self.url, reason)]
