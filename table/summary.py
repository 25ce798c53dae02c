"""The JSON summary of a game that `cardtable replay --json` prints (TABLE_LOG.md)."""

from __future__ import annotations

from typing import Any

from table.hand import Correction, Hand, Renege, Trick
from table.seats import TEAMS, Team
from table.state import GameState


def summary(state: GameState) -> dict[str, Any]:
    """The game as TABLE_LOG.md's replay object: score, winner and every hand."""
    return {
        "score": _by_team(state.scores),
        "winner": state.winner.value if state.winner else None,
        "hands": [hand_summary(hand) for hand in state.hands],
    }


def hand_summary(hand: Hand) -> dict[str, Any]:
    """One hand's record in the replay object."""
    contract = hand.contract
    return {
        "number": hand.number,
        "dealer": hand.dealer.value,
        "result": hand.result.value,
        "bids": [[seat.value, bid.log_value] for seat, bid in hand.bids],
        "contract": (
            None
            if contract is None
            else {
                "seat": contract.seat.value,
                "bid": contract.bid.log_value,
                "trump": contract.trump.value,
            }
        ),
        "sitting_out": contract.sitting_out.value if contract and contract.sitting_out else None,
        "tricks": [_trick(trick) for trick in hand.tricks],
        "tricks_won": _by_team(hand.tricks_won),
        "reneges": [renege_summary(renege) for renege in hand.reneges],
        "corrections": [correction_summary(correction) for correction in hand.corrections],
        "points": _by_team(hand.points),
    }


def renege_summary(renege: Renege) -> dict[str, Any]:
    """A proven renege as the replay object lists it."""
    return {
        "seat": renege.seat.value,
        "trick": renege.trick,
        "led": renege.led.value,
        "card": renege.card.code,
        "proved_by_trick": renege.proved_by_trick,
        "proved_by_card": renege.proved_by_card.code,
    }


def correction_summary(correction: Correction) -> dict[str, Any]:
    """A correction that stands, as the replay object lists it."""
    return {
        "trick": correction.trick,
        "seat": correction.seat.value,
        "was": correction.was.code,
        "card": correction.card.code,
    }


def _trick(trick: Trick) -> dict[str, Any]:
    return {
        "leader": trick.leader.value,
        "cards": [[seat.value, card.code] for seat, card in trick.cards],
        "winner": trick.winner.value if trick.winner else None,
    }


def _by_team(values: dict[Team, int]) -> dict[str, int]:
    return {team.value: values[team] for team in TEAMS}
