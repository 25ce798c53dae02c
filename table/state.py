"""The game state as a fold over events: one `apply` per event, undo by replaying the rest."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from table.bids import Bid, BidKind, all_bids
from table.cards import Card, effective_suit
from table.errors import InvalidEvent
from table.events import (
    AceNoFaceClaimed,
    BidMade,
    CardPlayed,
    DealerDiscarded,
    Event,
    ExchangeDone,
    GameStarted,
    TrumpNamed,
    Undone,
)
from table.hand import (
    Contract,
    FailureToFollow,
    Hand,
    HandResult,
    Renege,
    Trick,
    follows_suit,
    winner,
)
from table.rules import Rules
from table.seats import TEAMS, Seat, Team


class Phase(StrEnum):
    """What the table is waiting for."""

    DISCARD = "discard"
    BIDDING = "bidding"
    TRUMP = "trump"
    EXCHANGE = "exchange"
    PLAY = "play"
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: the winning team and the final score."""

    winner: Team
    scores: dict[Team, int]


class GameState:
    """A game folded from its events; `apply` refuses what the rules do not allow."""

    def __init__(self, start: GameStarted | None = None) -> None:
        start = start or GameStarted()
        self.rules: Rules = start.rules
        self.first_dealer: Seat = start.dealer
        self.log: list[Event] = [start]
        self.completed: list[Hand] = []
        self.hand: Hand = Hand(number=1, dealer=start.dealer)
        self.scores: dict[Team, int] = dict.fromkeys(TEAMS, 0)
        self.winner: Team | None = None
        self.newly_proven: tuple[Renege, ...] = ()

    # ---- queries -------------------------------------------------------------------------

    @property
    def hands(self) -> list[Hand]:
        """Every hand with at least one event, oldest first."""
        if self.winner is None and self.hand.has_events:
            return [*self.completed, self.hand]
        return list(self.completed)

    @property
    def dealer(self) -> Seat:
        """The dealer of the current hand."""
        return self.hand.dealer

    @property
    def contract(self) -> Contract | None:
        """The current hand's contract, once trump is named."""
        return self.hand.contract

    @property
    def trick(self) -> Trick | None:
        """The trick in progress (None before the first card and between tricks)."""
        trick = self.hand.current_trick
        return trick if trick is not None and trick.winner is None else None

    @property
    def last_trick(self) -> Trick | None:
        """The most recently completed trick of the current hand."""
        done = [trick for trick in self.hand.tricks if trick.winner is not None]
        return done[-1] if done else None

    @property
    def phase(self) -> Phase:
        """What the table waits for now."""
        hand = self.hand
        if self.winner is not None:
            return Phase.GAME_OVER
        if hand.contract is None:
            if self.rules.joker and not hand.discarded:
                return Phase.DISCARD
            if len(hand.bids) < len(hand.bidding_order):
                return Phase.BIDDING
            return Phase.TRUMP
        if hand.contract.bid.kind is BidKind.ASK and not hand.exchanged:
            return Phase.EXCHANGE
        return Phase.PLAY

    @property
    def turn(self) -> Seat | None:
        """The seat whose action the table waits for, or None when the game is over."""
        phase = self.phase
        hand = self.hand
        if phase is Phase.GAME_OVER:
            return None
        if phase is Phase.DISCARD:
            return hand.dealer
        if phase is Phase.BIDDING:
            return hand.bidding_order[len(hand.bids)]
        if phase is Phase.TRUMP:
            high = hand.high_bid
            return high[0] if high else None
        assert hand.contract is not None
        if phase is Phase.EXCHANGE:
            return hand.contract.seat
        return self._next_to_play()

    @property
    def tricks_won(self) -> dict[Team, int]:
        """Tricks each team has taken in the current hand."""
        return self.hand.tricks_won

    def outcome(self) -> Outcome | None:
        """The outcome once a team has won, else None."""
        if self.winner is None:
            return None
        return Outcome(self.winner, dict(self.scores))

    # ---- the fold ------------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Fold one event into the state; raises InvalidEvent and changes nothing if refused."""
        if isinstance(event, Undone):
            self._undo()
            return
        if isinstance(event, GameStarted):
            raise InvalidEvent("a 'game' event may only be the first line: a new game is a new log")
        if self.winner is not None:
            raise InvalidEvent(f"the game is over: {self.winner} won {self._score_text()}")
        proven_before, self.newly_proven = self.newly_proven, ()
        try:
            match event:
                case BidMade():
                    self._bid(event)
                case TrumpNamed():
                    self._trump(event)
                case ExchangeDone():
                    self._exchange(event)
                case DealerDiscarded():
                    self._discard(event)
                case AceNoFaceClaimed():
                    self._claim(event)
                case CardPlayed():
                    self._card(event)
        except InvalidEvent:
            self.newly_proven = proven_before
            raise
        self.log.append(event)

    def _undo(self) -> None:
        if self.winner is not None:
            raise InvalidEvent(f"the game is over: {self.winner} won {self._score_text()}")
        if len(self.log) <= 1:
            raise InvalidEvent("nothing to undo")
        rebuilt = replay(self.log[:-1])
        for name in ("log", "completed", "hand", "scores", "winner"):
            setattr(self, name, getattr(rebuilt, name))
        self.newly_proven = ()

    def _expect(self, phase: Phase, seat: Seat, action: str) -> None:
        """Refuse an action outside its phase or from the wrong seat."""
        now = self.phase
        if now is not phase:
            raise InvalidEvent(f"{seat} {action}, but {self._waiting_for()}")
        turn = self.turn
        if seat is not turn:
            raise InvalidEvent(f"{seat} {action} out of turn: {self._waiting_for()}")

    def _waiting_for(self) -> str:
        phase, turn = self.phase, self.turn
        return {
            Phase.DISCARD: f"the dealer {turn} must discard first",
            Phase.BIDDING: f"it is {turn}'s turn to bid",
            Phase.TRUMP: f"bidding is over and {turn} must name trump",
            Phase.EXCHANGE: f"the ask exchange of {turn} is not done yet",
            Phase.PLAY: f"it is {turn}'s turn to play a card",
            Phase.GAME_OVER: "the game is over",
        }[phase]

    def _bid(self, event: BidMade) -> None:
        hand, bid = self.hand, event.bid
        self._expect(Phase.BIDDING, event.seat, f"bid {bid}")
        high = hand.high_bid
        if bid.is_pass:
            is_last = len(hand.bids) == len(hand.bidding_order) - 1
            if self.rules.stick_the_dealer and is_last and high is None:
                raise InvalidEvent(
                    f"the dealer {event.seat} may not pass: stick the dealer, everyone else passed"
                )
        else:
            if bid not in all_bids(self.rules):
                raise InvalidEvent(self._unknown_bid_reason(bid))
            if high is not None and bid.height(self.rules) <= high[1].height(self.rules):
                raise InvalidEvent(f"{event.seat} bid {bid}, but the bid to beat is {high[1]}")
        hand.bids.append((event.seat, bid))
        if len(hand.bids) == len(hand.bidding_order) and hand.high_bid is None:
            self._end_hand(HandResult.REDEAL)

    def _unknown_bid_reason(self, bid: Bid) -> str:
        top = self.rules.tricks_per_hand
        if bid.kind is BidKind.TRICKS and bid.tricks == top and not self.rules.plain_six:
            return f"a plain {top} is off (plain_six: false): bid ask or moon"
        highest = all_bids(self.rules)[-3]
        return f"bid {bid} is above the highest plain bid, {highest}"

    def _trump(self, event: TrumpNamed) -> None:
        hand = self.hand
        if self.phase is Phase.BIDDING:
            raise InvalidEvent(f"{event.seat} named trump before the bidding has ended")
        self._expect(Phase.TRUMP, event.seat, f"named trump {event.suit.symbol}")
        high = hand.high_bid
        assert high is not None
        hand.contract = Contract(high[0], high[1], event.suit)
        hand.players = 3 if high[1].is_alone else 4

    def _exchange(self, event: ExchangeDone) -> None:
        contract = self.hand.contract
        if contract is not None and contract.bid.kind is not BidKind.ASK:
            raise InvalidEvent(
                f"an exchange is only for an ask hand; this hand's bid is {contract.bid}"
            )
        self._expect(Phase.EXCHANGE, event.seat, "reported the exchange")
        self.hand.exchanged = True

    def _discard(self, event: DealerDiscarded) -> None:
        if not self.rules.joker:
            raise InvalidEvent("a discard is only for the joker variant, which is off")
        self._expect(Phase.DISCARD, event.seat, "discarded")
        self.hand.discarded = True

    def _claim(self, event: AceNoFaceClaimed) -> None:
        if not self.rules.ace_no_face:
            raise InvalidEvent("Ace No Face is off in these rules")
        if self.phase not in (Phase.DISCARD, Phase.BIDDING, Phase.TRUMP):
            raise InvalidEvent(f"{event.seat} claimed Ace No Face after trump was named")
        self.hand.claimed_by = event.seat
        self._end_hand(HandResult.ACE_NO_FACE)

    def _card(self, event: CardPlayed) -> None:
        hand, seat, card = self.hand, event.seat, event.card
        phase = self.phase
        if phase is not Phase.PLAY:
            raise InvalidEvent(f"{seat} played {card.code}, but {self._waiting_for()}")
        contract = hand.contract
        assert contract is not None
        if seat is contract.sitting_out:
            raise InvalidEvent(
                f"{seat} played {card.code}, but {seat} sits out this hand ({contract.bid} by "
                f"{contract.seat})"
            )
        if seat is not self._next_to_play():
            raise InvalidEvent(f"{seat} played {card.code} out of turn: {self._waiting_for()}")
        if card.is_joker and not self.rules.joker:
            raise InvalidEvent("JK is not in the deck: the joker variant is off")
        if hand.played[card] >= self.rules.copies:
            where = hand.where_played(card)
            detail = f" (trick {where[0]} by {where[1]})" if where else ""
            raise InvalidEvent(f"{card.code} was already played this hand{detail}")
        trick = hand.current_trick
        if trick is None or trick.winner is not None:
            trick = Trick(leader=seat)
            hand.tricks.append(trick)
        trick.cards.append((seat, card))
        hand.played[card] += 1
        self._check_renege(seat, card, trick, contract)
        if len(trick.cards) == hand.players:
            trick.winner = winner(trick, contract.trump)
            if len(hand.tricks) == self.rules.tricks_per_hand:
                self._score_hand()

    def _check_renege(self, seat: Seat, card: Card, trick: Trick, contract: Contract) -> None:
        """Prove earlier failures this card shows were reneges, then note a new failure."""
        hand, trump = self.hand, contract.trump
        number = len(hand.tricks)
        suit = effective_suit(card, trump)
        proven = [f for f in hand.failures if f.seat is seat and f.led is suit]
        if proven:
            hand.failures = [f for f in hand.failures if f not in proven]
            found = tuple(
                Renege(f.seat, f.trick, f.led, f.card, number, card)
                for f in sorted(proven, key=lambda f: f.trick)
            )
            hand.reneges.extend(found)
            self.newly_proven = found
        led = trick.led(trump)
        if led is not None and not follows_suit(card, led, trump):
            hand.failures.append(FailureToFollow(seat, number, led, card))

    def _score_hand(self) -> None:
        hand = self.hand
        contract = hand.contract
        assert contract is not None
        won = hand.tricks_won
        bidders = contract.team
        bid = contract.bid
        made = won[bidders] >= bid.tricks_needed(self.rules)
        points = {
            bidders: bid.made_points(self.rules, won[bidders])
            if made
            else -bid.set_points(self.rules),
            bidders.other: won[bidders.other],
        }
        for renege in hand.reneges:
            points[renege.seat.team] -= self.rules.renege_penalty
        hand.points = points
        for team in TEAMS:
            self.scores[team] += points[team]
        self._end_hand(HandResult.PLAYED)
        self.winner = self._game_winner(bidders)

    def _game_winner(self, bidders: Team) -> Team | None:
        over = [team for team in TEAMS if self.scores[team] >= self.rules.target]
        if len(over) == 1:
            return over[0]
        if len(over) == 2:
            if self.rules.both_over_target == "bidding_team":
                return bidders
            ns, ew = self.scores[Team.NS], self.scores[Team.EW]
            if ns != ew:
                return Team.NS if ns > ew else Team.EW
        return None

    def _end_hand(self, result: HandResult) -> None:
        hand = self.hand
        hand.result = result
        self.completed.append(hand)
        self.hand = Hand(number=hand.number + 1, dealer=hand.dealer.left)

    def _next_to_play(self) -> Seat:
        hand = self.hand
        contract = hand.contract
        assert contract is not None
        trick = hand.current_trick
        if trick is None:
            return contract.seat
        if trick.winner is not None:
            return trick.winner
        last_seat = trick.cards[-1][0]
        seat = last_seat.left
        return seat.left if seat is contract.sitting_out else seat

    def _score_text(self) -> str:
        return f"{self.scores[Team.NS]} (NS) to {self.scores[Team.EW]} (EW)"


def replay(events: Iterable[Event]) -> GameState:
    """Fold a whole event list (first a GameStarted) into a state; raises InvalidEvent."""
    iterator = iter(events)
    first = next(iterator, None)
    if not isinstance(first, GameStarted):
        raise InvalidEvent("a game log must start with a 'game' event")
    state = GameState(first)
    for event in iterator:
        state.apply(event)
    return state


def legal_bids(state: GameState) -> tuple[Bid, ...]:
    """The bids the seat to bid may make now (a pass included when allowed); empty otherwise."""
    if state.phase is not Phase.BIDDING:
        return ()
    hand = state.hand
    high = hand.high_bid
    floor = high[1].height(state.rules) if high else 0
    bids = tuple(bid for bid in all_bids(state.rules) if bid.height(state.rules) > floor)
    dealer_stuck = (
        state.rules.stick_the_dealer
        and high is None
        and len(hand.bids) == len(hand.bidding_order) - 1
    )
    return bids if dealer_stuck else (Bid(BidKind.PASS), *bids)
