"""`GameState.apply` refuses anything that is not a well-formed event and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from table import (
    Bid,
    BidKind,
    BidMade,
    Card,
    CardCorrected,
    CardPlayed,
    GameStarted,
    GameState,
    InvalidEvent,
    Refusal,
    Seat,
    Suit,
    TrumpNamed,
    Undone,
)
from table.summary import summary
from tests.table.reneges_data import RENEGE_HAND
from tests.table.tablelog import state_after

NOT_EVENTS: list[Any] = [
    None,
    42,
    "undo",
    {"type": "undo"},
    Undone,
    CardPlayed,
    Seat.N,
    Card.parse("JS"),
    BidMade("E", Bid.parse(4)),  # type: ignore[arg-type]
    BidMade(Seat.E, 4),  # type: ignore[arg-type]
    BidMade(Seat.E, Bid(BidKind.TRICKS, 99)),
    BidMade(Seat.E, Bid(BidKind.TRICKS, True)),
    BidMade(Seat.E, Bid("pass")),  # type: ignore[arg-type]
    BidMade(Seat.E, Bid(BidKind.ASK, 3)),
    TrumpNamed(Seat.E, "H"),  # type: ignore[arg-type]
    CardPlayed(Seat.E, Card("X", Suit.HEARTS)),
    CardPlayed(Seat.E, Card("J", "H")),  # type: ignore[arg-type]
    CardPlayed(Seat.E, Card("J", None)),
    CardPlayed(Seat.E, "JS"),  # type: ignore[arg-type]
    CardPlayed(None, Card.parse("JS")),  # type: ignore[arg-type]
    CardCorrected(True, 1, Seat.N, Card.parse("JS")),
    CardCorrected(1, 0, Seat.N, Card.parse("JS")),
    CardCorrected(1, 3, Seat.N, Card("J", "S")),  # type: ignore[arg-type]
]


def proven_state() -> GameState:
    """A state whose last card just proved a renege: `newly_proven` is not empty."""
    state = state_after(*RENEGE_HAND[:6], "cards E KS S TS W QS N TC", "cards E QC S AC W JC N JS")
    assert state.newly_proven
    return state


@pytest.mark.parametrize("thing", NOT_EVENTS, ids=lambda thing: type(thing).__name__)
def test_apply_refuses_a_non_event_and_leaves_the_state_as_it_was(thing: Any) -> None:
    state = proven_state()
    before = summary(state)
    log, plays, proven = list(state.log), list(state.plays), state.newly_proven
    hand_failures = list(state.hand.failures)
    with pytest.raises(InvalidEvent) as caught:
        state.apply(thing)
    assert caught.value.kind is Refusal.MALFORMED
    assert summary(state) == before
    assert state.log == log and state.plays == plays
    assert state.newly_proven == proven
    assert state.hand.failures == hand_failures
    assert all(trick.winner is not None for trick in state.hand.tricks)


def test_a_bad_card_never_reaches_a_trick() -> None:
    state = state_after(*RENEGE_HAND[:5])
    with pytest.raises(InvalidEvent, match="rank 'X'"):
        state.apply(CardPlayed(Seat.E, Card("X", Suit.HEARTS)))
    assert state.hand.tricks == []
    state.apply(CardPlayed(Seat.E, Card.parse("JH")))
    assert state.hand.tricks[0].cards == [(Seat.E, Card.parse("JH"))]


def test_the_game_start_is_checked_too() -> None:
    with pytest.raises(InvalidEvent):
        GameState(GameStarted("N"))  # type: ignore[arg-type]
    with pytest.raises(InvalidEvent):
        GameState(BidMade(Seat.E, Bid.parse(3)))  # type: ignore[arg-type]


def test_well_formed_events_still_pass() -> None:
    state = state_after()
    state.apply(BidMade(Seat.E, Bid.parse(3)))
    assert state.hand.bids == [(Seat.E, Bid.parse(3))]
