"""The demo's recorded game: a short whole game from seeded deals and simple, legal play.

Each hand is dealt from a seeded shuffle; the players bid what their cards are worth (a moon
when one suit would take every trick), the bidder names their best suit, and each player
follows suit, wins a trick as cheaply as they can and otherwise throws their lowest card.
Deals are tried in seed order until the hand is the one the demo wants to show:

1. a renege (a player who could follow suit does not, once), proven later in the hand, and
   the bidding team set;
2. a plain bid made;
3. a moon made (24 points), which wins the game.

Every event goes through the engine as it is made, so the log is a legal game; the search is
deterministic, so the same arguments write the same file.

    python -m tools.make_demo_game [--out app/data/demo_camera_game.jsonl] [--dealer W]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from table import (
    MOON,
    PASS,
    Bid,
    BidMade,
    Card,
    CardPlayed,
    GameStarted,
    GameState,
    Seat,
    Suit,
    TrumpNamed,
)
from table.bids import BidKind
from table.cards import RANKS, SUITS, deck, effective_suit, trick_key, trump_order
from table.events import Event
from table.hand import Hand, HandResult
from table.log import dump_events
from table.seats import SEATS
from table.state import Phase, legal_bids, replay

OUT = Path(__file__).resolve().parent.parent / "app" / "data" / "demo_camera_game.jsonl"
MOON_AT = 5.5
"""A hand worth this many tricks alone in one suit shoots the moon."""


@dataclass(frozen=True)
class WantedHand:
    """What one hand of the demo must show, and whether it may be played with a renege."""

    name: str
    fits: Callable[[Hand, GameState], bool]
    renege: bool = False
    dealt: Callable[[dict[Seat, list[Card]]], bool] | None = None
    """A quick look at the deal before it is played: False skips it."""
    tries: int = 300
    """Deals tried for this hand before the previous hand takes its next deal."""


def made(hand: Hand, state: GameState) -> bool:
    """True when the bidding team took the tricks it bid."""
    contract = hand.contract
    assert contract is not None
    return hand.tricks_won[contract.team] >= contract.bid.tricks_needed(state.rules)


def renege_and_set(hand: Hand, state: GameState) -> bool:
    """One proven renege, the bidding team set, and the game goes on."""
    return len(hand.reneges) == 1 and not made(hand, state) and state.winner is None


def bid_made(hand: Hand, state: GameState) -> bool:
    """A plain bid of 4 or more made, no renege, and a team a moon away from winning."""
    contract = hand.contract
    assert contract is not None
    plain = contract.bid.kind is BidKind.TRICKS and contract.bid.tricks >= 4
    moon = MOON.made_points(state.rules, state.rules.tricks_per_hand)
    in_reach = max(state.scores.values()) + moon >= state.rules.target
    return plain and made(hand, state) and not hand.reneges and in_reach and not state.winner


def moon_wins(hand: Hand, state: GameState) -> bool:
    """A moon made, no renege, and its team has won the game."""
    contract = hand.contract
    assert contract is not None
    moon = contract.bid.kind is BidKind.MOON and made(hand, state) and not hand.reneges
    return moon and state.winner is contract.team


DEMO_HANDS = (
    WantedHand("a renege proven and the bidders set", renege_and_set, renege=True),
    WantedHand("a bid made", bid_made),
    WantedHand("a moon made that wins the game", moon_wins, dealt=lambda hands: any(
        max(worth(cards, suit) for suit in SUITS) >= MOON_AT for cards in hands.values()),
        tries=20_000),
)


class NoDeal(RuntimeError):
    """No deal within the tries gives the hands wanted."""


def worth(cards: list[Card], trump: Suit) -> float:
    """Roughly how many tricks `cards` take with `trump`: trumps by rank, and side aces."""
    total = 0.0
    for card in cards:
        if effective_suit(card, trump) is trump:
            total += 0.5 + 0.1 * trump_order(card, trump)
        elif card.rank == "A":
            total += 0.6
    return total


def choose_bid(cards: list[Card], state: GameState) -> Bid:
    """A moon for a hand that would take everything, else the tricks it is worth, else pass."""
    legal = legal_bids(state)
    alone = max(worth(cards, suit) for suit in SUITS)
    wanted = MOON if alone >= MOON_AT else Bid(BidKind.TRICKS, min(int(alone + 1.5), 6))
    return wanted if wanted in legal else PASS


def power(card: Card, trump: Suit) -> tuple[int, int]:
    """A card's strength for leading and throwing: trumps above every plain card."""
    if effective_suit(card, trump) is trump:
        return (1, trump_order(card, trump))
    return (0, RANKS.index(card.rank))


