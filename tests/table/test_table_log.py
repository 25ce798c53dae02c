"""The log reader takes the notation exactly as TABLE_LOG.md writes it, and names what is not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from table import Bid, Card, LogError, Refusal, Seat, Suit
from table.bids import BidError
from table.errors import CardParseError
from table.log import log_lines, parse_line, read_log, replay_lines
from table.seats import SeatError

GAME = '{"type": "game", "dealer": "N", "rules": {}}'
AUCTION = [
    json.dumps({"type": "bid", "seat": seat, "bid": bid})
    for seat, bid in (("E", 3), ("S", "pass"), ("W", "pass"), ("N", "pass"))
]
TRUMP = '{"type": "trump", "seat": "E", "suit": "H"}'


def refused_line(lines: list[str]) -> LogError:
    """Replay lines that must be refused; the error."""
    with pytest.raises(LogError) as caught:
        replay_lines(lines)
    return caught.value


@pytest.mark.parametrize("suit", ["♥", "h", "Hearts", "Clubs", " D ", "H\u00a0", "HH", 1, None])
def test_suit_not_in_the_notation_is_refused(suit: object) -> None:
    line = json.dumps({"type": "trump", "seat": "E", "suit": suit})
    error = refused_line([GAME, *AUCTION, line])
    assert error.line == 6 and "is not a suit" in error.reason
    assert error.kind is Refusal.MALFORMED


@pytest.mark.parametrize(
    "code", ["jh", " JH ", "AS\u00a0", "Jh", "10h", "1OH", "JH ", "J♥", "T", 7]
)
def test_card_not_in_the_notation_is_refused(code: object) -> None:
    line = json.dumps({"type": "card", "seat": "E", "card": code})
    error = refused_line([GAME, *AUCTION, TRUMP, line])
    assert error.line == 7 and "is not a card" in error.reason


def test_card_written_with_10_is_the_ten() -> None:
    line = json.dumps({"type": "card", "seat": "E", "card": "10H"})
    state = replay_lines([GAME, *AUCTION, TRUMP, line])
    assert state.hand.tricks[0].cards == [(Seat.E, Card.parse("TH"))]


@pytest.mark.parametrize(
    "bid", ["4", "PASS", "Pass", "Moon", "ASK", "٣", "³", " pass", "9" * 5000, True, 3.0, [3]]
)
def test_bid_not_in_the_notation_is_refused(bid: object) -> None:
    line = json.dumps({"type": "bid", "seat": "E", "bid": bid})
    error = refused_line([GAME, line])
    assert error.line == 2 and "is not a bid" in error.reason
    assert len(error.reason) < 200


@pytest.mark.parametrize("seat", ["n", " N", "North", "NE", 0, None, True])
def test_seat_not_in_the_notation_is_refused(seat: object) -> None:
    error = refused_line([json.dumps({"type": "game", "dealer": seat})])
    assert error.line == 1 and "is not a seat" in error.reason


@pytest.mark.parametrize(
    ("field", "value"), [("hand", True), ("hand", "1"), ("trick", 1.0), ("trick", 0)]
)
def test_whole_number_fields_take_only_whole_numbers(field: str, value: object) -> None:
    correct = {"type": "correct", "hand": 1, "trick": 1, "seat": "E", "card": "JH", field: value}
    error = refused_line([GAME, json.dumps(correct)])
    assert f"'{field}' must be a whole number from 1" in error.reason


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        ({"target": 32.0}, "target must be a positive whole number, not 32.0"),
        ({"target": 3.5}, "target must be a positive whole number"),
        ({"target": True}, "target must be a positive whole number, not True"),
        ({"renege_penalty": 2.0}, "renege_penalty must be a non-negative whole number"),
        ({"renege_penalty": "2"}, "renege_penalty must be a non-negative whole number"),
        ({"joker": 1}, "joker must be true or false, not 1"),
    ],
)
def test_rule_options_are_whole_numbers_or_booleans(rules: dict[str, object], words: str) -> None:
    error = refused_line([json.dumps({"type": "game", "dealer": "N", "rules": rules})])
    assert error.line == 1 and words in error.reason


def test_a_number_too_large_for_a_float_is_not_a_whole_number() -> None:
    error = refused_line(['{"type": "game", "dealer": "N", "rules": {"target": 1e400}}'])
    assert "target must be a positive whole number, not inf" in error.reason


def test_rules_must_be_an_object() -> None:
    error = refused_line(['{"type": "game", "dealer": "N", "rules": null}'])
    assert "'rules' must be an object of options" in error.reason


@pytest.mark.parametrize(
    ("between", "words"),
    [
        ("\n\n", "line 2: a blank line"),
        ("\n \t\n", "line 2: a blank line"),
        ("\n\f", "line 2: not valid JSON"),
        ("\f\n", "line 1: not valid JSON"),
        ("\u00a0\n", "line 1: not valid JSON"),
        ("\u2028", "line 1: not valid JSON"),
        ("\n\u00a0", "line 2: not valid JSON"),
        ("\n\u3000", "line 2: not valid JSON"),
    ],
)
def test_blank_lines_and_other_whitespace_between_objects_are_refused(
    tmp_path: Path, between: str, words: str
) -> None:
    path = tmp_path / "game.jsonl"
    path.write_text(GAME + between + AUCTION[0] + "\n", encoding="utf-8")
    with pytest.raises(LogError) as caught:
        read_log(path)
    assert str(caught.value).startswith(words)


def test_json_whitespace_and_crlf_line_ends_are_accepted(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    path.write_bytes(b"\t" + GAME.encode() + b" \r\n" + AUCTION[0].encode() + b"\r\n")
    assert read_log(path).hand.bids == [(Seat.E, Bid.parse(3))]


def test_a_log_without_a_final_newline_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    path.write_text(GAME + "\n" + AUCTION[0], encoding="utf-8")
    assert log_lines(path) == [GAME + "\n", AUCTION[0]]
    assert len(read_log(path).hand.bids) == 1


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ('{"type": "game", "dealer": "N", "dealer": "E"}', 'the key "dealer" appears twice'),
        ('{"type": "game", "dealer": "N", "rules": {"target": NaN}}', "NaN is not a JSON value"),
        ('{"type": "game", "dealer": "N", "rules": {"target": Infinity}}', "Infinity"),
        ("[" * 1000 + "]" * 1000, "nested too deeply"),
        ('{"type": "bid", "seat": "E", "bid": ' + "9" * 5000 + "}", "too many digits"),
        ("\ufeff" + GAME, "BOM"),
    ],
)
def test_what_json_readers_differ_on_is_refused(line: str, words: str) -> None:
    with pytest.raises(LogError) as caught:
        parse_line(1, line)
    assert words in caught.value.reason
    assert len(caught.value.reason) < 200


def test_a_huge_value_is_not_echoed_whole() -> None:
    line = json.dumps({"type": "card", "seat": "E", "card": "X" * 10_000_000})
    with pytest.raises(LogError) as caught:
        parse_line(3, line)
    message = str(caught.value)
    assert message.startswith("line 3: 'XXXX")
    assert "(10000000 characters)" in message
    assert len(message) < 200


def test_invalid_utf8_names_the_line_and_byte(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    path.write_bytes(GAME.encode() + b"\n" + AUCTION[0].encode()[:-1] + b"\xe9}\n")
    with pytest.raises(LogError) as caught:
        log_lines(path)
    assert str(caught.value).startswith("line 2: not UTF-8 text: byte 0xe9 at column")


# ---- the forgiving parsers stay forgiving for people ---------------------------------------


@pytest.mark.parametrize(("text", "code"), [("jh", "JH"), (" JH ", "JH"), ("10h", "TH")])
def test_card_parse_for_people_forgives_case_and_spaces(text: str, code: str) -> None:
    assert Card.parse(text) == Card.from_log(code)


@pytest.mark.parametrize(("text", "bid"), [("4", 4), (" PASS ", "pass"), ("Moon", "moon")])
def test_bid_parse_for_people_forgives_case_spaces_and_digit_strings(
    text: str, bid: int | str
) -> None:
    assert Bid.parse(text) == Bid.from_log(bid)


@pytest.mark.parametrize("text", ["³", "٣", "9" * 5000, "", "13", 13, 2])
def test_bid_parse_refuses_with_a_bid_error_never_a_bare_value_error(text: object) -> None:
    with pytest.raises(BidError):
        Bid.parse(text)


def test_seat_and_suit_parse_for_people_forgive_case_and_symbols() -> None:
    assert Seat.parse("n") is Seat.N
    assert Suit.parse("♥") is Suit.HEARTS
    assert Suit.parse(" d ") is Suit.DIAMONDS
    with pytest.raises(SeatError):
        Seat.from_log("n")
    with pytest.raises(CardParseError):
        Suit.from_log("♥")
