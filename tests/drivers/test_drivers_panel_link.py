"""The serial panel transport over pyserial's loop:// and over a pty pair that gets unplugged."""

from __future__ import annotations

import functools
import itertools
import logging
import select
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import serial

from drivers.backoff import Backoff
from drivers.fake_panel import PtyPanel
from drivers.inputs import (
    BidPressed,
    ConfirmPressed,
    DriverEvent,
    PanelConnected,
    PanelDisconnected,
    PassPressed,
    TrumpPressed,
)
from drivers.panel_link import PanelLink, SerialPort, find_panel_port
from drivers.panel_protocol import frame

from .conftest import FakeClock


def open_with_short_wait(url: str) -> SerialPort:
    """Like the real opener, but a read waits up to 20 ms so the pty has time to deliver."""
    port: SerialPort = serial.serial_for_url(url, baudrate=115200, timeout=0.02)
    return port


def tried_again(link: PanelLink, attempts: int, events: list[DriverEvent]) -> bool:
    """Whether the link has tried to open the port since `attempts`."""
    return link.open_attempts > attempts


def acknowledge(events: list[DriverEvent]) -> None:
    """What the table does once it has committed each input."""
    for event in events:
        done = getattr(event, "acknowledge", None)
        if done is not None:
            done()


class Pump:
    """Runs the link and the fake panel in turn until a condition holds.

    With `commit` every input is acknowledged as soon as it is read, as a table that commits
    at once would.
    """

    def __init__(self, link: PanelLink, panel: PtyPanel | None = None, commit: bool = True) -> None:
        self.link = link
        self.panel = panel
        self.commit = commit
        self.events: list[DriverEvent] = []

    def until(self, done: Callable[[list[DriverEvent]], bool], limit: int = 100) -> None:
        for _ in range(limit):
            found = self.link.poll()
            if self.commit:
                acknowledge(found)
            self.events += found
            if self.panel is not None and self.panel.plugged:
                fd = self.panel._master
                assert fd is not None
                select.select([fd], [], [], 0.01)
                self.panel.service()
            if done(self.events):
                return
        raise AssertionError(f"condition not reached; events: {self.events}")

    def saw(self, event: DriverEvent) -> Callable[[list[DriverEvent]], bool]:
        start = len(self.events)
        return lambda events: event in events[start:]


def wire(*bodies: str) -> bytes:
    """Panel lines as the firmware puts them on the wire."""
    return "".join(frame(body) + "\n" for body in bodies).encode()


# --- loop:// ---------------------------------------------------------------------------------


@pytest.fixture
def loop_port() -> Iterator[serial.Serial]:
    port = serial.serial_for_url("loop://", timeout=0)
    yield port
    port.close()


def test_loop_transport_reads_panel_lines_and_ignores_own_echo(
    loop_port: serial.Serial, clock: FakeClock
) -> None:
    link = PanelLink("loop://", open_port=lambda url: loop_port, clock=clock)
    assert link.poll() == []  # opened; our HELLO loops back and is ignored as an echo
    loop_port.write(
        wire("HELLO cardtable-panel 2 2.0.0 - b1 1", "DOWN 1 10 HEARTS", "UP 2 90 HEARTS")
    )
    assert link.poll() == [PanelConnected("loop://", "2.0.0", 2, None), TrumpPressed(None, "H")]
    assert link.connected
    assert link.session.garbage_lines == 0
    assert link.set_led("E", True)
    assert link.buzz([40])
    loop_port.write(wire("HB 100 2 b1"))
    assert link.poll() == []
    assert link.session.garbage_lines == 0  # ACK, LED and BUZZ echoes were not garbage


def test_loop_transport_without_panel_gives_up_and_backs_off(clock: FakeClock) -> None:
    opened: list[float] = []

    def opener(url: str) -> SerialPort:
        opened.append(clock())
        port: SerialPort = serial.serial_for_url(url, timeout=0)
        return port

    link = PanelLink(
        "loop://", open_port=opener, clock=clock, backoff=Backoff(0.5, 2, 2.0), silence_s=3
    )
    events: list[DriverEvent] = []
    for _ in range(200):
        events += link.poll()
        clock.advance(0.1)
    assert events == [PanelDisconnected("loop://", "no answer to the handshake")]
    gaps = [b - a for a, b in itertools.pairwise(opened)]
    # 3 s of silence, then waits of 0.5, 1, 2, 2 s (polled every 0.1 s)
    assert gaps[:4] == pytest.approx([3.5, 4.0, 5.0, 5.0], abs=0.11)


