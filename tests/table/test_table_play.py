"""Play and scoring: bowers, trick winners, every bid type, sit-outs, game end."""

from __future__ import annotations

import pytest

from table import Card, HandResult, Phase, Rules, Seat, Suit, Team, Trick, winner
from table.summary import summary
from tests.table.tablelog import HAND_E3, state_after


def test_full_hand_scores_tricks_for_both_teams() -> None:
    state = state_after(*HAND_E3)
    hand = state.hands[0]
    assert hand.result is HandResult.PLAYED
    assert [t.winner for t in hand.tricks] == [Seat.E, Seat.E, Seat.E, Seat.S, Seat.N, Seat.N]
    assert hand.tricks_won == {Team.NS: 3, Team.EW: 3}
    assert hand.points == {Team.NS: 3, Team.EW: 3}
    assert state.scores == {Team.NS: 3, Team.EW: 3}
    assert state.dealer is Seat.E and state.turn is Seat.S and state.phase is Phase.BIDDING


@pytest.mark.parametrize(("bid", "ew_points"), [("4", -4), ("5", -5), ("6", -6)])
def test_set_loses_the_bid(bid: str, ew_points: int) -> None:
    lines = (f"bid E {bid}", *HAND_E3[1:])
    state = state_after(*lines)
    assert state.hands[0].points == {Team.NS: 3, Team.EW: ew_points}


def test_set_penalty_tricks_option_for_plain_bid_is_the_bid() -> None:
    state = state_after("bid E 5", *HAND_E3[1:], rules=Rules(set_penalty="tricks"))
    assert state.hands[0].points[Team.EW] == -5


# E goes alone with hearts; W sits out; three-card tricks E, S, N.
LONE_MADE = (
    "trump E H",
    "cards E JH S TH N 9C",
    "cards E JD S AS N TC",
    "cards E AH S KS N JC",
    "cards E KH S QS N QC",
    "cards E QH S JS N KC",
    "cards E 9H S 9S N AC",
)
LONE_SET = (*LONE_MADE[:-1], "cards E 9D S AD N AC")
MOON_BIDS = ("bid E moon", "bid S pass", "bid W pass", "bid N pass")
ASK_BIDS = ("bid E ask", "bid S pass", "bid W pass", "bid N pass")


@pytest.mark.parametrize(
    ("lines", "points"),
    [
        ((*MOON_BIDS, *LONE_MADE), {Team.EW: 24, Team.NS: 0}),
        ((*MOON_BIDS, *LONE_SET), {Team.EW: -24, Team.NS: 1}),
        ((*ASK_BIDS, LONE_MADE[0], "exchange E", *LONE_MADE[1:]), {Team.EW: 12, Team.NS: 0}),
        ((*ASK_BIDS, LONE_SET[0], "exchange E", *LONE_SET[1:]), {Team.EW: -12, Team.NS: 1}),
    ],
)
def test_lone_hands(lines: tuple[str, ...], points: dict[Team, int]) -> None:
    state = state_after(*lines)
    hand = state.hands[0]
    assert hand.contract is not None and hand.contract.sitting_out is Seat.W
    assert all(len(trick.cards) == 3 for trick in hand.tricks)
    assert hand.points == points


def test_sitting_out_partner_is_skipped_and_may_not_play() -> None:
    state = state_after(*MOON_BIDS, "trump E H", "cards E JH S TH")
    assert state.turn is Seat.N
    with pytest.raises(ValueError, match="W sits out"):
        state_after(*MOON_BIDS, "trump E H", "cards E JH S TH W 9C")


def test_ask_needs_the_exchange_before_the_first_card() -> None:
    state = state_after(*ASK_BIDS, "trump E H")
    assert state.phase is Phase.EXCHANGE and state.turn is Seat.E
    with pytest.raises(ValueError, match="exchange"):
        state_after(*ASK_BIDS, "trump E H", "cards E JH")


def test_bowers_and_left_bower_lead() -> None:
    trick = Trick(
        Seat.N,
        [
            (Seat.N, Card.parse("JD")),
            (Seat.E, Card.parse("AD")),
            (Seat.S, Card.parse("9H")),
            (Seat.W, Card.parse("KD")),
        ],
    )
    assert trick.led(Suit.HEARTS) is Suit.HEARTS
    assert winner(trick, Suit.HEARTS) is Seat.N
    trick = Trick(Seat.N, [(Seat.N, Card.parse("AH")), (Seat.E, Card.parse("JD"))])
    assert winner(trick, Suit.HEARTS) is Seat.E


def test_no_trump_highest_of_led_suit_and_offsuit_ace_cannot_win() -> None:
    trick = Trick(
        Seat.N,
        [
            (Seat.N, Card.parse("QD")),
            (Seat.E, Card.parse("AC")),
            (Seat.S, Card.parse("JD")),
            (Seat.W, Card.parse("KD")),
        ],
    )
    assert winner(trick, Suit.SPADES) is Seat.W


def test_identical_cards_first_played_wins() -> None:
    trick = Trick(
        Seat.N,
        [
            (Seat.N, Card.parse("AH")),
            (Seat.E, Card.parse("AH")),
            (Seat.S, Card.parse("KH")),
            (Seat.W, Card.parse("9C")),
        ],
    )
    assert winner(trick, Suit.CLUBS) is Seat.W
    assert winner(trick, Suit.SPADES) is Seat.N


def test_joker_is_highest_trump() -> None:
    trick = Trick(
        Seat.N, [(Seat.N, Card.parse("AC")), (Seat.E, Card.parse("JH")), (Seat.S, Card.parse("JK"))]
    )
    assert winner(trick, Suit.HEARTS) is Seat.S


@pytest.mark.parametrize(
    ("rules", "bid", "expected"),
    [
        (Rules(target=3), "3", None),  # 3-3 tie: play on
        (Rules(target=3, both_over_target="bidding_team"), "3", Team.EW),
        (Rules(target=3), "4", Team.NS),  # EW set: NS alone at 3
        (Rules(target=4), "3", None),
    ],
)
def test_game_end(rules: Rules, bid: str, expected: Team | None) -> None:
    state = state_after(f"bid E {bid}", *HAND_E3[1:], rules=rules)
    assert state.winner is expected
    if expected is not None:
        assert state.phase is Phase.GAME_OVER and state.turn is None
        outcome = state.outcome()
        assert outcome is not None and outcome.winner is expected
        with pytest.raises(ValueError, match="game is over"):
            state_after(f"bid E {bid}", *HAND_E3[1:], "bid S pass", rules=rules)
        assert len(summary(state)["hands"]) == 1


def test_redeal_passes_the_deal_left() -> None:
    state = state_after("bid E pass", "bid S pass", "bid W pass", "bid N pass")
    assert state.hands[0].result is HandResult.REDEAL
    assert state.dealer is Seat.E and state.turn is Seat.S
    assert summary(state)["hands"][0]["points"] == {"NS": 0, "EW": 0}


def test_hand_in_progress_listed_only_after_its_first_event() -> None:
    state = state_after(*HAND_E3)
    assert len(state.hands) == 1
    state = state_after(*HAND_E3, "bid S 3")
    assert len(state.hands) == 2 and state.hands[1].result is HandResult.IN_PROGRESS
