"""The panel link under line faults: junk, half frames, lost lines, reboots, a full queue."""

from __future__ import annotations

import itertools
import threading
from pathlib import Path

import pytest
import serial

from drivers.fake_panel import LoopPanel, PtyPanel
from drivers.inputs import (
    Acknowledgeable,
    BidPressed,
    ConfirmPressed,
    DriverEvent,
    PanelConnected,
    PanelDisconnected,
    PanelKeysLost,
    PassPressed,
    TrumpPressed,
)
from drivers.panel_link import RECONNECT_MAX_S, PanelLink, SerialPort
from drivers.panel_protocol import MAX_LINE

from .conftest import FakeClock
from .test_drivers_panel_link import Pump, acknowledge, open_with_short_wait

PRESSES = ["HEARTS", "4", "PASS", "OK", "SPADES", "6", "CLUBS", "MOON"]
EXPECTED = {
    "HEARTS": TrumpPressed(None, "H"), "4": BidPressed(None, 4), "PASS": PassPressed(None),
    "OK": ConfirmPressed(None), "SPADES": TrumpPressed(None, "S"), "6": BidPressed(None, 6),
    "CLUBS": TrumpPressed(None, "C"), "MOON": BidPressed(None, "moon"),
}  # fmt: skip


def inputs_of(events: list[DriverEvent]) -> list[DriverEvent]:
    return [e for e in events if isinstance(e, Acknowledgeable)]


class LoopRig:
    """A LoopPanel, its link on a hand clock, and what the link delivered."""

    def __init__(self, clock: FakeClock, commit: bool = True) -> None:
        self.clock = clock
        self.panel = LoopPanel()
        self.link = PanelLink("loop://", open_port=self.panel.open, clock=clock)
        self.commit = commit
        self.events: list[DriverEvent] = []
        self.poll()

    def poll(self, rounds: int = 3) -> list[DriverEvent]:
        found: list[DriverEvent] = []
        for _ in range(rounds):
            events = self.link.poll()
            if self.commit:
                acknowledge(events)
            found += events
        self.events += found
        return found

    def beat(self, ms: int = 1000) -> list[DriverEvent]:
        """Panel time and host time move on together by `ms`."""
        self.panel.advance(ms)
        self.clock.advance(ms / 1000)
        return self.poll()


@pytest.mark.parametrize("junk", [b"x" * (MAX_LINE * 2), b"\xff\x00garbage" * 5, b"DOWN 9 9"])
def test_key_glued_to_junk_is_read_once_and_acknowledged(clock: FakeClock, junk: bytes) -> None:
    rig = LoopRig(clock)
    rig.panel.tampers.append(lambda data: junk + data)
    rig.panel.press("HEARTS")
    assert inputs_of(rig.poll()) == [TrumpPressed(None, "H")]
    rig.poll()
    assert rig.panel.core.unacked == []
    assert rig.link.session.resynced_lines == 1


@pytest.mark.parametrize(("which", "keep"), list(itertools.product(range(4), (0, 3, 9, 15))))
def test_half_a_frame_is_detected_and_sent_again(clock: FakeClock, which: int, keep: int) -> None:
    """A line cut short (its LF lost too) never hides a key: every press arrives once, in order."""
    rig = LoopRig(clock)
    for _ in range(which):
        rig.panel.tampers.append(lambda data: data)  # the cut falls on a later line
    rig.panel.tampers.append(lambda data: data[:keep])
    for label in PRESSES[:3]:
        rig.panel.press(label)
    rig.poll()
    for _ in range(3):
        rig.beat()
    assert inputs_of(rig.events) == [EXPECTED[label] for label in PRESSES[:3]]
    assert rig.panel.core.unacked == []


def test_last_line_lost_is_found_by_the_heartbeat(clock: FakeClock) -> None:
    rig = LoopRig(clock)
    rig.panel.tampers += [lambda data: b"", lambda data: b""]  # its DOWN and UP lines vanish
    rig.panel.press("PASS")
    assert inputs_of(rig.poll()) == []
    assert inputs_of(rig.beat()) == [PassPressed(None)]
    assert rig.link.session.resend_requests == 1


@pytest.mark.parametrize("hello_lost", [False, True])
def test_panel_reboot_without_usb_drop_loses_no_press(clock: FakeClock, hello_lost: bool) -> None:
    rig = LoopRig(clock)
    for label in PRESSES[:4]:
        rig.panel.press(label)
    rig.poll()
    rig.beat()
    if hello_lost:
        rig.panel.tampers.append(lambda data: b"")  # its power-up HELLO did not get through
    rig.panel.reboot("n3wb00t1")
    for label in PRESSES[4:]:
        rig.panel.press(label)
        rig.poll()
    for _ in range(2):
        rig.beat()
    assert inputs_of(rig.events) == [EXPECTED[label] for label in PRESSES]
    assert rig.link.connected and rig.link.session.hello is not None
    assert rig.link.session.hello.boot == "n3wb00t1"
    assert rig.panel.core.unacked == []