def test_loop_transport_drops_silent_panel(loop_port: serial.Serial, clock: FakeClock) -> None:
    link = PanelLink("loop://", open_port=lambda url: loop_port, clock=clock, silence_s=3)
    link.poll()
    loop_port.write(wire("HELLO cardtable-panel 2 2.0.0 - b1 1"))
    assert link.poll() == [PanelConnected("loop://", "2.0.0", 2, None)]
    clock.advance(2.0)
    loop_port.write(wire("HB 2000 0 b1"))
    assert link.poll() == []
    clock.advance(2.9)
    assert link.poll() == []
    clock.advance(0.2)
    assert link.poll() == [PanelDisconnected("loop://", "silent for 3.1 s")]
    assert not link.connected


def test_send_while_disconnected_is_refused(clock: FakeClock) -> None:
    def no_port(url: str) -> SerialPort:
        raise serial.SerialException(f"could not open port {url}")

    link = PanelLink("/dev/serial/by-id/none", open_port=no_port, clock=clock)
    events = link.poll()
    assert events == [
        PanelDisconnected(
            "/dev/serial/by-id/none",
            "cannot open /dev/serial/by-id/none: could not open port /dev/serial/by-id/none",
        )
    ]
    assert not link.buzz([100])
    assert not link.set_led("N", True)
    clock.advance(0.1)
    assert link.poll() == []  # still waiting out the backoff, and reported only once
    assert link.open_attempts == 1


# --- pty pair: unplug and replug ----------------------------------------------------------------


@pytest.fixture
def panel(tmp_path: Path) -> Iterator[PtyPanel]:
    fake = PtyPanel(tmp_path / "usb-MicroPython_Board_in_FS_mode_e660-if00")
    yield fake
    fake.close()


def test_reconnects_three_times_without_losing_a_press(panel: PtyPanel, clock: FakeClock) -> None:
    link = PanelLink(
        str(panel.link_path),
        open_port=open_with_short_wait,
        clock=clock,
        backoff=Backoff(0.5, 2.0, 4.0),
    )
    pump = Pump(link, panel)
    pump.until(pump.saw(PanelConnected(str(panel.link_path), "2.0.0", 2, None)))
    panel.press("4")
    pump.until(pump.saw(BidPressed(None, 4)))
    for _ in range(3):
        panel.unplug()
        pump.until(lambda events: isinstance(events[-1], PanelDisconnected))
        panel.press("PASS")  # pressed while the cable is out
        panel.press("CLUBS")
        attempts = link.open_attempts
        clock.advance(0.6)
        pump.until(functools.partial(tried_again, link, attempts), limit=5)
        assert not link.connected  # the old device is gone: opening fails, backoff grows
        panel.plug()
        clock.advance(5.0)
        pump.until(pump.saw(TrumpPressed(None, "C")))
        panel.press("OK")  # and right after the reconnect
        pump.until(pump.saw(ConfirmPressed(None)))
    inputs = [e for e in pump.events if not isinstance(e, PanelConnected | PanelDisconnected)]
    assert (
        inputs
        == [BidPressed(None, 4)]
        + [
            PassPressed(None),
            TrumpPressed(None, "C"),
            ConfirmPressed(None),
        ]
        * 3
    )
    status = (PanelConnected, PanelDisconnected)
    kinds = [type(e).__name__ for e in pump.events if isinstance(e, status)]
    assert kinds == ["PanelConnected"] + ["PanelDisconnected", "PanelConnected"] * 3
    pump.until(lambda events: panel.core.unacked == [], limit=5)  # every key acknowledged


