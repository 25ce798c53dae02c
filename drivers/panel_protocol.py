"""The serial panel's line protocol (version 2): framing, parsing and the Pi's side of a session.

Lines are ASCII, one message per line ending in LF (a CR before it is dropped). Every line
carries a checksum: `<body>*<hh>`, hh the XOR of the body's bytes in two hex digits (as NMEA
does). A line whose checksum is missing or wrong is not a message; the panel accepts Pi lines
without a checksum (typed by hand) except ACK and RESEND, which change its queue.

Panel to Pi:
  HELLO cardtable-panel <protocol> <firmware> <seat|-> <boot> <next>
                                  who it is; sent unasked at power-up and as the answer to
                                  HELLO, then LOST for remembered lost keys and every key line
                                  still unacknowledged; next = its oldest such key (or the next
                                  number it will give)
  DOWN <seq> <ms> <button>        a button went down; ms = panel uptime; button `OK` or `N.OK`
  UP <seq> <ms> <button>          it came back up
  HB <ms> <seq> <boot>            heartbeat about once a second; seq = the last number given
  DONE <first> <last>             answer to RESEND: these keys were acknowledged already
  LOST <first> <last>             these keys were dropped from a full queue (sent when it
                                  happens and again after HELLO and RESEND)
  ERR <text>                      the panel did not understand a command

Pi to panel:
  HELLO <protocol>                handshake
  ACK <boot> <seq>                the key line `seq` is taken (the table has committed what it
                                  made); an ACK naming another boot is ignored
  RESEND <boot> <seq>             send everything again from `seq` (the Pi saw a gap)
  LED <name> <on|off>             name: N, E, S, W (turn lights), ACCEPT, RENEGE
  BUZZ <ms>[,<ms>...]             buzzer pattern: on, off, on, ... in milliseconds

Key lines are numbered per boot and read strictly in order: a line after a gap is not read,
the Pi asks RESEND from the first missing number (a gap shows as a jump in the numbers, or a
heartbeat naming a number not yet read), and the panel answers with the held lines, DONE and
LOST, so nothing is skipped unseen. Each key is acknowledged by itself, only once what it
made is committed, so a key that was read but not committed is sent again to the next table
that says HELLO; the input carries its key lines (`key`), which the table records with what the
key made, so a key committed but not acknowledged before a restart is not applied twice. A
heartbeat naming another boot means the panel restarted without the cable
moving (its HELLO lost): the Pi says HELLO and reads the new boot's keys from its first.
"""

from __future__ import annotations

import collections
import functools
import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import TypeAlias, cast

from drivers.debounce import KeyId, KeyReader, KeyTiming
from drivers.errors import ProtocolError
from drivers.inputs import (
    SEATS,
    Acknowledgeable,
    DriverEvent,
    PanelConnected,
    PanelKey,
    PanelKeysLost,
    Seat,
)
from drivers.keys import KEY_NAMES

PROTOCOL_VERSION = 2
PANEL_NAME = "cardtable-panel"
MAX_LINE = 200
RESEND_AFTER_MS = 500  # ask again for the same missing line after this much panel time
ACKED_MEMORY = 512  # acknowledged numbers remembered, to answer a resend the ACK of which got lost
LED_NAMES = frozenset({"N", "E", "S", "W", "ACCEPT", "RENEGE"})
HOST_VERBS = frozenset({"ACK", "RESEND", "LED", "BUZZ"})
FRAME_START = re.compile(r"(?:HELLO cardtable-panel|DOWN|UP|HB|DONE|LOST|ERR) ")

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Hello:
    """The panel's answer to the handshake; `next` is its oldest unacknowledged key."""

    protocol: int
    firmware: str
    seat: Seat | None
    boot: str
    next: int = 1


@dataclass(frozen=True)
class KeyEdge:
    """A button went down or up on the panel at panel time `ms`."""

    seq: int
    ms: int
    key: KeyId
    pressed: bool


