"""Refusals carry a kind beside the text, and the legal bids are exactly the accepted ones."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table import (
    PASS,
    SEATS,
    BidMade,
    Event,
    GameStarted,
    InvalidEvent,
    LogError,
    Phase,
    Refusal,
    Rules,
    Seat,
    legal_bids,
    replay,
)
from table.bids import all_bids
from table.log import replay_lines
from tests.table.tablelog import state_after

STICK = Rules(stick_the_dealer=True)


def test_the_stuck_dealer_s_pass_is_refused_as_such() -> None:
    state = state_after("bid E pass", "bid S pass", "bid W pass", rules=STICK)
    assert state.dealer_stuck
    with pytest.raises(InvalidEvent) as caught:
        state.apply(BidMade(state.dealer, PASS))
    assert caught.value.kind is Refusal.DEALER_STUCK


def test_the_dealer_is_not_stuck_after_a_bid_or_without_the_rule() -> None:
    assert not state_after("bid E 3", "bid S pass", "bid W pass", rules=STICK).dealer_stuck
    assert not state_after("bid E pass", "bid S pass", "bid W pass").dealer_stuck
    assert not state_after("bid E pass", "bid S pass", rules=STICK).dealer_stuck


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([STICK, Rules(), Rules(plain_six=False), Rules(double_deck=True)]),
    st.sampled_from(SEATS),
    st.lists(st.integers(0, 20), max_size=4),
)
def test_a_bid_is_accepted_exactly_when_legal_bids_offers_it(
    rules: Rules, dealer: Seat, choices: list[int]
) -> None:
    made: list[Event] = [GameStarted(dealer, rules)]
    for choice in [*choices, 0]:
        state = replay(made)
        if state.phase is not Phase.BIDDING or state.turn is None:
            break
        offered = legal_bids(state)
        for bid in (PASS, *all_bids(rules)):
            trial = replay(made)
            try:
                trial.apply(BidMade(state.turn, bid))
            except InvalidEvent as error:
                assert bid not in offered, error.reason
                assert error.kind in (Refusal.NOT_HIGHER, Refusal.DEALER_STUCK)
            else:
                assert bid in offered
        made.append(BidMade(state.turn, offered[choice % len(offered)]))


def test_log_errors_carry_the_engine_s_kind() -> None:
    lines = [
        '{"type": "game", "dealer": "N", "rules": {}}',
        '{"type": "bid", "seat": "E", "bid": 4}',
        '{"type": "bid", "seat": "S", "bid": 4}',
    ]
    with pytest.raises(LogError) as caught:
        replay_lines(lines)
    assert caught.value.kind is Refusal.NOT_HIGHER
    with pytest.raises(LogError) as caught:
        replay_lines([lines[0], json.dumps({"type": "bid", "seat": "E", "bid": "4"})])
    assert caught.value.kind is Refusal.MALFORMED
    with pytest.raises(LogError) as caught:
        replay_lines(lines[1:])
    assert caught.value.kind is Refusal.GAME_START


def test_every_kind_has_a_distinct_value() -> None:
    values = [kind.value for kind in Refusal]
    assert len(values) == len(set(values))
    assert {"out_of_turn", "already_played", "correction_breaks_later"} <= set(values)
