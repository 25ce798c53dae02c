"""The panel line protocol: framing and parsing fed bytes directly, the session, the firmware."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable

import pytest

from drivers.debounce import KeyId
from drivers.errors import DriverError, ProtocolError
from drivers.fake_panel import load_panel_core
from drivers.inputs import (
    Acknowledgeable,
    BidPressed,
    ConfirmPressed,
    DriverEvent,
    NewGameConfirmed,
    NewGameRequested,
    PanelConnected,
    PanelKey,
    PanelKeysLost,
    PassPressed,
    TrumpPressed,
    UndoPressed,
)
from drivers.panel_protocol import (
    MAX_LINE,
    Heartbeat,
    Hello,
    KeyEdge,
    KeysDone,
    KeysLost,
    LineFramer,
    PanelComplaint,
    PanelSession,
    checksum,
    encode_ack,
    encode_buzz,
    encode_hello,
    encode_led,
    encode_resend,
    frame,
    parse_line,
)

F = frame
HELLO = F("HELLO cardtable-panel 2 2.0.0 - b00t 1")


def ack_of(event: DriverEvent) -> Callable[[], None]:
    """The acknowledgement a panel input carries."""
    assert isinstance(event, Acknowledgeable) and event.acknowledge is not None
    return event.acknowledge


def acknowledge_all(events: list[DriverEvent]) -> None:
    """What the table does once each input is committed."""
    for event in events:
        done = getattr(event, "acknowledge", None)
        if done is not None:
            done()


def test_checksum_is_the_same_on_both_sides() -> None:
    core = load_panel_core()
    rng = random.Random(3)
    for _ in range(200):
        body = "".join(chr(rng.randint(32, 126)) for _ in range(rng.randint(0, 60)))
        assert core.checksum(body) == checksum(body)
        assert core.frame(body) == frame(body)
        assert core.unframe(frame(body)) == (body, True)
    assert core.unframe("ACK b 3*00") == (None, False)
    assert core.unframe("HELLO 2") == ("HELLO 2", False)


def test_framer_splits_lines_across_chunks() -> None:
    framer = LineFramer()
    assert framer.data_received(b"HB 1") == []
    assert framer.data_received(b"0\r\nDOWN 1 5 OK\nUP") == ["HB 10", "DOWN 1 5 OK"]
    assert framer.data_received(b" 2 9 OK\n") == ["UP 2 9 OK"]


def test_framer_keeps_the_end_of_overlong_and_binary_lines(
    caplog: pytest.LogCaptureFixture,
) -> None:
    framer = LineFramer()
    key = F("DOWN 4 100 OK").encode()
    with caplog.at_level(logging.WARNING):
        assert framer.data_received(b"x" * (MAX_LINE * 3)) == []
        lines = framer.data_received(b"yyy" + key + b"\n")
        assert len(lines) == 1 and lines[0].endswith(key.decode())
        assert len(lines[0]) == MAX_LINE
        binary = framer.data_received(b"\xff\xfe\x00" + key + b"\n")
        assert binary[0].endswith(key.decode()) and "\ufffd" in binary[0]
    assert framer.junk_bytes == MAX_LINE * 2 + 3 + len(key)
    assert "longer than" in caplog.text


def test_framer_counts_half_a_line_left_at_reset(caplog: pytest.LogCaptureFixture) -> None:
    framer = LineFramer()
    assert framer.data_received(F("DOWN 1 5 OK").encode()[:6]) == []
    with caplog.at_level(logging.WARNING):
        framer.reset()
    assert framer.half_lines == 1
    assert "half a panel line" in caplog.text
    framer.reset()
    assert framer.half_lines == 1  # nothing was pending the second time


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (HELLO, Hello(2, "2.0.0", None, "b00t", 1)),
        (F("HELLO cardtable-panel 2 2.1 N ab12 40"), Hello(2, "2.1", "N", "ab12", 40)),
        ("HELLO cardtable-panel 1 1.0.0 - b1", Hello(1, "1.0.0", None, "b1", 1)),  # old firmware
        (F("DOWN 7 1234 OK"), KeyEdge(7, 1234, KeyId("OK"), True)),
        (F("UP 8 1300 E.PASS"), KeyEdge(8, 1300, KeyId("PASS", "E"), False)),
        (F("HB 99 8 b00t"), Heartbeat(99, 8, "b00t")),
        (F("DONE 3 5"), KeysDone(3, 5)),
        (F("LOST 6 6"), KeysLost(6, 6)),
        (F("ERR unknown command FOO"), PanelComplaint("unknown command FOO")),
        ("", None),
        (F("ACK b00t 3"), None),
        (F("RESEND b00t 3"), None),
        (F("HELLO 2"), None),
    ],
)
def test_parse_line(line: str, message: object) -> None:
    assert parse_line(line) == message


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        (F("DOWN x 5 OK"), "sequence number 'x'"),
        (F("DOWN 1 5 SHOUT"), "unknown button 'SHOUT'"),
        (F("DOWN 1 5 Q.OK"), "unknown seat 'Q'"),
        (F("HB 5 1"), "not a panel message"),
        (F("HELLO cardtable-panel 2 1.0 X b 1"), "unknown seat 'X'"),
        ("DOWN 1 5 OK", "no checksum"),
        ("HELLO cardtable-panel 2 2.0.0 - b 1", "not a protocol 2 HELLO"),
        ("DOWN 1 5 OK*" + ("00" if checksum("DOWN 1 5 OK") != "00" else "01"), "bad checksum"),
        (F("DOWN 15 100 OK").replace("15", "1"), "bad checksum"),  # a digit lost on the way
        (F("@@@###"), "not a panel message"),
    ],
)
def test_parse_line_rejects(line: str, fragment: str) -> None:
    with pytest.raises(ProtocolError, match=fragment) as caught:
        parse_line(line)
    assert isinstance(caught.value, DriverError)
    assert isinstance(caught.value, ValueError)


def test_encoders() -> None:
    assert encode_hello() == f"{F('HELLO 2')}\n".encode()
    assert encode_ack("b00t", 12) == f"{F('ACK b00t 12')}\n".encode()
    assert encode_resend("b00t", 7) == f"{F('RESEND b00t 7')}\n".encode()
    assert encode_led("N", True) == f"{F('LED N on')}\n".encode()
    assert encode_buzz([300, 100, 300]) == f"{F('BUZZ 300,100,300')}\n".encode()
    with pytest.raises(ValueError, match="'X'"):
        encode_led("X", True)
    with pytest.raises(ValueError, match=r"\[0\]"):
        encode_buzz([0])


def feed(session: PanelSession, *lines: str) -> tuple[list[DriverEvent], list[bytes]]:
    events: list[DriverEvent] = []
    replies: list[bytes] = []
    for line in lines:
        found, answer = session.line_received(line)
        events += found
        replies += answer
    return events, replies


def ack(seq: int, boot: str = "b00t") -> bytes:
    return encode_ack(boot, seq)


def test_session_acknowledges_a_key_only_when_the_table_does() -> None:
    session = PanelSession("loop://")
    events, replies = feed(
        session, HELLO, F("DOWN 1 100 4"), F("UP 2 200 4"), F("DOWN 3 900 N.PASS")
    )
    assert events == [PanelConnected("loop://", "2.0.0", 2, None), BidPressed(None, 4),
                      PassPressed("N")]  # fmt: skip
    assert replies == [ack(2)]  # the release made nothing: taken at once; the presses wait
    assert session.take_replies() == []
    ack_of(events[2])()
    assert session.take_replies() == [ack(3)]
    ack_of(events[1])()
    assert session.take_replies() == [ack(1)]
    assert feed(session, F("UP 4 1000 N.PASS")) == ([], [ack(4)])


def test_acknowledge_is_left_out_of_equality_and_repr() -> None:
    session = PanelSession("p")
    events, _ = feed(session, HELLO, F("DOWN 1 100 HEARTS"))
    pressed = events[1]
    assert pressed == TrumpPressed(None, "H")
    assert getattr(pressed, "acknowledge", None) is not None
    assert "acknowledge" not in repr(pressed)


def key_of(event: DriverEvent) -> PanelKey | None:
    """The key identity a panel input carries."""
    return getattr(event, "key", None)


def test_inputs_carry_their_key_lines_out_of_equality_and_repr() -> None:
    session = PanelSession("p")
    events, _ = feed(session, HELLO, F("DOWN 1 100 4"), F("UP 2 200 4"), F("DOWN 3 900 PASS"))
    assert [key_of(e) for e in events] == [None, PanelKey("b00t", (1,)), PanelKey("b00t", (3,))]
    assert events[1] == BidPressed(None, 4) and "key" not in repr(events[1])


def test_a_fresh_session_gives_resent_lines_the_same_key() -> None:
    lines = (F("DOWN 1 1000 UNDO"), F("HB 2000 1 b00t"), F("HB 3100 1 b00t"),
             F("UP 2 3500 UNDO"), F("DOWN 3 4000 OK"))  # fmt: skip
    first, _ = feed(PanelSession("p"), HELLO, *lines)
    again, _ = feed(PanelSession("p"), HELLO, *lines)  # the next table, after a restart
    assert key_of(first[-1]) == key_of(again[-1]) == PanelKey("b00t", (1, 2, 3))


def test_session_ack_on_receipt() -> None:
    session = PanelSession("p", ack_on_receipt=True)
    events, replies = feed(session, HELLO, F("DOWN 1 100 HEARTS"), F("UP 2 150 HEARTS"))
    assert replies == [ack(1), ack(2)]
    assert all(getattr(e, "acknowledge", None) is None for e in events)


def test_session_reacknowledges_a_resend_only_when_taken() -> None:
    session = PanelSession("p")
    events_first, _ = feed(session, HELLO, F("DOWN 1 100 OK"), F("UP 2 150 OK"))
    events, replies = feed(session, F("DOWN 1 100 OK"), F("UP 2 150 OK"))
    assert events == [] and replies == [ack(2)]  # 1 is not committed yet: no word on it
    assert session.take_replies() == []
    ack_of(events_first[1])()
    events, replies = feed(session, F("DOWN 1 100 OK"))
    assert events == [] and replies == [ack(1)]  # taken now: said again when resent


def test_session_asks_again_from_a_gap_and_reads_in_order(caplog: pytest.LogCaptureFixture) -> None:
    session = PanelSession("p")
    feed(session, HELLO, F("DOWN 1 100 HEARTS"))
    with caplog.at_level(logging.WARNING):
        events, replies = feed(session, F("DOWN 3 300 4"), F("UP 4 350 4"))
    assert events == []  # not read out of order
    assert replies == [encode_resend("b00t", 2)]  # asked once, not for every later line
    assert "key 2 missing" in caplog.text
    events, replies = feed(session, F("UP 2 150 HEARTS"), F("DOWN 3 300 4"), F("UP 4 350 4"))
    assert events == [BidPressed(None, 4)]
    assert replies == [ack(2), ack(4)]
    assert session.resend_requests == 1


def test_heartbeat_reveals_a_lost_last_line() -> None:
    session = PanelSession("p")
    feed(session, HELLO, F("DOWN 1 100 HEARTS"), F("UP 2 150 HEARTS"))
    assert feed(session, F("HB 1000 2 b00t")) == ([], [])
    assert feed(session, F("HB 2000 3 b00t")) == ([], [encode_resend("b00t", 3)])
    assert feed(session, F("HB 2100 3 b00t")) == ([], [])  # asked less than half a second ago
    assert feed(session, F("HB 2600 3 b00t")) == ([], [encode_resend("b00t", 3)])
    events, _ = feed(session, F("DOWN 3 1500 PASS"))
    assert events == [PassPressed(None)]


def test_done_and_lost_close_a_gap_and_lost_keys_are_reported() -> None:
    session = PanelSession("p")
    feed(session, HELLO)
    events, _ = feed(session, F("DONE 1 2"), F("LOST 3 4"), F("DOWN 5 100 OK"))
    assert events[0] == PanelKeysLost("p", 2, "the panel's queue was full: 2 key edges dropped")
    assert events[1:] == [ConfirmPressed(None)]
    assert feed(session, F("LOST 3 4")) == ([], [])  # told once
    assert session.keys_lost == 2


def test_session_new_boot_restarts_sequence() -> None:
    session = PanelSession("p")
    feed(session, HELLO, F("DOWN 1 100 OK"), F("UP 2 150 OK"))
    events, _ = feed(session, F("HELLO cardtable-panel 2 2.0.0 - other 1"), F("DOWN 1 50 OK"))
    assert events == [PanelConnected("p", "2.0.0", 2, None), ConfirmPressed(None)]


def test_reboot_seen_in_heartbeat_asks_who_it_is_and_old_acks_are_not_reused() -> None:
    session = PanelSession("p")
    events, _ = feed(session, HELLO, F("DOWN 1 100 OK"), F("UP 2 150 OK"), F("HB 5000 2 b00t"))
    acknowledge_all(events)
    session.take_replies()
    # the board restarts with the cable in: numbers begin again, no HELLO got through
    events, replies = feed(session, F("DOWN 1 20 HEARTS"), F("HB 900 1 n3w"))
    assert events == []
    assert replies == [ack(1), encode_hello()]  # the old boot's ACK: the new boot ignores it
    events, _ = feed(
        session, F("HELLO cardtable-panel 2 2.0.0 - n3w 1"), F("DOWN 1 20 HEARTS")
    )
    assert events == [PanelConnected("p", "2.0.0", 2, None), TrumpPressed(None, "H")]


def test_session_ignores_keys_before_handshake_and_wrong_protocol() -> None:
    session = PanelSession("p")
    assert feed(session, F("DOWN 1 100 OK")) == ([], [])
    assert feed(session, F("HELLO cardtable-panel 9 1.0.0 - b 1")) == ([], [])
    assert not session.connected
    assert session.mismatch is not None and "protocol 9, expected 2" in session.mismatch


def test_session_finds_a_key_glued_to_junk(caplog: pytest.LogCaptureFixture) -> None:
    session = PanelSession("p")
    feed(session, HELLO)
    with caplog.at_level(logging.WARNING):
        events, _ = feed(session, "\ufffd\ufffdjunk DOWN DOWN 9 " + F("DOWN 1 100 4"))
    assert events == [BidPressed(None, 4)]
    assert session.resynced_lines == 1 and session.garbage_lines == 0
    events, replies = feed(session, F("DOWN 2 200 4")[:9] + F("UP 3 300 4"))  # half a frame
    assert events == [] and replies == [encode_resend("b00t", 2)]


def test_session_seat_pad_labels_its_keys() -> None:
    session = PanelSession("p")
    events, _ = feed(
        session, F("HELLO cardtable-panel 2 2.0.0 W b 1"), F("DOWN 1 10 UNDO"), F("UP 2 90 UNDO")
    )
    assert events[1:] == [UndoPressed("W")]


def test_session_long_undo_on_panel_time_acknowledged_with_the_ok() -> None:
    session = PanelSession("p")
    events, replies = feed(
        session, HELLO, F("DOWN 1 1000 UNDO"), F("HB 2000 1 b00t"), F("HB 3100 1 b00t"),
        F("UP 2 3500 UNDO"), F("DOWN 3 4000 OK"),
    )  # fmt: skip
    assert events[1:] == [NewGameRequested(None), NewGameConfirmed(None)]
    assert replies == []
    acknowledge_all(events)
    assert session.take_replies() == [ack(1), ack(2), ack(3)]


def test_a_press_resent_without_its_release_does_not_block_the_next() -> None:
    session = PanelSession("p")
    events, _ = feed(session, HELLO, F("DOWN 1 100 HEARTS"), F("DOWN 2 900 HEARTS"))
    assert events[1:] == [TrumpPressed(None, "H"), TrumpPressed(None, "H")]


def test_firmware_core_answers_and_resends_until_acknowledged() -> None:
    core_module = load_panel_core()
    sent: list[str] = []
    lights: list[tuple[str, bool]] = []
    buzzes: list[list[int]] = []
    core = core_module.PanelCore(
        sent.append, seat="S", boot="ab", on_led=lambda n, o: lights.append((n, o)),
        on_buzz=buzzes.append,
    )  # fmt: skip
    core.start()
    core.key_edge("OK", True, 10)
    core.key_edge("OK", False, 90)
    core.feed("HELLO 2\n")
    assert sent == [
        "HELLO cardtable-panel 2 2.0.0 S ab 1", "DOWN 1 10 OK", "UP 2 90 OK",
        "HELLO cardtable-panel 2 2.0.0 S ab 1", "DOWN 1 10 OK", "UP 2 90 OK",
    ]  # fmt: skip
    sent.clear()
    core.feed("ACK ab 1\n")  # no checksum: refused
    core.feed(F("ACK zz 1") + "\n")  # another boot's
    core.feed(F("ACK ab 1") + "\n" + F("HELLO 2") + "\n")
    assert sent == ["ERR no checksum ACK ab 1", "HELLO cardtable-panel 2 2.0.0 S ab 2",
                    "UP 2 90 OK"]  # fmt: skip
    damaged = "LED E on*" + ("00" if checksum("LED E on") != "00" else "01")
    core.feed("LED N on\nBUZZ 30\nBUZZ a,b\nFOO\n" + damaged + "\n")
    assert lights == [("N", True)]
    assert buzzes == [[30]]
    assert sent[-3:] == [
        "ERR bad pattern a,b", "ERR unknown command FOO", f"ERR bad checksum {damaged}"
    ]  # fmt: skip
    core.tick(0)
    core.tick(500)
    core.tick(1000)
    assert [line for line in sent if line.startswith("HB")] == ["HB 0 2 ab", "HB 1000 2 ab"]


def test_firmware_resend_names_every_number_and_reports_overflow() -> None:
    core_module = load_panel_core()
    sent: list[str] = []
    core = core_module.PanelCore(sent.append, boot="ab")
    for n in range(6):
        core.key_edge("4", n % 2 == 0, n * 100)
    for seq in (2, 3, 5):
        core.feed(F(f"ACK ab {seq}") + "\n")
    sent.clear()
    core.feed(F("RESEND ab 2") + "\n")
    assert sent == ["DONE 2 3", "UP 4 300 4", "DONE 5 5", "UP 6 500 4"]
    sent.clear()
    limit = core_module.QUEUE_LIMIT
    for n in range(limit):
        core.key_edge("PASS", n % 2 == 0, 1000 + n)
    assert sent.count("LOST 1 1") == 1 and sent.count("LOST 4 4") == 1  # said when it happens
    assert core.dropped == 3  # 1, 4 and 6 were still waiting for their ACK
    sent.clear()
    core.feed(F("RESEND ab 1") + "\n")
    assert sent[:6] == [
        "LOST 1 1", "DONE 2 3", "LOST 4 4", "DONE 5 5", "LOST 6 6", "DOWN 7 1000 PASS"
    ]  # fmt: skip
    sent.clear()
    core.feed(F("HELLO 2") + "\n")
    assert sent[:4] == [
        "HELLO cardtable-panel 2 2.0.0 - ab 7", "LOST 1 1", "LOST 4 4", "LOST 6 6"
    ]  # fmt: skip
    sent.clear()
    core.feed(F("RESEND other 1") + "\n")  # the Pi still thinks of an earlier boot
    assert sent[0].startswith("HELLO cardtable-panel 2 2.0.0 - ab ")
