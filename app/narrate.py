"""Tell a game event by event, as the table would announce it."""

from __future__ import annotations

from table import (
    AceNoFaceClaimed,
    BidMade,
    CardPlayed,
    DealerDiscarded,
    Event,
    ExchangeDone,
    GameState,
    HandResult,
    Team,
    TrumpNamed,
    Undone,
)
from table.report import describe_renege


def announce(state: GameState, event: Event, hands_before: int) -> list[str]:
    """The lines to show after `event` was folded into `state`."""
    lines: list[str] = []
    match event:
        case BidMade(seat, bid):
            lines.append(f"{seat} {'passes' if bid.is_pass else f'bids {bid}'}")
        case TrumpNamed(seat, suit):
            contract = state.contract
            alone = (
                f"; {contract.sitting_out} sits out" if contract and contract.sitting_out else ""
            )
            lines.append(f"{seat} names trump {suit.symbol}{alone}")
        case ExchangeDone(seat):
            lines.append(f"{seat} and partner have exchanged")
        case DealerDiscarded(seat):
            lines.append(f"dealer {seat} discards")
        case AceNoFaceClaimed(seat):
            lines.append(f"{seat} claims Ace No Face")
        case CardPlayed(seat, card):
            lines.append(f"{seat} plays {card}")
        case Undone():
            lines.append("undo")
    lines.extend(f"!!! {describe_renege(renege)}" for renege in state.newly_proven)
    finished = state.completed[hands_before:] if len(state.completed) > hands_before else []
    if isinstance(event, CardPlayed):
        hand = finished[-1] if finished else state.hand
        trick = hand.tricks[-1] if hand.tricks else None
        if trick is not None and trick.winner is not None:
            lines.append(f"   trick {len(hand.tricks)} to {trick.winner}")
    for hand in finished:
        lines.extend(_hand_end(hand.result, hand.points, state))
    if state.winner:
        lines.append(
            f"=== {state.winner} win the game, NS {state.scores[Team.NS]} - "
            f"EW {state.scores[Team.EW]} ==="
        )
    return lines


def _hand_end(result: HandResult, points: dict[Team, int], state: GameState) -> list[str]:
    if result is HandResult.REDEAL:
        return ["   everyone passed: redeal"]
    if result is HandResult.ACE_NO_FACE:
        return ["   Ace No Face: the deal passes"]
    return [
        f"   hand over: NS {points[Team.NS]:+d}, EW {points[Team.EW]:+d}; "
        f"score NS {state.scores[Team.NS]}, EW {state.scores[Team.EW]}"
    ]
