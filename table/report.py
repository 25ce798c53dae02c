"""A readable account of a game: each hand's bidding, contract, tricks, reneges and points."""

from __future__ import annotations

from table.hand import Correction, Hand, HandResult, Renege
from table.seats import TEAMS, Team
from table.state import GameState


def describe_renege(renege: Renege) -> str:
    """One line naming the seat, the trick, the suit led, the card played and the proof."""
    return (
        f"RENEGE by {renege.seat}: trick {renege.trick}, {renege.led.symbol} led, played "
        f"{renege.card}; proved by {renege.proved_by_card} in trick {renege.proved_by_trick}"
    )


def describe_correction(correction: Correction) -> str:
    """One line naming the corrected play: who, which trick, what was read and what it was."""
    return (
        f"CORRECTED: {correction.seat}'s card in trick {correction.trick} was "
        f"{correction.card}, not {correction.was} as recorded"
    )


def describe_hand(hand: Hand) -> list[str]:
    """The lines telling one hand."""
    lines = [f"Hand {hand.number}, dealer {hand.dealer}"]
    if hand.discarded:
        lines.append(f"  {hand.dealer} discarded")
    if hand.bids:
        calls = ", ".join(f"{seat} {bid}" for seat, bid in hand.bids)
        lines.append(f"  bidding: {calls}")
    if hand.result is HandResult.REDEAL:
        lines.append("  everyone passed: redeal, the deal passes left")
    if hand.result is HandResult.ACE_NO_FACE:
        lines.append(f"  {hand.claimed_by} claimed Ace No Face: the deal passes left")
    contract = hand.contract
    if contract is not None:
        alone = f", {contract.sitting_out} sits out" if contract.sitting_out else ""
        lines.append(
            f"  contract: {contract.seat} bid {contract.bid}, trump {contract.trump.symbol}{alone}"
        )
    for number, trick in enumerate(hand.tricks, start=1):
        cards = " ".join(f"{seat}:{card}" for seat, card in trick.cards)
        taken = f" -> {trick.winner}" if trick.winner else " (in progress)"
        lines.append(f"  trick {number}: {cards}{taken}")
    lines.extend(f"  {describe_correction(correction)}" for correction in hand.corrections)
    lines.extend(f"  {describe_renege(renege)}" for renege in hand.reneges)
    if hand.result is HandResult.PLAYED and contract is not None:
        won = hand.tricks_won
        verdict = "made" if won[contract.team] >= _needed(hand) else "set"
        lines.append(
            f"  tricks: NS {won[Team.NS]}, EW {won[Team.EW]}; {contract.team} {verdict}; points: "
            + ", ".join(f"{team} {hand.points[team]:+d}" for team in TEAMS)
        )
    return lines


def _needed(hand: Hand) -> int:
    """Tricks the contract needed: the bid, or every trick of the hand for ask and moon."""
    assert hand.contract is not None
    return hand.contract.bid.tricks if not hand.contract.bid.is_alone else len(hand.tricks)


def describe_game(state: GameState) -> str:
    """The whole account, with the running score after each scored hand."""
    lines: list[str] = []
    running = dict.fromkeys(TEAMS, 0)
    rules = state.rules.to_mapping()
    lines.append(f"Game, first dealer {state.first_dealer}, rules: {rules or 'defaults'}")
    for hand in state.hands:
        lines.extend(describe_hand(hand))
        if hand.result is HandResult.PLAYED:
            for team in TEAMS:
                running[team] += hand.points[team]
            lines.append(f"  score: NS {running[Team.NS]}, EW {running[Team.EW]}")
    if state.winner:
        lines.append(
            f"{state.winner} win, {state.scores[Team.NS]} to {state.scores[Team.EW]} (NS-EW)"
        )
    else:
        lines.append(
            f"Score: NS {state.scores[Team.NS]}, EW {state.scores[Team.EW]}; no winner yet"
        )
    return "\n".join(lines)
