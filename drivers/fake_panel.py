"""A fake serial panel for tests, the demo and `check-hardware --mock`.

It runs the real firmware logic (`hardware/panel/panel_core.py`) over a pty pair or a
pyserial loop, and can drop the line or send garbage on purpose.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import sys
import tty
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

Tamper = Callable[[bytes], bytes]

FIRMWARE_DIR = Path(__file__).resolve().parents[1] / "hardware" / "panel"


def load_panel_core(firmware_dir: Path = FIRMWARE_DIR) -> ModuleType:
    """Import the firmware's `panel_core.py` (it is plain Python that CPython runs too)."""
    path = firmware_dir / "panel_core.py"
    if not path.is_file():
        raise FileNotFoundError(f"panel firmware not found at {path}")
    spec = importlib.util.spec_from_file_location("cardtable_panel_core", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(module)
    return module


def wire_line(core_module: ModuleType, line: str, tampers: list[Tamper]) -> bytes:
    """A panel line as the firmware puts it on the wire, through the next tamper if any."""
    data = (core_module.frame(line) + "\n").encode("ascii")
    return tampers.pop(0)(data) if tampers else data


class PtyPanel:
    """The panel end of a pty pair; `path` is what the Pi opens (via a stable symlink).

    `unplug()` closes the far end like pulling the USB cable; `plug()` makes a new pair and
    points the symlink at it, as udev does for `/dev/serial/by-id/...`.
    """

    def __init__(self, link_path: Path, seat: str | None = None, boot: str = "b00t0001") -> None:
        core_module = load_panel_core()
        self.link_path = link_path
        self.lights: dict[str, bool] = {}
        self.buzzes: list[list[int]] = []
        self.seat = seat
        self._module = core_module
        self.core: Any = core_module.PanelCore(
            self._write, seat=seat, boot=boot, on_led=self._led, on_buzz=self.buzzes.append
        )
        self.ms = 0
        self.tampers: list[Tamper] = []  # applied to the next lines the panel sends, one each
        self._master: int | None = None
        self.plug()

    def reboot(self, boot: str) -> None:
        """Power-cycle the board without the cable moving: its queue is gone, numbers restart."""
        self.core = self._module.PanelCore(
            self._write, seat=self.seat, boot=boot, on_led=self._led, on_buzz=self.buzzes.append
        )
        self.ms = 0
        self.core.start()

    @property
    def plugged(self) -> bool:
        """Whether the far end is open."""
        return self._master is not None

    def plug(self) -> None:
        """Open a fresh pty pair and point the stable name at its device."""
        if self._master is not None:
            raise RuntimeError("panel already plugged in")
        master, slave = os.openpty()
        name = os.ttyname(slave)
        tty.setraw(slave)  # no echo, no line editing, like USB CDC, even before the Pi opens it
        os.close(slave)  # the Pi side opens it by name
        os.set_blocking(master, False)
        self._master = master
        tmp = self.link_path.with_name(self.link_path.name + ".new")
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(name)
        tmp.replace(self.link_path)

    def unplug(self) -> None:
        """Close the far end: the Pi's reads now fail and the device node disappears."""
        if self._master is not None:
            os.close(self._master)
            self._master = None

    def press(self, label: str, hold_ms: int = 100) -> None:
        """A debounced press and release of `label`; lines are queued even while unplugged."""
        self.core.key_edge(label, True, self.ms)
        self.ms += hold_ms
        self.core.key_edge(label, False, self.ms)
        self.ms += 300

    def advance(self, ms: int) -> None:
        """Let panel time pass (sends a heartbeat when due)."""
        self.ms += ms
        self.core.tick(self.ms)

    def service(self) -> None:
        """Read what the Pi sent and answer it."""
        if self._master is None:
            return
        chunks = []
        while True:
            try:
                chunk = os.read(self._master, 4096)
            except (BlockingIOError, OSError):
                break
            if not chunk:
                break
            chunks.append(chunk)
        if chunks:
            self.core.feed(b"".join(chunks).decode("ascii", "replace"))

    def send_raw(self, data: bytes) -> None:
        """Write bytes as they are (garbage on purpose)."""
        if self._master is not None:
            os.write(self._master, data)

    def close(self) -> None:
        """Unplug and remove the stable name."""
        self.unplug()
        self.link_path.unlink(missing_ok=True)

    def _write(self, line: str) -> None:
        if self._master is None:
            return  # like USB CDC with no host: the line is lost, the key stays unacknowledged
        data = wire_line(self._module, line, self.tampers)
        with contextlib.suppress(OSError):
            os.write(self._master, data)

    def _led(self, name: str, on: bool) -> None:
        self.lights[name] = on


class LoopPanel:
    """A panel on pyserial's `loop://`: its lines travel through the loop to the Pi, and what the
    Pi writes goes to the firmware core instead of echoing back. Pass it as `open_port`'s result.
    """

    def __init__(self, seat: str | None = None, boot: str = "100p0001") -> None:
        import serial

        self._serial = serial
        self.port = serial.serial_for_url("loop://", timeout=0)
        self.lights: dict[str, bool] = {}
        self.buzzes: list[list[int]] = []
        self.seat = seat
        self._module = load_panel_core()
        self.core: Any = self._module.PanelCore(
            self._panel_write, seat=seat, boot=boot, on_led=self._led, on_buzz=self.buzzes.append
        )
        self.ms = 0
        self.unplugged = False
        self.tampers: list[Tamper] = []  # applied to the next lines the panel sends, one each

    def reboot(self, boot: str) -> None:
        """Power-cycle the board without the cable moving: its queue is gone, numbers restart."""
        self.core = self._module.PanelCore(
            self._panel_write, seat=self.seat, boot=boot, on_led=self._led,
            on_buzz=self.buzzes.append,
        )
        self.ms = 0
        self.core.start()

    def advance(self, ms: int) -> None:
        """Let panel time pass (sends a heartbeat when due)."""
        self.ms += ms
        self.core.tick(self.ms)

    def send_raw(self, data: bytes) -> None:
        """Put bytes on the line as they are (garbage on purpose)."""
        if not self.unplugged:
            self.port.write(data)

    def open(self, url: str) -> LoopPanel:
        """The `open_port` callable for PanelLink: fails while unplugged."""
        if self.unplugged:
            raise self._serial.SerialException(f"could not open port {url}: no such device")
        return self

    @property
    def in_waiting(self) -> int:
        """Bytes the Pi can read."""
        if self.unplugged:
            raise self._serial.SerialException("device disconnected")
        return int(self.port.in_waiting)

    def read(self, size: int = 1) -> bytes:
        """What the panel sent."""
        if self.unplugged:
            raise self._serial.SerialException("device disconnected")
        data: bytes = self.port.read(size)
        return data

    def write(self, data: bytes, /) -> int:
        """A command from the Pi, handed to the firmware core."""
        if self.unplugged:
            raise self._serial.SerialException("write failed: device disconnected")
        self.core.feed(data.decode("ascii"))
        return len(data)

    def close(self) -> None:
        """The Pi closed the port; the panel keeps its state."""

    def press(self, label: str, hold_ms: int = 100) -> None:
        """A press and release of `label`."""
        self.core.key_edge(label, True, self.ms)
        self.ms += hold_ms
        self.core.key_edge(label, False, self.ms)
        self.ms += 300

    def unplug(self) -> None:
        """Pull the cable: reads, writes and opening fail; lines from the panel are lost."""
        self.unplugged = True
        self.port.reset_input_buffer()

    def plug(self) -> None:
        """Plug the cable back in."""
        self.unplugged = False

    def _panel_write(self, line: str) -> None:
        if not self.unplugged:
            self.port.write(wire_line(self._module, line, self.tampers))

    def _led(self, name: str, on: bool) -> None:
        self.lights[name] = on
