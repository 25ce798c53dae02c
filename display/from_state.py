"""The view of a rules-engine state: the only place where the display reads `table`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from display.cards import Renege, Trick
from display.prompts import PlayedPicker, card_choices
from display.view import BidMade, Contract, HandSummary, Phase, Problem, SeatNames, TeamPair, View
from table import GameState, Hand, HandResult, Team, legal_bids
from table import Phase as TablePhase
from table import Renege as TableRenege
from table import Trick as TableTrick

PHASES: dict[TablePhase, Phase] = {
    TablePhase.DISCARD: Phase.DISCARD,
    TablePhase.BIDDING: Phase.BIDDING,
    TablePhase.TRUMP: Phase.TRUMP,
    TablePhase.EXCHANGE: Phase.EXCHANGE,
    TablePhase.PLAY: Phase.PLAY,
    TablePhase.GAME_OVER: Phase.GAME_OVER,
}


def view_from_state(
    state: GameState,
    seat_names: SeatNames | Mapping[str, str] | None = None,
    problems: Iterable[Problem] = (),
) -> View:
    """What the screen shows for `state`.

    Between the last event of a hand and the first of the next, the view is the hand's end
    (its summary), so the table sees the points before the next deal. A renege proven by
    the last event is the view's `alarm`.
    """
    newly_proven = tuple(renege_view(renege) for renege in state.newly_proven)
    base = View(
        phase=PHASES[state.phase],
        dealer=state.dealer.value,
        scores=team_pair(state.scores),
        target=state.rules.target,
        names=as_seat_names(seat_names),
        turn=state.turn.value if state.turn else None,
        problems=tuple(problems),
        alarm=newly_proven[0] if newly_proven else None,
        renege_penalty=state.rules.renege_penalty,
    )
    ended = state.completed[-1] if state.completed else None
    if state.winner is not None:
        return replace(base, winner=state.winner.value,
                       hand_number=ended.number if ended else 1,
                       hand_end=summary_view(state, ended) if ended else None)
    if ended is not None and not state.hand.has_events:
        return replace(base, phase=Phase.HAND_END, hand_number=ended.number,
                       contract=contract_view(state, ended),
                       tricks_won=team_pair(ended.tricks_won), reneges=reneges_of(ended),
                       hand_end=summary_view(state, ended))
    hand = state.hand
    last_trick = state.last_trick
    return replace(
        base,
        hand_number=hand.number,
        bids=tuple(BidMade(seat.value, bid.log_value) for seat, bid in hand.bids),
        legal_bids=tuple(bid.log_value for bid in legal_bids(state)),
        contract=contract_view(state, hand),
        trick=trick_view(hand),
        last_trick_winner=last_trick.winner.value if last_trick and last_trick.winner else None,
        tricks_won=team_pair(hand.tricks_won),
        reneges=reneges_of(hand),
    )


def as_seat_names(names: SeatNames | Mapping[str, str] | None) -> SeatNames:
    """Seat names from a SeatNames, a mapping such as {"N": "Ann"}, or nothing."""
    if names is None:
        return SeatNames()
    if isinstance(names, SeatNames):
        return names
    return SeatNames(n=names.get("N", ""), e=names.get("E", ""), s=names.get("S", ""),
                     w=names.get("W", ""))


def team_pair(values: Mapping[Team, int]) -> TeamPair:
    """A per-team dict as a TeamPair."""
    return TeamPair(ns=values[Team.NS], ew=values[Team.EW])


def contract_view(state: GameState, hand: Hand) -> Contract | None:
    """The hand's contract; while trump is being named, the high bid without trump."""
    tricks = state.rules.tricks_per_hand
    if hand.contract is not None:
        contract = hand.contract
        sitting_out = contract.sitting_out.value if contract.sitting_out else None
        return Contract(contract.seat.value, contract.bid.log_value, contract.trump.value,
                        sitting_out, tricks)
    high = hand.high_bid
    if high is not None and len(hand.bids) == len(hand.bidding_order):
        seat, bid = high
        sitting_out = seat.partner.value if bid.is_alone else None
        return Contract(seat.value, bid.log_value, None, sitting_out, tricks)
    return None


def pick_choices(state: GameState) -> tuple[str, ...]:
    """The cards a card pick offers in this game: the 24, and the joker when it is in play."""
    return card_choices(joker=state.rules.joker)


def played_picker(state: GameState, hand_number: int | None = None) -> PlayedPicker:
    """The cards recorded in hand `hand_number`, or in the latest hand with cards.

    The current and the last hand with cards may be shown; the picker offers the other one.
    """
    hands = [hand for hand in state.hands if hand.tricks][-2:]
    if not hands:
        return PlayedPicker(hand=state.hand.number)
    shown = next((hand for hand in hands if hand.number == hand_number), hands[-1])
    other = next((hand.number for hand in hands if hand is not shown), None)
    tricks = tuple(
        Trick(number, trick.leader.value,
              tuple((seat.value, card.code) for seat, card in trick.cards),
              trick.winner.value if trick.winner else None)
        for number, trick in enumerate(shown.tricks, start=1)
    )
    return PlayedPicker(shown.number, tricks, other)


def trick_view(hand: Hand) -> Trick | None:
    """The trick being played, or the one just completed until the next card; None before."""
    if not hand.tricks:
        if hand.contract is None:
            return None
        return Trick(1, hand.contract.seat.value)
    trick: TableTrick = hand.tricks[-1]
    return Trick(
        number=len(hand.tricks),
        leader=trick.leader.value,
        cards=tuple((seat.value, card.code) for seat, card in trick.cards),
        winner=trick.winner.value if trick.winner else None,
    )


def renege_view(renege: TableRenege) -> Renege:
    """An engine renege in log notation."""
    return Renege(renege.seat.value, renege.trick, renege.led.value, renege.card.code,
                  renege.proved_by_trick, renege.proved_by_card.code)


def reneges_of(hand: Hand) -> tuple[Renege, ...]:
    """The reneges proven so far in `hand`."""
    return tuple(renege_view(renege) for renege in hand.reneges)


def summary_view(state: GameState, hand: Hand) -> HandSummary:
    """How `hand` ended; the score shown is the score after it."""
    penalties = dict.fromkeys((Team.NS, Team.EW), 0)
    for renege in hand.reneges:
        penalties[renege.seat.team] += state.rules.renege_penalty
    return HandSummary(
        number=hand.number,
        result=hand.result.value,
        contract=contract_view(state, hand) if hand.result is HandResult.PLAYED else None,
        tricks=team_pair(hand.tricks_won),
        penalties=team_pair(penalties),
        points=team_pair(hand.points),
        scores=scores_after(state, hand),
    )


def scores_after(state: GameState, hand: Hand) -> TeamPair:
    """The score right after `hand`: the current score less the points of later hands."""
    ns, ew = state.scores[Team.NS], state.scores[Team.EW]
    for later in state.completed[state.completed.index(hand) + 1:]:
        ns -= later.points[Team.NS]
        ew -= later.points[Team.EW]
    return TeamPair(ns=ns, ew=ew)
