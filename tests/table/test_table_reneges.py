"""Renege proofs: the moment a later card shows the player held the suit."""

from __future__ import annotations

from table import Card, CardPlayed, GameState, Seat, Suit, Team, replay
from tests.table.reneges_data import DOUBLE, RENEGE_HAND
from tests.table.tablelog import HAND_E3, events, state_after


def states_around(lines: tuple[str, ...], seat: str, card: str) -> tuple[GameState, ...]:
    """The states just before, at, and just after `seat` plays `card`."""
    all_events = events(*lines)
    index = all_events.index(CardPlayed(Seat(seat), Card.parse(card)))
    return tuple(replay(all_events[: index + offset]) for offset in (0, 1, 2))


def test_renege_proven_mid_hand_names_everything() -> None:
    before, state, after = states_around(RENEGE_HAND, "N", "JS")
    assert before.hands[0].reneges == []
    assert before.hands[0].failures[-1].card == Card.parse("TC")
    renege = state.hands[0].reneges[0]
    assert (renege.seat, renege.trick, renege.led) == (Seat.N, 3, Suit.SPADES)
    assert (renege.card, renege.proved_by_trick, renege.proved_by_card) == (
        Card.parse("TC"),
        4,
        Card.parse("JS"),
    )
    assert state.newly_proven == (renege,)
    assert after.newly_proven == ()
    assert after.hands[0].reneges == [renege]


def test_renege_penalty_applied_at_scoring() -> None:
    state = state_after(*RENEGE_HAND)
    assert state.hands[0].tricks_won == {Team.NS: 3, Team.EW: 3}
    assert state.hands[0].points == {Team.NS: 3 - 2, Team.EW: 3}


def test_one_card_proves_two_reneges_in_trick_order() -> None:
    before, state, _ = states_around(DOUBLE, "N", "JS")
    assert before.hands[0].reneges == []
    proven = state.newly_proven
    assert [(r.seat, r.trick, r.card.code, r.proved_by_trick) for r in proven] == [
        (Seat.N, 1, "9C", 3),
        (Seat.N, 2, "TC", 3),
    ]
    final = state_after(*DOUBLE)
    assert len(final.hands[0].reneges) == 2
    assert final.hands[0].points == {Team.NS: -4, Team.EW: 6}


def test_left_bower_is_not_its_printed_suit_for_renege() -> None:
    # Hearts trump: W shows out of diamonds and later plays J♦, which is a heart.
    state = state_after(*DOUBLE)
    assert all(renege.seat is Seat.N for renege in state.hands[0].reneges)


def test_no_renege_on_a_true_void() -> None:
    state = state_after(*HAND_E3)
    assert state.hands[0].reneges == []
    assert state.hands[0].failures  # S showed out of hearts legally: noted, never proven