@dataclass(frozen=True)
class Heartbeat:
    """The panel is alive; `ms` is its uptime, `seq` the last key number of boot `boot`."""

    ms: int
    seq: int
    boot: str


@dataclass(frozen=True)
class KeysDone:
    """Keys `first`..`last` were acknowledged before; nothing to read there."""

    first: int
    last: int


@dataclass(frozen=True)
class KeysLost:
    """Keys `first`..`last` were dropped by the panel when its queue was full."""

    first: int
    last: int


@dataclass(frozen=True)
class PanelComplaint:
    """The panel did not understand something the Pi sent."""

    text: str


PanelMessage: TypeAlias = Hello | KeyEdge | Heartbeat | KeysDone | KeysLost | PanelComplaint


def checksum(body: str) -> str:
    """Two hex digits: the XOR of every byte of `body`."""
    total = 0
    for byte in body.encode("ascii", "replace"):
        total ^= byte
    return f"{total:02X}"


def frame(body: str) -> str:
    """A line as it goes on the wire, without its LF: `body*hh`."""
    return f"{body}*{checksum(body)}"


def unframe(line: str) -> tuple[str | None, bool]:
    """(body, checked): a line without a checksum comes back unchecked; a wrong one gives None."""
    star = line.rfind("*")
    if star < 0 or len(line) - star != 3:
        return line, False
    body = line[:star]
    if line[star + 1 :].upper() != checksum(body):
        return None, False
    return body, True


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
    """One line from the panel as a message; None for a blank line or an echo of a Pi command.

    The checksum is required; only an older firmware's HELLO is read without one, so that the
    session can say which firmware to flash.
    """
    body, checked = unframe(line.strip())
    if body is None:
        raise ProtocolError(f"bad checksum in line {line!r}")
    words = body.split()
    if not words:
        return None
    verb, args = words[0], words[1:]
    if verb in HOST_VERBS or (verb == "HELLO" and len(args) == 1):
        return None  # our own command echoed back (a board sitting at its REPL echoes input)
    if verb == "HELLO" and len(args) >= 5 and args[0] == PANEL_NAME:
        protocol = _number(args[1], "protocol", line)
        if protocol == PROTOCOL_VERSION and (len(args) != 6 or not checked):
            raise ProtocolError(f"not a protocol {PROTOCOL_VERSION} HELLO: {line!r}")
        seat = None if args[3] == "-" else args[3]
        if seat is not None and seat not in SEATS:
            raise ProtocolError(f"unknown seat {seat!r} in line {line!r}")
        after = _number(args[5], "next key", line) if len(args) == 6 else 1
        return Hello(protocol, args[2], seat, args[4], after)
    if not checked:
        raise ProtocolError(f"no checksum in line {line!r}")
    if verb in ("DOWN", "UP") and len(args) == 3:
        seq = _number(args[0], "sequence number", line)
        ms = _number(args[1], "time", line)
        return KeyEdge(seq, ms, parse_key(args[2], line), verb == "DOWN")
    if verb == "HB" and len(args) == 3:
        ms = _number(args[0], "time", line)
        return Heartbeat(ms, _number(args[1], "sequence number", line), args[2])
    if verb in ("DONE", "LOST") and len(args) == 2:
        first = _number(args[0], "sequence number", line)
        last = _number(args[1], "sequence number", line)
        return KeysDone(first, last) if verb == "DONE" else KeysLost(first, last)
    if verb == "ERR":
        return PanelComplaint(" ".join(args))
    raise ProtocolError(f"not a panel message: {line!r}")


def find_frame(line: str) -> PanelMessage | None:
    """The first checked panel message that starts inside `line` after junk; None if none does."""
    for match in FRAME_START.finditer(line):
        if match.start() == 0:
            continue
        try:
            message = parse_line(line[match.start() :])
        except ProtocolError:
            continue
        if message is not None:
            return message
    return None


