"""Random but legal games: real deals, plausible bids and plays, optional injected reneges."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from table.bids import ASK, MOON, PASS, Bid, BidKind
from table.cards import RANKS, SUITS, Card, Suit, deck, effective_suit, trick_key, trump_order
from table.events import (
    AceNoFaceClaimed,
    BidMade,
    CardPlayed,
    DealerDiscarded,
    Event,
    ExchangeDone,
    GameStarted,
    TrumpNamed,
)
from table.rules import Rules
from table.seats import SEATS, Seat
from table.state import GameState, Phase, legal_bids

MAX_HANDS = 500
_FACE_RANKS = ("J", "Q", "K")


@dataclass(frozen=True, slots=True)
class InjectedRenege:
    """A failure to follow suit the simulator made on purpose, in hand `hand`."""

    hand: int
    seat: Seat
    trick: int
    led: Suit
    card: Card


@dataclass(slots=True)
class SimulatedGame:
    """A simulated game: its events (a complete log) and the reneges put into it."""

    events: list[Event] = field(default_factory=list)
    injected: list[InjectedRenege] = field(default_factory=list)
    state: GameState = field(default_factory=GameState)
    renege_limit: int | None = None

    @property
    def finished(self) -> bool:
        """True when a team has won."""
        return self.state.winner is not None

    @property
    def may_inject(self) -> bool:
        """True while the game may take another injected renege."""
        return self.renege_limit is None or len(self.injected) < self.renege_limit


def simulate_game(
    seed: int = 0,
    rules: Rules | None = None,
    renege_rate: float = 0.0,
    renege_limit: int | None = None,
    max_hands: int = MAX_HANDS,
) -> SimulatedGame:
    """Play a whole game to its end with random deals and simple, plausible play.

    With `renege_rate`, a player who could follow suit plays off-suit instead with that
    chance, at most `renege_limit` times in the game (no limit when None). A game still
    undecided after `max_hands` hands stops there (heavy renege penalties can keep both
    teams below the target for ever); `finished` tells.
    """
    rng = random.Random(seed)
    rules = rules or Rules()
    start = GameStarted(dealer=rng.choice(SEATS), rules=rules)
    game = SimulatedGame(events=[start], state=GameState(start), renege_limit=renege_limit)
    while game.state.winner is None and game.state.hand.number <= max_hands:
        _play_hand(game, rng, renege_rate)
    return game


def _record(game: SimulatedGame, event: Event) -> None:
    game.state.apply(event)
    game.events.append(event)


def _deal(rules: Rules, dealer: Seat, rng: random.Random) -> dict[Seat, list[Card]]:
    cards = list(deck(rules.joker)) * rules.copies
    rng.shuffle(cards)
    size = rules.tricks_per_hand
    hands = {seat: cards[index * size : (index + 1) * size] for index, seat in enumerate(SEATS)}
    if rules.joker:
        hands[dealer].append(cards[len(SEATS) * size])
    return hands


def _play_hand(game: SimulatedGame, rng: random.Random, renege_rate: float) -> None:
    state, rules = game.state, game.state.rules
    number = state.hand.number
    hands = _deal(rules, state.dealer, rng)
    if state.phase is Phase.DISCARD:
        dealer_hand = hands[state.dealer]
        dealer_hand.remove(min(dealer_hand, key=_plain_strength))
        _record(game, DealerDiscarded(state.dealer))
    if rules.ace_no_face:
        claimant = next((seat for seat in SEATS if _is_ace_no_face(hands[seat])), None)
        if claimant is not None and rng.random() < 0.5:
            _record(game, AceNoFaceClaimed(claimant))
            return
    while state.phase is Phase.BIDDING:
        seat = state.turn
        assert seat is not None
        _record(game, BidMade(seat, _choose_bid(hands[seat], legal_bids(state), rules, rng)))
    if state.hand.number != number:
        return  # everyone passed: a redeal
    bidder = state.turn
    assert bidder is not None
    trump = max(SUITS, key=lambda suit: _estimate_tricks(hands[bidder], suit))
    _record(game, TrumpNamed(bidder, trump))
    if state.phase is Phase.EXCHANGE:
        _exchange(hands, bidder, trump)
        _record(game, ExchangeDone(bidder))
    while state.hand.number == number and state.winner is None:
        seat = state.turn
        assert seat is not None
        card = _choose_card(game, hands[seat], seat, trump, rng, renege_rate)
        hands[seat].remove(card)
        _record(game, CardPlayed(seat, card))


def _is_ace_no_face(hand: list[Card]) -> bool:
    ranks = {card.rank for card in hand}
    return "A" in ranks and not ranks.intersection(_FACE_RANKS)


def _plain_strength(card: Card) -> int:
    return 99 if card.is_joker else RANKS.index(card.rank)


def _estimate_tricks(hand: list[Card], trump: Suit) -> float:
    """A rough count of the tricks this hand takes with `trump`."""
    total = 0.0
    for card in hand:
        if effective_suit(card, trump) is trump:
            total += 0.45 + 0.08 * trump_order(card, trump)
        elif card.rank == "A":
            total += 0.6
    return total


def _choose_bid(hand: list[Card], legal: tuple[Bid, ...], rules: Rules, rng: random.Random) -> Bid:
    scale = rules.tricks_per_hand / 6
    alone = max(_estimate_tricks(hand, suit) for suit in SUITS) / scale
    wanted: Bid | None = None
    if alone >= 5.2:
        wanted = MOON
    elif alone >= 4.6:
        wanted = ASK
    else:
        level = int(min(alone + 1.2 + rng.random(), 6) * scale)
        wanted = Bid(BidKind.TRICKS, level) if level >= 3 else None
    if wanted is not None and wanted in legal:
        return wanted
    if PASS in legal:
        return PASS
    return legal[0]


def _exchange(hands: dict[Seat, list[Card]], bidder: Seat, trump: Suit) -> None:
    """The bidder passes their weakest card; the partner gives back their best."""
    partner = bidder.partner
    weakest = min(hands[bidder], key=lambda card: _card_power(card, trump))
    hands[bidder].remove(weakest)
    hands[partner].append(weakest)
    best = max(hands[partner], key=lambda card: _card_power(card, trump))
    hands[partner].remove(best)
    hands[bidder].append(best)


def _card_power(card: Card, trump: Suit) -> tuple[int, int]:
    if effective_suit(card, trump) is trump:
        return (1, trump_order(card, trump))
    return (0, RANKS.index(card.rank))


def _choose_card(
    game: SimulatedGame,
    hand: list[Card],
    seat: Seat,
    trump: Suit,
    rng: random.Random,
    renege_rate: float,
) -> Card:
    trick = game.state.trick
    if trick is None:
        return (
            max(hand, key=lambda card: _card_power(card, trump))
            if rng.random() < 0.5
            else (rng.choice(hand))
        )
    led = trick.led(trump)
    assert led is not None
    following = [card for card in hand if effective_suit(card, trump) is led]
    others = [card for card in hand if effective_suit(card, trump) is not led]
    if following and others and game.may_inject and rng.random() < renege_rate:
        card = rng.choice(others)
        game.injected.append(
            InjectedRenege(game.state.hand.number, seat, len(game.state.hand.tricks), led, card)
        )
        return card
    choices = following or hand
    best = max((card for _, card in trick.cards), key=lambda card: trick_key(card, trump, led))
    winning = [c for c in choices if trick_key(c, trump, led) > trick_key(best, trump, led)]
    if winning:
        return min(winning, key=lambda card: trick_key(card, trump, led))
    return min(choices, key=lambda card: _card_power(card, trump))
