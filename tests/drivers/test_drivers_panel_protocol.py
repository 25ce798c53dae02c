"""The panel line protocol: framing and parsing fed bytes directly, and the firmware core."""

from __future__ import annotations

import logging

import pytest

from drivers.debounce import KeyId
from drivers.errors import DriverError, ProtocolError
from drivers.fake_panel import load_panel_core
from drivers.inputs import (
    BidPressed,
    ConfirmPressed,
    NewGameConfirmed,
    NewGameRequested,
    PanelConnected,
    PassPressed,
    UndoPressed,
)
from drivers.panel_protocol import (
    MAX_LINE,
    Heartbeat,
    Hello,
    KeyEdge,
    LineFramer,
    PanelComplaint,
    PanelSession,
    encode_ack,
    encode_buzz,
    encode_hello,
    encode_led,
    parse_line,
)

HELLO = "HELLO cardtable-panel 1 1.0.0 - b00t"


def test_framer_splits_lines_across_chunks() -> None:
    framer = LineFramer()
    assert framer.data_received(b"HB 1") == []
    assert framer.data_received(b"0\r\nDOWN 1 5 OK\nUP") == ["HB 10", "DOWN 1 5 OK"]
    assert framer.data_received(b" 2 9 OK\n") == ["UP 2 9 OK"]


def test_framer_drops_overlong_and_binary_lines(caplog: pytest.LogCaptureFixture) -> None:
    framer = LineFramer()
    with caplog.at_level(logging.WARNING):
        assert framer.data_received(b"x" * (MAX_LINE + 5)) == []
        assert framer.data_received(b"yyy\nHB 3\n") == ["HB 3"]  # tail of the long line dropped
        assert framer.data_received(b"\xff\xfe\x00\nHB 4\n") == ["HB 4"]
    assert "longer than" in caplog.text
    assert "non-ASCII" in caplog.text


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (HELLO, Hello(1, "1.0.0", None, "b00t")),
        ("HELLO cardtable-panel 1 2.1 N ab12", Hello(1, "2.1", "N", "ab12")),
        ("DOWN 7 1234 OK", KeyEdge(7, 1234, KeyId("OK"), True)),
        ("UP 8 1300 E.PASS", KeyEdge(8, 1300, KeyId("PASS", "E"), False)),
        ("HB 99", Heartbeat(99)),
        ("ERR unknown command FOO", PanelComplaint("unknown command FOO")),
        ("", None),
        ("ACK 3", None),
        ("HELLO 1", None),
    ],
)
def test_parse_line(line: str, message: object) -> None:
    assert parse_line(line) == message


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("DOWN x 5 OK", "sequence number 'x'"),
        ("DOWN 1 5 SHOUT", "unknown button 'SHOUT'"),
        ("DOWN 1 5 Q.OK", "unknown seat 'Q'"),
        ("HB", "not a panel message"),
        ("HELLO cardtable-panel 1 1.0 X b", "unknown seat 'X'"),
        ("@@@###", "not a panel message"),
    ],
)
def test_parse_line_rejects(line: str, fragment: str) -> None:
    with pytest.raises(ProtocolError, match=fragment) as caught:
        parse_line(line)
    assert isinstance(caught.value, DriverError)
    assert isinstance(caught.value, ValueError)


def test_encoders() -> None:
    assert encode_hello() == b"HELLO 1\n"
    assert encode_ack(12) == b"ACK 12\n"
    assert encode_led("N", True) == b"LED N on\n"
    assert encode_buzz([300, 100, 300]) == b"BUZZ 300,100,300\n"
    with pytest.raises(ValueError, match="'X'"):
        encode_led("X", True)
    with pytest.raises(ValueError, match=r"\[0\]"):
        encode_buzz([0])


def feed(session: PanelSession, *lines: str) -> tuple[list[object], list[bytes]]:
    events: list[object] = []
    replies: list[bytes] = []
    for line in lines:
        found, answer = session.line_received(line)
        events += found
        replies += answer
    return events, replies