class LineFramer:
    """Bytes in, complete lines out, like pyserial's `LineReader` but without a thread.

    A line longer than `max_line` keeps only its last `max_line` bytes (a key glued to the end
    of junk survives, the checksum tells whether it is whole); bytes that are not ASCII become
    U+FFFD so that the rest of the line can still be read.
    """

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self.max_line = max_line
        self.junk_bytes = 0  # bytes cut from overlong lines
        self.half_lines = 0  # partial lines dropped at a reconnect
        self._buffer = bytearray()

    def data_received(self, data: bytes) -> list[str]:
        """Add bytes; returns each complete line (decoded, CR stripped)."""
        lines: list[str] = []
        self._buffer.extend(data)
        while True:
            end = self._buffer.find(b"\n")
            if end < 0:
                self._cut(self._buffer)
                return lines
            raw = bytearray(self._buffer[:end].rstrip(b"\r"))
            del self._buffer[: end + 1]
            self._cut(raw)
            lines.append(raw.decode("ascii", "replace"))

    def _cut(self, buffer: bytearray) -> None:
        excess = len(buffer) - self.max_line
        if excess > 0:
            log.warning("panel line longer than %d bytes: %d bytes cut", self.max_line, excess)
            self.junk_bytes += excess
            del buffer[:excess]

    def reset(self) -> None:
        """Forget a partial line (after a reconnect); it is counted and logged, not hidden."""
        if self._buffer:
            self.half_lines += 1
            log.warning("half a panel line dropped at reconnect: %r", bytes(self._buffer[:60]))
        self._buffer.clear()


def encode_hello() -> bytes:
    """The handshake request."""
    return (frame(f"HELLO {PROTOCOL_VERSION}") + "\n").encode()


def encode_ack(boot: str, seq: int) -> bytes:
    """Acknowledge the key line `seq` of boot `boot`."""
    return (frame(f"ACK {boot} {seq}") + "\n").encode()


def encode_resend(boot: str, seq: int) -> bytes:
    """Ask for every key line from `seq` on again."""
    return (frame(f"RESEND {boot} {seq}") + "\n").encode()


def encode_led(name: str, on: bool) -> bytes:
    """Switch a panel light."""
    if name not in LED_NAMES:
        raise ValueError(f"unknown panel light {name!r}: expected one of {sorted(LED_NAMES)}")
    return (frame(f"LED {name} {'on' if on else 'off'}") + "\n").encode()


def encode_buzz(pattern_ms: Iterable[int]) -> bytes:
    """Play a buzzer pattern: on, off, on, ... in milliseconds."""
    steps = [int(ms) for ms in pattern_ms]
    if not steps or any(ms <= 0 or ms > 10_000 for ms in steps):
        raise ValueError(f"buzzer pattern {steps!r}: expected 1..10000 ms steps")
    return (frame("BUZZ " + ",".join(str(ms) for ms in steps)) + "\n").encode()