def test_unacknowledged_keys_are_held_by_the_panel_until_committed(clock: FakeClock) -> None:
    rig = LoopRig(clock, commit=False)
    rig.panel.press("HEARTS")
    rig.panel.press("4")
    found = inputs_of(rig.poll())
    assert found == [TrumpPressed(None, "H"), BidPressed(None, 4)]
    assert [seq for seq, _ in rig.panel.core.unacked] == [1, 3]  # the releases are taken
    done = getattr(found[1], "acknowledge")  # noqa: B009
    worker = threading.Thread(target=done)  # the table commits on another thread
    worker.start()
    worker.join()
    assert [seq for seq, _ in rig.panel.core.unacked] == [1]  # written at once, not at a poll


def test_a_new_table_reads_the_key_the_old_one_never_committed(clock: FakeClock) -> None:
    """The table stops between reading a press and committing it; the next one gets it."""
    rig = LoopRig(clock, commit=False)
    rig.panel.press("HEARTS")
    rig.panel.press("4")
    first = inputs_of(rig.poll())
    acknowledge(first[:1])  # HEARTS committed, then the table dies before 4 is
    rig.poll()
    rig.link.close()
    fresh = LoopRig(clock)
    fresh.panel = rig.panel
    fresh.link = PanelLink("loop://", open_port=rig.panel.open, clock=clock)
    fresh.poll()
    fresh.poll()
    assert inputs_of(fresh.events) == [BidPressed(None, 4)]
    assert rig.panel.core.unacked == []


def test_full_queue_is_reported_never_silent(clock: FakeClock) -> None:
    rig = LoopRig(clock)
    rig.panel.unplug()
    rig.poll()
    for label in itertools.islice(itertools.cycle(PRESSES), 40):  # 80 edges, the queue holds 64
        rig.panel.press(label)
    rig.panel.plug()
    clock.advance(RECONNECT_MAX_S)
    rig.poll()
    rig.beat()
    lost = [e for e in rig.events if isinstance(e, PanelKeysLost)]
    reason = "the panel's queue was full: 16 key edges dropped"
    assert lost == [PanelKeysLost("loop://", 16, reason)]
    assert len(inputs_of(rig.events)) == 32  # the 32 presses whose lines the panel still had
    assert rig.panel.core.unacked == []
    rig.link.close()
    again = PanelLink("loop://", open_port=rig.panel.open, clock=clock)  # a restarted table
    events: list[DriverEvent] = []
    for _ in range(3):
        events += again.poll()
    assert [e for e in events if isinstance(e, PanelKeysLost)] == lost[:1]  # told it too


def test_default_reconnect_backoff_is_capped(clock: FakeClock) -> None:
    opened: list[float] = []

    def opener(url: str) -> SerialPort:
        opened.append(clock())
        raise serial.SerialException(f"could not open port {url}")

    link = PanelLink("/dev/serial/by-id/none", open_port=opener, clock=clock)
    for _ in range(600):
        link.poll()
        clock.advance(0.05)
    gaps = [b - a for a, b in itertools.pairwise(opened)]
    assert max(gaps) <= RECONNECT_MAX_S + 0.051
    assert RECONNECT_MAX_S <= 2.0
    assert gaps[-1] == pytest.approx(RECONNECT_MAX_S, abs=0.051)


def test_pty_key_glued_to_long_junk_then_unplugged_mid_frame(
    tmp_path: Path, clock: FakeClock
) -> None:
    panel = PtyPanel(tmp_path / "usb-MicroPython_Board_in_FS_mode_e660-if00")
    try:
        link = PanelLink(str(panel.link_path), open_port=open_with_short_wait, clock=clock)
        pump = Pump(link, panel)
        pump.until(lambda events: link.connected)
        panel.tampers.append(lambda data: b"#" * (MAX_LINE * 3) + data)
        panel.press("4")
        pump.until(pump.saw(BidPressed(None, 4)))
        panel.tampers.append(lambda data: data[:7])  # half of the next line, then the cable goes
        panel.core.key_edge("PASS", True, panel.ms)
        pump.until(lambda events: True, limit=3)
        panel.unplug()
        pump.until(lambda events: isinstance(events[-1], PanelDisconnected))
        panel.plug()
        clock.advance(RECONNECT_MAX_S)
        pump.until(pump.saw(PassPressed(None)))
        panel.core.key_edge("PASS", False, panel.ms + 100)
        pump.until(lambda events: panel.core.unacked == [], limit=5)
        assert link.framer.half_lines == 1
        assert [e for e in pump.events if isinstance(e, Acknowledgeable)] == [
            BidPressed(None, 4), PassPressed(None)
        ]  # fmt: skip
        kinds = [type(e) for e in pump.events if isinstance(e, PanelConnected | PanelDisconnected)]
        assert kinds == [PanelConnected, PanelDisconnected, PanelConnected]
    finally:
        panel.close()
