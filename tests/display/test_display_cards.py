"""Seats, cards, bids, tricks and reneges in the log's notation, and their checks."""

from __future__ import annotations

import pytest

from display.cards import (
    Renege,
    Trick,
    check_bid,
    check_card,
    check_seat,
    check_suit,
    check_team,
    next_seat,
    partner_of,
    team_of,
)
from display.errors import DisplayError, ViewError


@pytest.mark.parametrize("card", ["1H", "JX", "10H", "jh", "", "JKR"])
def test_a_bad_card_code_is_refused_by_name(card: str) -> None:
    with pytest.raises(ViewError, match=repr(card)) as caught:
        check_card(card)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, DisplayError)


@pytest.mark.parametrize(
    ("check", "value", "words"),
    [
        (check_seat, "X", "not one of N, E, S, W"),
        (check_team, "NE", "not NS or EW"),
        (check_suit, "Z", "not one of C, D, H, S"),
        (check_bid, 13, "from 1 to 12"),
        (check_bid, "double", "'ask', 'moon' or 'pass'"),
        (check_bid, True, "a number of tricks"),
    ],
)
def test_values_outside_the_notation_are_refused_saying_what_is_expected(
    check: object, value: object, words: str
) -> None:
    with pytest.raises(ViewError, match=words):
        check(value)  # type: ignore[operator]


def test_good_values_come_back_as_given() -> None:
    assert check_card("JK") == "JK" and check_card("TH") == "TH"
    assert check_bid("moon") == "moon" and check_bid(12) == 12


def test_seats_around_the_table() -> None:
    assert [partner_of(seat) for seat in "NESW"] == ["S", "W", "N", "E"]
    assert [next_seat(seat) for seat in "NESW"] == ["E", "S", "W", "N"]
    assert [team_of(seat) for seat in "NESW"] == ["NS", "EW", "NS", "EW"]


def test_a_trick_knows_who_played_what() -> None:
    trick = Trick(2, "E", (("E", "JH"), ("S", "AH")))
    assert trick.card_of("S") == "AH" and trick.card_of("W") is None


@pytest.mark.parametrize(
    "build",
    [
        lambda: Trick(1, "E", (("E", "ZZ"),)),
        lambda: Trick(1, "X"),
        lambda: Trick(1, "E", winner="Q"),
        lambda: Renege("W", 2, "H", "9H", 4, "1C"),
        lambda: Renege("W", 2, "X", "9H", 4, "9C"),
    ],
)
def test_tricks_and_reneges_outside_the_notation_are_refused(build: object) -> None:
    with pytest.raises(ViewError):
        build()  # type: ignore[operator]
