"""Phases, turns, legal bids, refusals with reasons, undo and the variants' extra events."""

from __future__ import annotations

import pytest

from table import (
    ASK,
    MOON,
    PASS,
    Bid,
    CardPlayed,
    GameStarted,
    GameState,
    InvalidEvent,
    Phase,
    Refusal,
    Rules,
    Seat,
    Undone,
    legal_bids,
)
from table.summary import summary
from tests.table.tablelog import HAND_E3, events, state_after


def test_bidding_turns_start_left_of_the_dealer() -> None:
    state = state_after(dealer="W")
    assert state.phase is Phase.BIDDING and state.turn is Seat.N
    state = state_after("bid N 3", "bid E pass", dealer="W")
    assert state.turn is Seat.S
    assert legal_bids(state)[:2] == (PASS, Bid.parse(4))


def test_moon_leaves_only_passes() -> None:
    state = state_after("bid E moon")
    assert legal_bids(state) == (PASS,)
    state = state_after("bid E moon", "bid S pass", "bid W pass", "bid N pass")
    assert state.phase is Phase.TRUMP and state.turn is Seat.E
    assert legal_bids(state) == ()


def test_partners_may_overbid_each_other() -> None:
    state = state_after("bid E 3", "bid S pass", "bid W 4", "bid N pass")
    contract_seat = state.hand.high_bid
    assert contract_seat == (Seat.W, Bid.parse(4))


def test_ask_beats_six_and_moon_beats_ask() -> None:
    state = state_after("bid E 6", "bid S ask", "bid W moon")
    assert state.hand.high_bid == (Seat.W, MOON)
    assert ASK not in legal_bids(state)


@pytest.mark.parametrize(
    ("lines", "rules", "reason", "kind"),
    [
        (("bid S 3",), None, "S bid 3 out of turn: it is E's turn to bid", Refusal.OUT_OF_TURN),
        (("bid E 4", "bid S 4"), None, "S bid 4, but the bid to beat is 4", Refusal.NOT_HIGHER),
        (("bid E 7",), None, "above the highest plain bid, 6", Refusal.NO_SUCH_BID),
        (("bid E 6",), Rules(plain_six=False), "plain 6 is off", Refusal.RULE_OFF),
        (("bid E 3", "trump E H"), None, "before the bidding has ended", Refusal.WRONG_PHASE),
        (
            ("bid E 3", "bid S pass", "bid W pass", "bid N pass", "trump S H"),
            None,
            "out of turn",
            Refusal.OUT_OF_TURN,
        ),
        (
            ("bid E 3", "cards E JH"),
            None,
            "E played JH, but it is S's turn to bid",
            Refusal.WRONG_PHASE,
        ),
        (
            ("bid E 3", "bid S pass", "bid W pass", "bid N pass", "cards E JH"),
            None,
            "must name trump",
            Refusal.WRONG_PHASE,
        ),
        (
            ("exchange E",),
            None,
            "E reported the exchange, but it is E's turn to bid",
            Refusal.WRONG_PHASE,
        ),
        (
            ("bid E 3", "bid S pass", "bid W pass", "bid N pass", "trump E H", "exchange E"),
            None,
            "only for an ask hand",
            Refusal.WRONG_PHASE,
        ),
        (("discard N",), None, "joker variant, which is off", Refusal.RULE_OFF),
        (("bid E 3",), Rules(joker=True), "the dealer N must discard first", Refusal.WRONG_PHASE),
        (("anf W",), None, "Ace No Face is off", Refusal.RULE_OFF),
        (("undo",), None, "nothing to undo", Refusal.NOTHING_TO_UNDO),
        ((*HAND_E3[:5], "cards E JK"), None, "JK is not in the deck", Refusal.NOT_IN_DECK),
        (
            (*HAND_E3[:5], "cards E JH S JH"),
            None,
            "JH was already played this hand (trick 1 by E)",
            Refusal.ALREADY_PLAYED,
        ),
        (
            (*HAND_E3[:5], "cards E JH W 9H"),
            None,
            "W played 9H out of turn: it is S's turn",
            Refusal.OUT_OF_TURN,
        ),
        (
            ("bid E 3", "bid S pass", "bid W pass", "bid N pass", "trump E H", "anf S"),
            Rules(ace_no_face=True),
            "after trump was named",
            Refusal.WRONG_PHASE,
        ),
    ],
)
def test_refused_events_give_the_reason(
    lines: tuple[str, ...], rules: Rules | None, reason: str, kind: Refusal
) -> None:
    with pytest.raises(InvalidEvent) as caught:
        state_after(*lines, rules=rules)
    assert reason in caught.value.reason
    assert caught.value.kind is kind


def test_a_refused_event_changes_nothing() -> None:
    state = state_after(*HAND_E3[:6])
    before = summary(state)
    log_length = len(state.log)
    with pytest.raises(InvalidEvent):
        state.apply(CardPlayed(Seat.S, state.hands[0].tricks[0].cards[0][1]))
    assert summary(state) == before and len(state.log) == log_length


def test_second_game_event_is_refused() -> None:
    state = state_after()
    with pytest.raises(InvalidEvent, match="first line"):
        state.apply(GameStarted())


def test_stick_the_dealer() -> None:
    rules = Rules(stick_the_dealer=True)
    stuck = state_after("bid E pass", "bid S pass", "bid W pass", rules=rules)
    assert PASS not in legal_bids(stuck)
    with pytest.raises(InvalidEvent, match="may not pass"):
        stuck.apply(events("bid N pass")[1])
    after_bid = state_after("bid E 3", "bid S pass", "bid W pass", "bid N pass", rules=rules)
    assert after_bid.phase is Phase.TRUMP


def test_ace_no_face_passes_the_deal() -> None:
    state = state_after("bid E 3", "anf W", rules=Rules(ace_no_face=True))
    assert state.hands[0].result.value == "ace_no_face"
    assert state.dealer is Seat.E and state.turn is Seat.S


def test_joker_discard_comes_first() -> None:
    rules = Rules(joker=True)
    state = state_after(rules=rules)
    assert state.phase is Phase.DISCARD and state.turn is Seat.N
    state = state_after("discard N", rules=rules)
    assert state.phase is Phase.BIDDING and state.turn is Seat.E


def test_double_deck_allows_two_copies_and_refuses_a_third() -> None:
    rules = Rules(double_deck=True)
    bids = ("bid E 7", "bid S pass", "bid W pass", "bid N pass", "trump E H")
    state = state_after(*bids, "cards E AH S AH", rules=rules)
    assert len(state.hands[0].tricks[0].cards) == 2
    with pytest.raises(InvalidEvent, match="already played"):
        state_after(*bids, "cards E AH S AH W AH", rules=rules)


def test_undo_takes_back_one_event_each() -> None:
    state = state_after(*HAND_E3[:6])
    full = summary(state)
    state.apply(events("cards E AH")[1])
    state.apply(Undone())
    assert summary(state) == full
    state.apply(Undone())
    state.apply(Undone())
    assert len(state.hands[0].tricks[0].cards) == 2


def test_undo_unscores_the_last_trick_of_a_hand() -> None:
    state = state_after(*HAND_E3)
    state.apply(Undone())
    assert state.phase is Phase.PLAY and state.turn is Seat.W
    assert state.scores == dict.fromkeys(state.scores, 0)
    assert len(state.hands) == 1 and state.hands[0].result.value == "in_progress"


def test_fresh_state_defaults() -> None:
    state = GameState()
    assert state.dealer is Seat.N and state.rules == Rules()
    assert state.hands == [] and state.outcome() is None