class PanelSession:
    """The Pi's side of one panel: lines in, events and replies out; no I/O.

    Key edges are read in order by a KeyReader running on the panel's own clock (the ms in each
    line), so presses that waited in the panel during a disconnect keep their timing. The input
    a key makes carries `acknowledge` and `key` (its boot and line numbers); calling
    `acknowledge` (from any thread) queues that key's ACK for `take_replies`. Edges that make no
    input are acknowledged at once unless UNDO is held or a new game waits for OK. With
    `ack_on_receipt` every key is acknowledged as it is read.
    """

    def __init__(
        self, port: str, timing: KeyTiming | None = None, *, ack_on_receipt: bool = False
    ) -> None:
        self.port = port
        self.timing = timing or KeyTiming(settle_s=0.0)  # the firmware debounces
        self.ack_on_receipt = ack_on_receipt
        self.hello: Hello | None = None
        self.garbage_lines = 0
        self.resynced_lines = 0  # messages found after junk on the same line
        self.resend_requests = 0
        self.keys_lost = 0
        self.messages = 0  # lines that were panel messages (proof the panel is alive)
        self.mismatch: str | None = None  # why the last handshake was refused
        self.on_acknowledge: Callable[[], None] | None = None  # told when the table acknowledges
        self._acks: collections.deque[tuple[str, int]] = collections.deque()  # thread-safe
        self._start_boot(None, 1)

    def _start_boot(self, boot: str | None, first: int) -> None:
        self._reader = KeyReader(self.timing)
        self._boot = boot
        self._expected = first
        self._read_from = first
        self._held: list[int] = []
        self._down: set[KeyId] = set()
        self._acked: set[int] = set()
        self._acked_order: collections.deque[int] = collections.deque()
        self._lost_seen: set[int] = set()
        self._asked: tuple[int, int] | None = None

    @property
    def connected(self) -> bool:
        """Whether the handshake has been answered."""
        return self.hello is not None

    @property
    def expected(self) -> int:
        """The number of the next key line to read."""
        return self._expected

    def lost(self) -> None:
        """The line went down; the next HELLO starts over (same boot keeps its sequence)."""
        self.hello = None

    def line_received(self, line: str) -> tuple[list[DriverEvent], list[bytes]]:
        """Handle one line: returns (events, replies to send)."""
        message = self._parse(line)
        if message is None:
            return [], []
        self.messages += 1
        if isinstance(message, Hello):
            return self._hello(message), self.take_replies()
        if self.hello is None:
            log.debug("panel on %s: %r before the handshake; ignored", self.port, line)
            return [], []
        events: list[DriverEvent] = []
        replies: list[bytes] = []
        if isinstance(message, KeyEdge):
            events, replies = self._edge(message)
        elif isinstance(message, Heartbeat):
            events, replies = self._heartbeat(message)
        elif isinstance(message, KeysDone):
            if message.first <= self._expected <= message.last:
                self._expected = message.last + 1
        elif isinstance(message, KeysLost):
            events = self._keys_lost(message)
        else:
            log.warning("panel on %s complains: %s", self.port, message.text)
        self._settle_idle()
        return events, replies + self.take_replies()

    def take_replies(self) -> list[bytes]:
        """The ACK lines for keys acknowledged since the last call."""
        replies: list[bytes] = []
        while self._acks:
            boot, seq = self._acks.popleft()
            if boot == self._boot and seq not in self._acked:
                self._acked.add(seq)
                self._acked_order.append(seq)
                if len(self._acked_order) > ACKED_MEMORY:
                    self._acked.discard(self._acked_order.popleft())
            replies.append(encode_ack(boot, seq))
        return replies

    def _parse(self, line: str) -> PanelMessage | None:
        try:
            return parse_line(line)
        except ProtocolError as error:
            found = find_frame(line)
            if found is not None:
                self.resynced_lines += 1
                log.warning("panel on %s: junk before a message skipped: %r", self.port, line)
                return found
            self.garbage_lines += 1
            log.warning("panel on %s: %s", self.port, error)
            return None

    def _hello(self, hello: Hello) -> list[DriverEvent]:
        if hello.protocol != PROTOCOL_VERSION:
            self.mismatch = (
                f"panel firmware {hello.firmware} speaks protocol {hello.protocol}, "
                f"expected {PROTOCOL_VERSION}: flash hardware/panel/ again"
            )
            log.warning("panel on %s: %s", self.port, self.mismatch)
            return []
        was = self.hello
        if hello.boot != self._boot:
            if self._boot is not None:
                log.warning("panel on %s restarted (boot %s)", self.port, hello.boot)
            self._start_boot(hello.boot, hello.next)
        # On the same boot the keys between `expected` and `next` were never read by us: the
        # LOST lines that follow the HELLO (or a RESEND) account for them.
        self.hello = hello
        if was is not None and was.boot == hello.boot:
            return []
        return [PanelConnected(self.port, hello.firmware, hello.protocol, hello.seat)]

    def _edge(self, edge: KeyEdge) -> tuple[list[DriverEvent], list[bytes]]:
        if edge.seq < self._expected:
            if edge.seq in self._acked:  # our ACK was lost on the way: say it again
                assert self._boot is not None
                return [], [encode_ack(self._boot, edge.seq)]
            return [], []  # read already; its ACK comes when what it made is committed
        if edge.seq > self._expected:
            return [], self._ask(edge.ms)
        self._expected += 1
        key = edge.key
        if key.seat is None and self.hello is not None and self.hello.seat is not None:
            key = KeyId(key.name, self.hello.seat)
        now = edge.ms / 1000
        events: list[DriverEvent] = []
        if edge.pressed and key in self._down:
            events += self._reader.edge(key, False, now)  # its release was taken by a table before
        if edge.pressed:
            self._down.add(key)
        else:
            self._down.discard(key)
        events += self._reader.edge(key, edge.pressed, now) + self._reader.tick(now)
        self._held.append(edge.seq)
        return self._attach(events), []

    def _heartbeat(self, beat: Heartbeat) -> tuple[list[DriverEvent], list[bytes]]:
        if beat.boot != self._boot:
            log.warning("panel on %s restarted as boot %s: asking who it is", self.port, beat.boot)
            return [], [encode_hello()]
        events = self._attach(self._reader.tick(beat.ms / 1000))
        if beat.seq >= self._expected:
            return events, self._ask(beat.ms)
        return events, []

    def _keys_lost(self, lost: KeysLost) -> list[DriverEvent]:
        fresh = [
            seq
            for seq in range(lost.first, lost.last + 1)
            if seq not in self._lost_seen and not self._read_from <= seq < self._expected
        ]
        self._lost_seen.update(range(lost.first, lost.last + 1))
        if lost.first <= self._expected <= lost.last:
            self._expected = lost.last + 1
        if not fresh:
            return []
        self.keys_lost += len(fresh)
        reason = f"the panel's queue was full: {len(fresh)} key edges dropped"
        log.warning("panel on %s: %s (%d..%d)", self.port, reason, lost.first, lost.last)
        return [PanelKeysLost(self.port, len(fresh), reason)]

    def _ask(self, ms: int) -> list[bytes]:
        asked = self._asked
        recent = asked is not None and ms - asked[1] < RESEND_AFTER_MS  # resent lines: older ms
        if asked is not None and asked[0] == self._expected and recent:
            return []
        assert self._boot is not None
        self._asked = (self._expected, ms)
        self.resend_requests += 1
        log.warning("panel on %s: key %d missing; asking again", self.port, self._expected)
        return [encode_resend(self._boot, self._expected)]

    def _attach(self, events: list[DriverEvent]) -> list[DriverEvent]:
        """Give the last input the acknowledgement, and the identity, of every edge read since
    the last one."""
        inputs = [i for i, event in enumerate(events) if isinstance(event, Acknowledgeable)]
        if not inputs or not self._held:
            return events
        seqs, self._held = tuple(self._held), []
        assert self._boot is not None
        if self.ack_on_receipt:
            self._acknowledge(self._boot, seqs)
            return events
        last = inputs[-1]
        done = functools.partial(self._table_acknowledged, self._boot, seqs)
        event = events[last]
        assert isinstance(event, Acknowledgeable)
        key = PanelKey(self._boot, seqs)
        events[last] = cast(DriverEvent, replace(event, acknowledge=done, key=key))
        return events

    def _settle_idle(self) -> None:
        """Acknowledge edges that made nothing and can make nothing later (only a held UNDO, or
        a new game waiting for OK, turns later edges into an input)."""
        undo_held = any(key.name == "UNDO" for key in self._down)
        if self._held and not undo_held and not self._reader.new_game_pending:
            assert self._boot is not None
            seqs, self._held = tuple(self._held), []
            self._acknowledge(self._boot, seqs)

    def _acknowledge(self, boot: str, seqs: tuple[int, ...]) -> None:
        for seq in seqs:
            self._acks.append((boot, seq))

    def _table_acknowledged(self, boot: str, seqs: tuple[int, ...]) -> None:
        self._acknowledge(boot, seqs)
        if self.on_acknowledge is not None:
            self.on_acknowledge()