def choose_card(cards: list[Card], state: GameState, trump: Suit, renege: bool) -> Card:
    """Lead the strongest card; follow suit, winning as cheaply as possible, else the lowest.

    With `renege`, a player who can follow suit and holds another suit plays the lowest card
    of the other suits instead.
    """
    trick = state.trick
    if trick is None or not trick.cards:
        return max(cards, key=lambda card: power(card, trump))
    led = trick.led(trump)
    assert led is not None
    following = [card for card in cards if effective_suit(card, trump) is led]
    others = [card for card in cards if effective_suit(card, trump) is not led]
    if renege and following and others:
        return min(others, key=lambda card: power(card, trump))
    choices = following or cards
    best = max((card for _, card in trick.cards), key=lambda card: trick_key(card, trump, led))
    winning = [c for c in choices if trick_key(c, trump, led) > trick_key(best, trump, led)]
    if winning:
        return min(winning, key=lambda card: trick_key(card, trump, led))
    return min(choices, key=lambda card: power(card, trump))


def deal(seed: str) -> dict[Seat, list[Card]]:
    """Six cards to each seat from a shuffle seeded with `seed`."""
    shuffled = list(deck())
    random.Random(seed).shuffle(shuffled)
    return {seat: shuffled[6 * index : 6 * index + 6] for index, seat in enumerate(SEATS)}


def play_hand(
    events: list[Event], hands: dict[Seat, list[Card]], renege: bool
) -> tuple[list[Event], GameState]:
    """Play one hand of `hands` after `events`; the events after it and the state.

    With `renege`, the first player after the second trick who can fail to follow suit does.
    """
    state = replay(events)
    events = list(events)

    def record(event: Event) -> None:
        state.apply(event)  # the engine checks every event
        events.append(event)

    hands = {seat: list(cards) for seat, cards in hands.items()}
    number = state.hand.number
    while state.phase is Phase.BIDDING:
        seat = state.turn
        assert seat is not None
        record(BidMade(seat, choose_bid(hands[seat], state)))
    if state.hand.number != number:
        return events, state  # everyone passed: a redeal
    bidder = state.turn
    assert bidder is not None
    trump = max(SUITS, key=lambda suit: worth(hands[bidder], suit))
    record(TrumpNamed(bidder, trump))
    pending = renege
    while state.hand.number == number:
        seat = state.turn
        assert seat is not None
        done = sum(trick.winner is not None for trick in state.hand.tricks)
        card = choose_card(hands[seat], state, trump, pending and done >= 1)
        trick = state.trick
        led = trick.led(trump) if trick is not None else None
        if led is not None and effective_suit(card, trump) is not led:
            pending = pending and not any(effective_suit(c, trump) is led for c in hands[seat])
        hands[seat].remove(card)
        record(CardPlayed(seat, card))
    return events, state


def make_game(
    dealer: Seat = Seat.W, wanted: Sequence[WantedHand] = DEMO_HANDS
) -> tuple[list[Event], list[str]]:
    """The events of a game whose hands fit `wanted` in turn, and the seed of each hand.

    Hands are searched depth first: when no deal fits a hand, the previous hand takes its
    next fitting deal.
    """
    start = GameStarted(dealer=dealer)

    def search(events: list[Event], level: int) -> tuple[list[Event], list[str]] | None:
        if level == len(wanted):
            return events, []
        want = wanted[level]
        for attempt in range(want.tries):
            seed = f"demo hand {level + 1} deal {attempt}"
            hands = deal(seed)
            if want.dealt is not None and not want.dealt(hands):
                continue
            after, state = play_hand(events, hands, want.renege)
            hand = state.completed[-1] if state.completed else None
            if hand is None or hand.result is not HandResult.PLAYED:
                continue  # a redeal: try the next deal
            if want.fits(hand, state):
                found = search(after, level + 1)
                if found is not None:
                    return found[0], [seed, *found[1]]
        return None

    found = search([start], 0)
    if found is None:
        raise NoDeal("no deals within the tries give: "
                     + "; ".join(w.name for w in wanted))
    return found


def describe(events: list[Event]) -> list[str]:
    """One line per hand: the contract, the tricks, the reneges and the score after it."""
    state = replay(events)
    lines = []
    running = {team: 0 for team in state.scores}
    for hand in state.completed:
        contract = hand.contract
        assert contract is not None
        for team, points in hand.points.items():
            running[team] += points
        won = hand.tricks_won[contract.team]
        verdict = "made" if made(hand, state) else "set"
        score = ", ".join(f"{team} {points}" for team, points in running.items())
        lines.append(
            f"hand {hand.number}: {contract.seat} bids {contract.bid.log_value} in "
            f"{contract.trump}, takes {won}: {verdict}; reneges {len(hand.reneges)}; {score}"
        )
    lines.append(f"winner: {state.winner}")
    return lines


def main(argv: list[str] | None = None) -> int:
    """Write the demo game's table log and print its hands."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"the log to write (default {OUT})")
    parser.add_argument("--dealer", default="W", help="the first dealer (default W)")
    args = parser.parse_args(argv)
    try:
        dealer = Seat.parse(args.dealer)
    except ValueError as error:
        print(f"--dealer: {error}", file=sys.stderr)
        return 2
    try:
        events, seeds = make_game(dealer)
    except NoDeal as error:
        print(str(error), file=sys.stderr)
        return 1
    args.out.write_text(dump_events(events), encoding="utf-8")
    for line, seed in zip(describe(events), [*seeds, ""], strict=True):
        print(f"{line}  ({seed})" if seed else line)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
