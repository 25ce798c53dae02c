"""The serial panel's line protocol: framing, parsing and the Pi's side of a session.

Lines are ASCII, one message per line ending in LF (a CR before it is dropped).

Panel to Pi:
  HELLO cardtable-panel <protocol> <firmware> <seat|-> <boot>   answer to the Pi's HELLO
  DOWN <seq> <ms> <button>        a button went down; ms = panel uptime; button `OK` or `N.OK`
  UP <seq> <ms> <button>          it came back up
  HB <ms>                         heartbeat, about once a second
  ERR <text>                      the panel did not understand a command

Pi to panel:
  HELLO <protocol>                handshake; the panel answers and resends unacknowledged keys
  ACK <seq>                       every key line up to seq arrived
  LED <name> <on|off>             name: N, E, S, W (turn lights), ACCEPT, RENEGE
  BUZZ <ms>[,<ms>...]             buzzer pattern: on, off, on, ... in milliseconds

Key lines carry a sequence number that restarts with each boot (the boot id in HELLO), so a
key pressed while the cable was out arrives exactly once after the reconnect.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeAlias

from drivers.debounce import KeyId, KeyReader, KeyTiming
from drivers.errors import ProtocolError
from drivers.inputs import SEATS, DriverEvent, PanelConnected, Seat
from drivers.keys import KEY_NAMES

PROTOCOL_VERSION = 1
PANEL_NAME = "cardtable-panel"
MAX_LINE = 200
LED_NAMES = frozenset({"N", "E", "S", "W", "ACCEPT", "RENEGE"})
HOST_VERBS = frozenset({"ACK", "LED", "BUZZ"})

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Hello:
    """The panel's answer to the handshake."""

    protocol: int
    firmware: str
    seat: Seat | None
    boot: str


@dataclass(frozen=True)
class KeyEdge:
    """A button went down or up on the panel at panel time `ms`."""

    seq: int
    ms: int
    key: KeyId
    pressed: bool


@dataclass(frozen=True)
class Heartbeat:
    """The panel is alive; `ms` is its uptime."""

    ms: int


@dataclass(frozen=True)
class PanelComplaint:
    """The panel did not understand something the Pi sent."""

    text: str


PanelMessage: TypeAlias = Hello | KeyEdge | Heartbeat | PanelComplaint


def _number(text: str, what: str, line: str) -> int:
    if not text.isdigit():
        raise ProtocolError(f"{what} {text!r} is not a number in line {line!r}")
    return int(text)


def parse_key(label: str, line: str) -> KeyId:
    """`OK` or `N.OK` as a KeyId; raises ProtocolError naming the label."""
    seat, _, name = label.rpartition(".")
    if seat and seat not in SEATS:
        raise ProtocolError(f"unknown seat {seat!r} in line {line!r}")
    if name not in KEY_NAMES:
        raise ProtocolError(f"unknown button {name!r} in line {line!r}")
    return KeyId(name, seat or None)


def parse_line(line: str) -> PanelMessage | None:
    """One line from the panel as a message; None for a blank line or an echo of a Pi command."""
    words = line.split()
    if not words:
        return None
    verb, args = words[0], words[1:]
    if verb in HOST_VERBS or (verb == "HELLO" and len(args) == 1):
        return None  # our own command echoed back (a board sitting at its REPL echoes input)
    if verb == "HELLO" and len(args) == 5 and args[0] == PANEL_NAME:
        seat = None if args[3] == "-" else args[3]
        if seat is not None and seat not in SEATS:
            raise ProtocolError(f"unknown seat {seat!r} in line {line!r}")
        protocol = _number(args[1], "protocol", line)
        return Hello(protocol, args[2], seat, args[4])
    if verb in ("DOWN", "UP") and len(args) == 3:
        seq = _number(args[0], "sequence number", line)
        ms = _number(args[1], "time", line)
        return KeyEdge(seq, ms, parse_key(args[2], line), verb == "DOWN")
    if verb == "HB" and len(args) == 1:
        return Heartbeat(_number(args[0], "time", line))
    if verb == "ERR":
        return PanelComplaint(" ".join(args))
    raise ProtocolError(f"not a panel message: {line!r}")


