"""The view's values and the words built from them, without pygame."""

from __future__ import annotations

import pytest

from display.cards import Renege
from display.errors import ViewError
from display.view import (
    BidMade,
    Contract,
    HandSummary,
    Phase,
    Problem,
    ProblemKind,
    SeatNames,
    TeamPair,
    View,
)
from display.wording import (
    bid_text,
    card_text,
    contract_headline,
    contract_need,
    exchange_steps,
    problem_headline,
    proved_together,
    renege_detail,
    renege_headline,
    status_line,
)

NAMES = SeatNames(n="Ann", e="Bob", s="Cat", w="Dan")


@pytest.mark.parametrize(
    "build",
    [
        lambda: View(phase=Phase.PLAY, dealer="X"),
        lambda: View(phase=Phase.PLAY, dealer="N", turn="NE"),
        lambda: View(phase=Phase.GAME_OVER, dealer="N", winner="NE"),
        lambda: BidMade("N", 2 + 11),
        lambda: BidMade("N", "double"),
        lambda: BidMade("N", True),
        lambda: Contract("E", "pass"),
        lambda: Contract("E", 4, "X"),
        lambda: Problem(ProblemKind.DISCONNECTED),
    ],
)
def test_values_outside_the_log_notation_are_refused(build: object) -> None:
    with pytest.raises(ViewError):
        build()  # type: ignore[operator]


def test_high_bid_skips_passes_and_ranks_moon_over_ask() -> None:
    bids = (BidMade("E", 6), BidMade("S", "ask"), BidMade("W", "moon"), BidMade("N", "pass"))
    view = View(phase=Phase.TRUMP, dealer="N", bids=bids)
    assert view.high_bid == BidMade("W", "moon")
    assert View(phase=Phase.BIDDING, dealer="N", bids=(BidMade("E", "pass"),)).high_bid is None


def test_contract_needs_every_trick_for_ask_and_moon() -> None:
    assert Contract("E", 4, "H").tricks_needed == 4
    assert Contract("E", "ask", "H", "W").tricks_needed == 6
    assert Contract("E", "moon", "H", "W", tricks_in_hand=12).tricks_needed == 12
    assert Contract("E", 4, "H").team == "EW"


def test_hand_summary_knows_made_and_set() -> None:
    made = HandSummary(1, "played", Contract("N", 3, "S"), TeamPair(3, 3), TeamPair(),
                       TeamPair(3, 3), TeamPair(3, 3))
    set_ = HandSummary(1, "played", Contract("N", 4, "S"), TeamPair(3, 3), TeamPair(),
                       TeamPair(-4, 3), TeamPair(-4, 3))
    assert made.made is True and set_.made is False


def test_seat_names_and_partners() -> None:
    assert NAMES.label("W") == "W Dan"
    assert SeatNames().label("W") == "W"
    assert NAMES.team_label("EW") == "EW Bob & Dan"
    assert SeatNames(n="Ann").team_label("NS") == "NS"
    with pytest.raises(ViewError):
        TeamPair()["SE"]


@pytest.mark.parametrize(
    ("code", "text"), [("TH", "10♥"), ("JD", "J♦"), ("AS", "A♠"), ("9C", "9♣"), ("JK", "Joker")]
)
def test_card_text(code: str, text: str) -> None:
    assert card_text(code) == text


def test_bid_words() -> None:
    assert [bid_text(b) for b in (3, "ask", "moon", "pass")] == ["3", "ASK", "MOON", "pass"]
    assert contract_headline(Contract("E", 5, "H"), NAMES) == "E Bob bid 5"
    assert contract_headline(Contract("E", "moon", "H", "W"), NAMES) == "E Bob: MOON"
    assert contract_need(Contract("E", "ask", "H", "W")) == "EW need all 6"


def test_exchange_steps_follow_the_ask() -> None:
    steps = exchange_steps(Contract("N", "ask", "H", "S"), SeatNames())
    assert steps == ["N: pass one card face down to S", "S: give N your best ♥",
                     "then press OK"]


@pytest.mark.parametrize(
    ("view", "line"),
    [
        (View(phase=Phase.BIDDING, dealer="N", turn="E", names=NAMES), "E Bob to bid"),
        (View(phase=Phase.TRUMP, dealer="N", turn="E"), "E: name trump"),
        (View(phase=Phase.DISCARD, dealer="N", turn="N"), "N: discard one card face down"),
        (View(phase=Phase.PLAY, dealer="N", turn="S"), "S to play"),
        (View(phase=Phase.HAND_END, dealer="E", hand_number=4), "Hand 4 over: E deals next"),
        (View(phase=Phase.GAME_OVER, dealer="E", winner="EW", names=NAMES),
         "EW Bob & Dan win the game"),
    ],
)
def test_status_line_says_what_the_table_waits_for(view: View, line: str) -> None:
    assert status_line(view) == line


def test_problem_headlines() -> None:
    assert problem_headline(Problem(ProblemKind.UNREADABLE_CARD, seat="S"), NAMES) == (
        "Card at S Cat unreadable")
    assert problem_headline(Problem(ProblemKind.DISCONNECTED, device="button panel"),
                            NAMES) == "Button panel disconnected"


def test_one_card_proving_two_reneges_names_both() -> None:
    first = Renege("W", 2, "C", "9H", 5, "KC")
    second = Renege("W", 4, "C", "QD", 5, "KC")
    other = Renege("N", 3, "S", "JC", 5, "QS")
    assert proved_together(first, (first, other, second)) == (second,)
    assert renege_headline(first, NAMES, 2) == "2 RENEGES: W Dan"
    assert renege_detail(first, (second,)) == (
        "Trick 2: ♣ led, W played 9♥; trick 4: ♣ led, W played Q♦. "
        "K♣ in trick 5 proves all 2."
    )