def test_session_reads_keys_and_acknowledges() -> None:
    session = PanelSession("loop://")
    events, replies = feed(
        session, HELLO, "DOWN 1 100 4", "UP 2 200 4", "DOWN 3 900 N.PASS", "UP 4 1000 N.PASS"
    )
    assert events == [
        PanelConnected("loop://", "1.0.0", 1, None),
        BidPressed(None, 4),
        PassPressed("N"),
    ]
    assert replies == [encode_ack(n) for n in (1, 2, 3, 4)]


def test_session_ignores_resent_lines_and_garbage(caplog: pytest.LogCaptureFixture) -> None:
    session = PanelSession("p")
    feed(session, HELLO, "DOWN 1 100 OK", "UP 2 150 OK")
    with caplog.at_level(logging.WARNING):
        events, replies = feed(session, "DOWN 1 100 OK", "garbage!!", "UP 2 150 OK", "DOWN 3 x OK")
    assert events == []
    assert replies == [encode_ack(2), encode_ack(2)]
    assert session.garbage_lines == 2
    assert "garbage!!" in caplog.text


def test_session_new_boot_restarts_sequence() -> None:
    session = PanelSession("p")
    feed(session, HELLO, "DOWN 1 100 OK", "UP 2 150 OK")
    events, _ = feed(session, "HELLO cardtable-panel 1 1.0.0 - other", "DOWN 1 50 OK")
    assert events == [PanelConnected("p", "1.0.0", 1, None), ConfirmPressed(None)]


def test_session_ignores_keys_before_handshake_and_wrong_protocol() -> None:
    session = PanelSession("p")
    assert feed(session, "DOWN 1 100 OK") == ([], [])
    assert feed(session, "HELLO cardtable-panel 9 1.0.0 - b") == ([], [])
    assert not session.connected


def test_session_seat_pad_labels_its_keys() -> None:
    session = PanelSession("p")
    events, _ = feed(session, "HELLO cardtable-panel 1 1.0.0 W b", "DOWN 1 10 UNDO", "UP 2 90 UNDO")
    assert events[1:] == [UndoPressed("W")]


def test_session_long_undo_on_panel_time() -> None:
    session = PanelSession("p")
    events, _ = feed(
        session, HELLO, "DOWN 1 1000 UNDO", "HB 2000", "HB 3100", "UP 2 3500 UNDO",
        "DOWN 3 4000 OK", "UP 4 4100 OK",
    )  # fmt: skip
    assert events[1:] == [NewGameRequested(None), NewGameConfirmed(None)]


def test_firmware_core_answers_and_resends_until_acknowledged() -> None:
    core_module = load_panel_core()
    sent: list[str] = []
    lights: list[tuple[str, bool]] = []
    buzzes: list[list[int]] = []
    core = core_module.PanelCore(
        sent.append, seat="S", boot="ab", on_led=lambda n, o: lights.append((n, o)),
        on_buzz=buzzes.append,
    )  # fmt: skip
    core.key_edge("OK", True, 10)
    core.key_edge("OK", False, 90)
    core.feed("HELLO 1\n")
    assert sent == [
        "DOWN 1 10 OK", "UP 2 90 OK", "HELLO cardtable-panel 1 1.0.0 S ab",
        "DOWN 1 10 OK", "UP 2 90 OK",
    ]  # fmt: skip
    sent.clear()
    core.feed("ACK 1\nHELLO 1\n")
    assert sent == ["HELLO cardtable-panel 1 1.0.0 S ab", "UP 2 90 OK"]
    core.feed("LED N on\nBUZZ 30\nBUZZ a,b\nFOO\n")
    assert lights == [("N", True)]
    assert buzzes == [[30]]
    assert sent[-2:] == ["ERR bad pattern a,b", "ERR unknown command FOO"]
    core.tick(0)
    core.tick(500)
    core.tick(1000)
    assert [line for line in sent if line.startswith("HB")] == ["HB 0", "HB 1000"]