class LineFramer:
    """Bytes in, complete lines out, like pyserial's `LineReader` but without a thread."""

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self.max_line = max_line
        self._buffer = bytearray()
        self._discarding = False

    def data_received(self, data: bytes) -> list[str]:
        """Add bytes; returns each complete line (decoded, CR stripped); overlong lines dropped."""
        lines: list[str] = []
        self._buffer.extend(data)
        while True:
            end = self._buffer.find(b"\n")
            if end < 0:
                if len(self._buffer) > self.max_line:
                    log.warning("panel line longer than %d bytes dropped", self.max_line)
                    self._buffer.clear()
                    self._discarding = True
                return lines
            raw = bytes(self._buffer[:end]).rstrip(b"\r")
            del self._buffer[: end + 1]
            if self._discarding:
                self._discarding = False
                continue
            if len(raw) > self.max_line:
                log.warning("panel line longer than %d bytes dropped", self.max_line)
                continue
            try:
                lines.append(raw.decode("ascii"))
            except UnicodeDecodeError:
                log.warning("panel sent non-ASCII bytes %r; line ignored", raw[:40])

    def reset(self) -> None:
        """Forget a partial line (after a reconnect)."""
        self._buffer.clear()
        self._discarding = False


def encode_hello() -> bytes:
    """The handshake request."""
    return f"HELLO {PROTOCOL_VERSION}\n".encode()


def encode_ack(seq: int) -> bytes:
    """Acknowledge every key line up to `seq`."""
    return f"ACK {seq}\n".encode()


def encode_led(name: str, on: bool) -> bytes:
    """Switch a panel light."""
    if name not in LED_NAMES:
        raise ValueError(f"unknown panel light {name!r}: expected one of {sorted(LED_NAMES)}")
    return f"LED {name} {'on' if on else 'off'}\n".encode()


def encode_buzz(pattern_ms: Iterable[int]) -> bytes:
    """Play a buzzer pattern: on, off, on, ... in milliseconds."""
    steps = [int(ms) for ms in pattern_ms]
    if not steps or any(ms <= 0 or ms > 10_000 for ms in steps):
        raise ValueError(f"buzzer pattern {steps!r}: expected 1..10000 ms steps")
    return ("BUZZ " + ",".join(str(ms) for ms in steps) + "\n").encode()


class PanelSession:
    """The Pi's side of one panel: lines in, events and replies out; no I/O.

    Key edges are read by a KeyReader running on the panel's own clock (the ms in each line),
    so presses that waited in the panel during a disconnect keep their timing.
    """

    def __init__(self, port: str, timing: KeyTiming | None = None) -> None:
        self.port = port
        self.timing = timing or KeyTiming(settle_s=0.0)  # the firmware debounces
        self.hello: Hello | None = None
        self.garbage_lines = 0
        self.messages = 0  # lines that were panel messages (proof the panel is alive)
        self._reader = KeyReader(self.timing)
        self._boot: str | None = None
        self._last_seq = 0

    @property
    def connected(self) -> bool:
        """Whether the handshake has been answered."""
        return self.hello is not None

    def lost(self) -> None:
        """The line went down; the next HELLO starts over (same boot keeps its sequence)."""
        self.hello = None

    def line_received(self, line: str) -> tuple[list[DriverEvent], list[bytes]]:
        """Handle one line: returns (events, replies to send)."""
        try:
            message = parse_line(line)
        except ProtocolError as error:
            self.garbage_lines += 1
            log.warning("panel on %s: %s", self.port, error)
            return [], []
        if message is None:
            return [], []
        self.messages += 1
        if isinstance(message, Hello):
            return self._hello(message), []
        if self.hello is None:
            log.debug("panel on %s: %r before the handshake; ignored", self.port, line)
            return [], []
        if isinstance(message, KeyEdge):
            return self._edge(message)
        if isinstance(message, Heartbeat):
            return self._reader.tick(message.ms / 1000), []
        log.warning("panel on %s complains: %s", self.port, message.text)
        return [], []

    def _hello(self, hello: Hello) -> list[DriverEvent]:
        if hello.protocol != PROTOCOL_VERSION:
            self.garbage_lines += 1
            log.warning(
                "panel on %s speaks protocol %d, expected %d; ignored",
                self.port,
                hello.protocol,
                PROTOCOL_VERSION,
            )
            return []
        if hello.boot != self._boot:
            self._boot = hello.boot
            self._last_seq = 0
            self._reader = KeyReader(self.timing)
        self.hello = hello
        return [PanelConnected(self.port, hello.firmware, hello.protocol, hello.seat)]

    def _edge(self, edge: KeyEdge) -> tuple[list[DriverEvent], list[bytes]]:
        if edge.seq <= self._last_seq:
            return [], [encode_ack(self._last_seq)]  # a resend of something already read
        self._last_seq = edge.seq
        key = edge.key
        if key.seat is None and self.hello is not None and self.hello.seat is not None:
            key = KeyId(key.name, self.hello.seat)
        now = edge.ms / 1000
        events = self._reader.edge(key, edge.pressed, now) + self._reader.tick(now)
        return events, [encode_ack(edge.seq)]