def test_garbage_from_panel_is_logged_and_skipped(
    panel: PtyPanel, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    link = PanelLink(str(panel.link_path), open_port=open_with_short_wait, clock=clock)
    pump = Pump(link, panel)
    pump.until(lambda events: link.connected)
    with caplog.at_level(logging.WARNING):
        panel.send_raw(b"\x00\xff\xfe garbage\nDOWN one two\n#\n")
        panel.press("HEARTS")
        pump.until(pump.saw(TrumpPressed(None, "H")))
    assert link.session.garbage_lines == 3
    assert "no checksum in line 'DOWN one two'" in caplog.text


def test_lights_are_sent_again_after_reconnect(panel: PtyPanel, clock: FakeClock) -> None:
    link = PanelLink(str(panel.link_path), open_port=open_with_short_wait, clock=clock)
    pump = Pump(link, panel)
    pump.until(lambda events: link.connected)
    link.set_led("S", True)
    link.buzz([200, 100, 200])
    pump.until(lambda events: panel.lights == {"S": True} and panel.buzzes == [[200, 100, 200]])
    panel.unplug()
    pump.until(lambda events: not link.connected)
    panel.lights.clear()
    panel.plug()
    clock.advance(1.0)
    pump.until(lambda events: panel.lights == {"S": True})


def test_heartbeats_keep_the_link_up(panel: PtyPanel, clock: FakeClock) -> None:
    link = PanelLink(str(panel.link_path), open_port=open_with_short_wait, clock=clock)
    pump = Pump(link, panel)
    pump.until(lambda events: link.connected)
    for _ in range(10):
        clock.advance(1.0)
        panel.advance(1000)
        pump.until(lambda events: True, limit=3)
    assert link.connected
    assert not any(isinstance(e, PanelDisconnected) for e in pump.events)


def test_find_panel_port(tmp_path: Path) -> None:
    assert find_panel_port(tmp_path / "absent") is None
    (tmp_path / "usb-FTDI_cable-if00").touch()
    assert find_panel_port(tmp_path) is None
    board = tmp_path / "usb-MicroPython_Board_in_FS_mode_e6614c31-if00"
    board.touch()
    assert find_panel_port(tmp_path) == str(board)
    (tmp_path / "usb-MicroPython_Board_in_FS_mode_ffff-if00").touch()
    assert find_panel_port(tmp_path) is None  # two boards: the config must name one


def test_auto_port_finds_the_board_when_it_appears(tmp_path: Path, clock: FakeClock) -> None:
    from drivers.fake_panel import LoopPanel

    fake = LoopPanel()
    opened: list[str] = []

    def opener(url: str) -> SerialPort:
        opened.append(url)
        return fake.open(url)

    link = PanelLink("auto", open_port=opener, clock=clock, by_id_dir=tmp_path)
    events = link.poll()
    assert events == [
        PanelDisconnected("auto", f"cannot open auto: no single MicroPython board in {tmp_path}")
    ]
    board = tmp_path / "usb-MicroPython_Board_in_FS_mode_e660-if00"
    board.touch()
    clock.advance(1.0)
    for _ in range(3):
        events += link.poll()
    assert opened == [str(board)]
    assert link.connected


def test_run_loop_delivers_events_until_stopped(clock: FakeClock) -> None:
    import threading

    from drivers.fake_panel import LoopPanel

    fake = LoopPanel()
    link = PanelLink("loop://", open_port=fake.open, clock=clock)
    stop = threading.Event()
    delivered: list[DriverEvent] = []
    waits: list[float] = []

    def wait(seconds: float) -> None:
        waits.append(seconds)
        if len(waits) == 3:
            fake.press("SPADES")
        if len(waits) == 6:
            stop.set()

    link.run(stop, delivered.append, interval_s=0.02, sleep=wait)
    assert delivered == [PanelConnected("loop://", "2.0.0", 2, None), TrumpPressed(None, "S")]
    assert waits == [0.02] * 6
    assert not link.connected  # closed on the way out


def test_old_firmware_is_named_in_the_disconnect_reason(
    loop_port: serial.Serial, clock: FakeClock
) -> None:
    link = PanelLink("loop://", open_port=lambda url: loop_port, clock=clock, silence_s=3)
    link.poll()
    loop_port.write(b"HELLO cardtable-panel 1 1.0.0 - b1\n")  # the first firmware: no checksum
    assert link.poll() == []
    clock.advance(3.5)
    reason = "panel firmware 1.0.0 speaks protocol 1, expected 2: flash hardware/panel/ again"
    assert link.poll() == [PanelDisconnected("loop://", reason)]
