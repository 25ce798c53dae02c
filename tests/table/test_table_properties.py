"""Properties over simulated games: tricks, points, and reneges found exactly."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from table import HandResult, Rules, Team
from table.hand import Hand
from table.log import dump_events, replay_lines
from table.simulate import SimulatedGame, simulate_game
from table.summary import summary

RULE_SETS = st.sampled_from(
    [
        Rules(),
        Rules(stick_the_dealer=True, set_penalty="tricks"),
        Rules(joker=True, ace_no_face=True),
        Rules(double_deck=True, target=48),
        Rules(plain_six=False, both_over_target="bidding_team", renege_penalty=3),
    ]
)
MAX_TEST_HANDS = 40
GAMES = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# The rule book's table, written out: what a made or a set contract is worth.
MADE_VALUE = {"ask": 12, "moon": 24}
SET_VALUE = {"value": {"ask": 12, "moon": 24}, "tricks": {"ask": 6, "moon": 6}}


def expected_points(hand: Hand, rules: Rules) -> dict[Team, int]:
    """Points for a played hand, computed from RULES.md's table rather than the engine."""
    contract = hand.contract
    assert contract is not None
    scale = 2 if rules.double_deck else 1
    bid = contract.bid.log_value
    taken = hand.tricks_won[contract.team]
    needed = bid if isinstance(bid, int) else 6 * scale
    if taken >= needed:
        ours = taken if isinstance(bid, int) else MADE_VALUE[bid] * scale
    else:
        ours = -(bid if isinstance(bid, int) else SET_VALUE[rules.set_penalty][bid] * scale)
    points = {contract.team: ours, contract.team.other: hand.tricks_won[contract.team.other]}
    for renege in hand.reneges:
        points[renege.seat.team] -= rules.renege_penalty
    return points


def check_game(game: SimulatedGame) -> None:
    """The invariants every simulated game must keep."""
    state, rules = game.state, game.state.rules
    totals = dict.fromkeys(state.scores, 0)
    for hand in state.hands:
        if hand.result is not HandResult.PLAYED:
            assert not hand.tricks
            continue
        assert hand.contract is not None
        assert len(hand.tricks) == rules.tricks_per_hand
        players = 3 if hand.contract.bid.is_alone else 4
        assert all(len(t.cards) == players and t.winner for t in hand.tricks)
        assert sum(hand.tricks_won.values()) == rules.tricks_per_hand
        assert hand.points == expected_points(hand, rules)
        for team in totals:
            totals[team] += hand.points[team]
    assert totals == state.scores
    if game.finished:
        assert state.winner is not None and state.scores[state.winner] >= rules.target
    else:
        assert len(state.hands) == MAX_TEST_HANDS
    assert summary(replay_lines(dump_events(game.events).splitlines())) == summary(state)


def reported_reneges(game: SimulatedGame) -> Counter[tuple[object, ...]]:
    return Counter(
        (hand.number, r.seat, r.trick, r.led, r.card)
        for hand in game.state.hands
        for r in hand.reneges
    )


@GAMES
@given(seed=st.integers(0, 10**6), rules=RULE_SETS)
def test_legal_games_keep_the_invariants_and_never_renege(seed: int, rules: Rules) -> None:
    game = simulate_game(seed=seed, rules=rules, max_hands=MAX_TEST_HANDS)
    check_game(game)
    assert not reported_reneges(game)


@GAMES
@given(seed=st.integers(0, 10**6), rules=RULE_SETS, rate=st.floats(0.01, 0.3))
def test_every_injected_renege_is_reported_exactly(seed: int, rules: Rules, rate: float) -> None:
    game = simulate_game(seed=seed, rules=rules, renege_rate=rate, max_hands=MAX_TEST_HANDS)
    check_game(game)
    injected = Counter((i.hand, i.seat, i.trick, i.led, i.card) for i in game.injected)
    assert reported_reneges(game) == injected


@GAMES
@given(seed=st.integers(0, 10**6), rules=RULE_SETS)
def test_one_injected_renege_is_proven_in_its_hand_at_its_trick(seed: int, rules: Rules) -> None:
    game = simulate_game(
        seed=seed, rules=rules, renege_rate=0.5, renege_limit=1, max_hands=MAX_TEST_HANDS
    )
    assert len(game.injected) == 1
    one = game.injected[0]
    proven = [(h.number, r) for h in game.state.hands for r in h.reneges]
    assert len(proven) == 1
    number, renege = proven[0]
    assert (number, renege.seat, renege.trick, renege.led, renege.card) == (
        one.hand,
        one.seat,
        one.trick,
        one.led,
        one.card,
    )
    assert renege.trick < renege.proved_by_trick <= rules.tricks_per_hand
