"""The live table as JSON: what the phone page shows, built from the referee's state."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from table import GameState, Team
from table.hand import Hand, Trick
from table.seats import SEATS, TEAMS
from table.summary import renege_summary


def live_snapshot(
    state: GameState,
    game_id: int | None,
    *,
    seq: int | None = None,
    seat_names: Mapping[str, str] | None = None,
    problems: list[dict[str, str]] | None = None,
    alarms: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The live view of a game: score, bidding, contract, trick, turn, reneges and problems.

    `seq` is the number of events journaled for the game, undos included, as the MQTT events
    count them (without it, the events standing in the state's log).
    `alarms` are the reneges waiting for the players' answer (the running table knows them);
    without them, the reneges proven in the current hand, or in the hand just finished, stand.
    """
    hand = _shown_hand(state)
    names = dict(seat_names or {})
    contract = hand.contract if hand else None
    if alarms is None:
        alarms = [] if hand is None else [
            dict(renege_summary(renege), hand=hand.number) for renege in hand.reneges]
    return {
        "game": game_id,
        "seq": len(state.log) if seq is None else seq,
        "phase": state.phase.value,
        "target": state.rules.target,
        "score": _teams(state.scores),
        "winner": state.winner.value if state.winner else None,
        "dealer": (hand.dealer if hand else state.dealer).value,
        "turn": state.turn.value if state.turn else None,
        "seats": {seat.value: names.get(seat.value, seat.value) for seat in SEATS},
        "hand": hand.number if hand else state.hand.number,
        "bids": [[seat.value, bid.log_value] for seat, bid in (hand.bids if hand else [])],
        "contract": None if contract is None else {
            "seat": contract.seat.value,
            "bid": contract.bid.log_value,
            "trump": contract.trump.value,
            "sitting_out": contract.sitting_out.value if contract.sitting_out else None,
        },
        "trick": _trick(hand),
        "tricks_won": _teams(hand.tricks_won) if hand else _teams(dict.fromkeys(TEAMS, 0)),
        "alarms": alarms,
        "problems": problems or [],
    }


def _shown_hand(state: GameState) -> Hand | None:
    """The hand being played, or the one just finished while the next has not begun."""
    if state.hand.has_events or state.hand.tricks:
        return state.hand
    return state.completed[-1] if state.completed else None


def _trick(hand: Hand | None) -> dict[str, Any] | None:
    """The trick being played, or the last one taken, with who played what."""
    if hand is None or not hand.tricks:
        return None
    trick: Trick = hand.tricks[-1]
    return {
        "number": len(hand.tricks),
        "leader": trick.leader.value,
        "cards": [[seat.value, card.code] for seat, card in trick.cards],
        "winner": trick.winner.value if trick.winner else None,
    }


def _teams(values: Mapping[Team, int]) -> dict[str, int]:
    return {team.value: values[team] for team in TEAMS}
