"""The game state as a fold over events: one `apply` per event, undo by replaying the rest."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from table.bids import Bid, BidKind, all_bids
from table.cards import Card, effective_suit
from table.errors import InvalidEvent, Refusal
from table.events import (
    AceNoFaceClaimed,
    BidMade,
    CardCorrected,
    CardPlayed,
    DealerDiscarded,
    Event,
    ExchangeDone,
    GameStarted,
    TrumpNamed,
    Undone,
    check_event,
)
from table.hand import (
    Contract,
    Correction,
    FailureToFollow,
    Hand,
    HandResult,
    Play,
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
    """A game folded from its events; `apply` refuses what the rules do not allow.

    `log` holds the events that stand (corrections included, undone events left out);
    `plays` is the same game with every correction put in place and no `correct` event:
    the list the hands, tricks and score are folded from.
    """

    def __init__(self, start: GameStarted | None = None) -> None:
        start = start or GameStarted()
        if not isinstance(check_event(start), GameStarted):
            raise InvalidEvent("a game begins with a 'game' event", Refusal.GAME_START)
        self.rules: Rules = start.rules
        self.first_dealer: Seat = start.dealer
        self.log: list[Event] = [start]
        self.plays: list[Event] = [start]
        self.corrections: list[Correction] = []
        self._positions: dict[tuple[int, int, Seat], int] = {}
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

    def hand_numbered(self, number: int) -> Hand | None:
        """The hand numbered `number` (from 1) once it has begun, else None."""
        for hand in self.hands:
            if hand.number == number:
                return hand
        return None

    def played_at(self, hand: int, trick: int, seat: Seat) -> Card | None:
        """The card `seat` played in trick `trick` of hand `hand` (corrections applied)."""
        found = self.hand_numbered(hand)
        return found.played_at(trick, seat) if found is not None else None

    def where_played(self, card: Card, hand: int | None = None) -> tuple[Play, ...]:
        """Every copy of `card` played in hand `hand` (default: the current hand), in order."""
        found = self.hand if hand is None else self.hand_numbered(hand)
        return found.plays_of(card) if found is not None else ()

    # ---- the fold ------------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Fold one event into the state; raises InvalidEvent and changes nothing if refused."""
        check_event(event)
        if isinstance(event, Undone):
            self._undo()
            return
        if isinstance(event, GameStarted):
            raise InvalidEvent(
                "a 'game' event may only be the first line: a new game is a new log",
                Refusal.GAME_START,
            )
        if isinstance(event, CardCorrected):
            self._correct(event)
            return
        if self.winner is not None:
            raise InvalidEvent(
                f"the game is over: {self.winner} won {self._score_text()}", Refusal.GAME_OVER
            )
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
        self.plays.append(event)

    def _undo(self) -> None:
        if len(self.log) <= 1:
            raise InvalidEvent("nothing to undo", Refusal.NOTHING_TO_UNDO)
        self._adopt(replay(self.log[:-1]))
        self.newly_proven = ()

    def _adopt(self, rebuilt: GameState) -> None:
        """Take over every derived field of a state rebuilt from the same game start."""
        for name in (
            "log",
            "plays",
            "corrections",
            "_positions",
            "completed",
            "hand",
            "scores",
            "winner",
        ):
            setattr(self, name, getattr(rebuilt, name))

    def _correct(self, event: CardCorrected) -> None:
        """Replay the game with the corrected card in place; refuse if the replay fails."""
        where = f"{event.seat}'s card in trick {event.trick} of hand {event.hand}"
        index = self._positions.get((event.hand, event.trick, event.seat))
        if index is None:
            raise InvalidEvent(
                f"cannot correct {where}: {self._no_card_there(event)}", Refusal.NO_SUCH_CARD
            )
        recorded = self.plays[index]
        assert isinstance(recorded, CardPlayed)
        if recorded.card == event.card:
            raise InvalidEvent(
                f"cannot correct {where}: it is already {event.card.code}", Refusal.SAME_CARD
            )
        plays = [*self.plays]
        plays[index] = CardPlayed(event.seat, event.card)
        rebuilt = GameState(self._start)
        for position, play in enumerate(plays[1:], start=1):
            try:
                rebuilt.apply(play)
            except InvalidEvent as error:
                raise InvalidEvent(
                    f"correcting {where} from {recorded.card.code} to {event.card.code} makes "
                    f"{_later(position, index)} ({describe_play(play)}) invalid: {error.reason}",
                    Refusal.CORRECTION_BREAKS_LATER,
                    error,
                ) from None
        rebuilt.log = [*self.log, event]
        rebuilt.corrections = [
            *self.corrections,
            Correction(event.hand, event.trick, event.seat, recorded.card, event.card),
        ]
        before = {(hand.number, renege) for hand in self._all_hands for renege in hand.reneges}
        self._adopt(rebuilt)
        for hand in self._all_hands:
            hand.corrections = [c for c in self.corrections if c.hand == hand.number]
        self.newly_proven = tuple(
            renege
            for hand in self._all_hands
            for renege in hand.reneges
            if (hand.number, renege) not in before
        )

    @property
    def _start(self) -> GameStarted:
        start = self.log[0]
        assert isinstance(start, GameStarted)
        return start

    @property
    def _all_hands(self) -> tuple[Hand, ...]:
        return (*self.completed, self.hand)

    def _no_card_there(self, event: CardCorrected) -> str:
        hand = self.hand_numbered(event.hand)
        if hand is None:
            return f"hand {event.hand} has not begun"
        if not hand.tricks:
            return f"no card was played in hand {event.hand}"
        if event.trick > len(hand.tricks):
            return f"hand {event.hand} has {len(hand.tricks)} tricks so far"
        contract = hand.contract
        if contract is not None and event.seat is contract.sitting_out:
            return f"{event.seat} sits out hand {event.hand}"
        return f"{event.seat} has not played to trick {event.trick} yet"

    def _expect(self, phase: Phase, seat: Seat, action: str) -> None:
        """Refuse an action outside its phase or from the wrong seat."""
        now = self.phase
        if now is not phase:
            raise InvalidEvent(f"{seat} {action}, but {self._waiting_for()}", Refusal.WRONG_PHASE)
        turn = self.turn
        if seat is not turn:
            raise InvalidEvent(
                f"{seat} {action} out of turn: {self._waiting_for()}", Refusal.OUT_OF_TURN
            )

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
            if self.dealer_stuck:
                raise InvalidEvent(
                    f"the dealer {event.seat} may not pass: stick the dealer, everyone else passed",
                    Refusal.DEALER_STUCK,
                )
        else:
            if bid not in all_bids(self.rules):
                raise self._unknown_bid(bid)
            if high is not None and bid.height(self.rules) <= high[1].height(self.rules):
                raise InvalidEvent(
                    f"{event.seat} bid {bid}, but the bid to beat is {high[1]}", Refusal.NOT_HIGHER
                )
        hand.bids.append((event.seat, bid))
        if len(hand.bids) == len(hand.bidding_order) and hand.high_bid is None:
            self._end_hand(HandResult.REDEAL)

    @property
    def dealer_stuck(self) -> bool:
        """True when stick-the-dealer forbids the dealer's pass: everyone else passed."""
        hand = self.hand
        return (
            self.rules.stick_the_dealer
            and self.phase is Phase.BIDDING
            and hand.high_bid is None
            and len(hand.bids) == len(hand.bidding_order) - 1
        )

    def _unknown_bid(self, bid: Bid) -> InvalidEvent:
        top = self.rules.tricks_per_hand
        if bid.kind is BidKind.TRICKS and bid.tricks == top and not self.rules.plain_six:
            return InvalidEvent(
                f"a plain {top} is off (plain_six: false): bid ask or moon", Refusal.RULE_OFF
            )
        highest = all_bids(self.rules)[-3]
        return InvalidEvent(
            f"bid {bid} is above the highest plain bid, {highest}", Refusal.NO_SUCH_BID
        )

    def _trump(self, event: TrumpNamed) -> None:
        hand = self.hand
        if self.phase is Phase.BIDDING:
            raise InvalidEvent(
                f"{event.seat} named trump before the bidding has ended", Refusal.WRONG_PHASE
            )
        self._expect(Phase.TRUMP, event.seat, f"named trump {event.suit.symbol}")
        high = hand.high_bid
        assert high is not None
        hand.contract = Contract(high[0], high[1], event.suit)
        hand.players = 3 if high[1].is_alone else 4

    def _exchange(self, event: ExchangeDone) -> None:
        contract = self.hand.contract
        if contract is not None and contract.bid.kind is not BidKind.ASK:
            raise InvalidEvent(
                f"an exchange is only for an ask hand; this hand's bid is {contract.bid}",
                Refusal.WRONG_PHASE,
            )
        self._expect(Phase.EXCHANGE, event.seat, "reported the exchange")
        self.hand.exchanged = True

    def _discard(self, event: DealerDiscarded) -> None:
        if not self.rules.joker:
            raise InvalidEvent(
                "a discard is only for the joker variant, which is off", Refusal.RULE_OFF
            )
        self._expect(Phase.DISCARD, event.seat, "discarded")
        self.hand.discarded = True

    def _claim(self, event: AceNoFaceClaimed) -> None:
        if not self.rules.ace_no_face:
            raise InvalidEvent("Ace No Face is off in these rules", Refusal.RULE_OFF)
        if self.phase not in (Phase.DISCARD, Phase.BIDDING, Phase.TRUMP):
            raise InvalidEvent(
                f"{event.seat} claimed Ace No Face after trump was named", Refusal.WRONG_PHASE
            )
        self.hand.claimed_by = event.seat
        self._end_hand(HandResult.ACE_NO_FACE)

    def _card(self, event: CardPlayed) -> None:
        hand, seat, card = self.hand, event.seat, event.card
        phase = self.phase
        if phase is not Phase.PLAY:
            raise InvalidEvent(
                f"{seat} played {card.code}, but {self._waiting_for()}", Refusal.WRONG_PHASE
            )
        contract = hand.contract
        assert contract is not None
        if seat is contract.sitting_out:
            raise InvalidEvent(
                f"{seat} played {card.code}, but {seat} sits out this hand ({contract.bid} by "
                f"{contract.seat})",
                Refusal.SITTING_OUT,
            )
        if seat is not self._next_to_play():
            raise InvalidEvent(
                f"{seat} played {card.code} out of turn: {self._waiting_for()}",
                Refusal.OUT_OF_TURN,
            )
        if card.is_joker and not self.rules.joker:
            raise InvalidEvent(
                "JK is not in the deck: the joker variant is off", Refusal.NOT_IN_DECK
            )
        if hand.played[card] >= self.rules.copies:
            where = hand.where_played(card)
            detail = f" (trick {where[0]} by {where[1]})" if where else ""
            raise InvalidEvent(
                f"{card.code} was already played this hand{detail}", Refusal.ALREADY_PLAYED
            )
        trick = hand.current_trick
        if trick is None or trick.winner is not None:
            trick = Trick(leader=seat)
            hand.tricks.append(trick)
        trick.cards.append((seat, card))
        self._positions[(hand.number, len(hand.tricks), seat)] = len(self.plays)
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


def _later(position: int, corrected: int) -> str:
    return "the corrected play itself" if position == corrected else "a later event"


def describe_play(event: Event) -> str:
    """A short account of a folded event, to name it in a refusal."""
    match event:
        case BidMade(seat, bid):
            return f"{seat} {'passes' if bid.is_pass else f'bids {bid}'}"
        case TrumpNamed(seat, suit):
            return f"{seat} names trump {suit.value}"
        case ExchangeDone(seat):
            return f"{seat}'s exchange"
        case DealerDiscarded(seat):
            return f"{seat}'s discard"
        case AceNoFaceClaimed(seat):
            return f"{seat} claims Ace No Face"
        case CardPlayed(seat, card):
            return f"{seat} plays {card.code}"
    return type(event).__name__


def replay(events: Iterable[Event]) -> GameState:
    """Fold a whole event list (first a GameStarted) into a state; raises InvalidEvent."""
    iterator = iter(events)
    first = next(iterator, None)
    if not isinstance(first, GameStarted):
        raise InvalidEvent("a game log must start with a 'game' event", Refusal.GAME_START)
    state = GameState(first)
    for event in iterator:
        state.apply(event)
    return state


def legal_bids(state: GameState) -> tuple[Bid, ...]:
    """The bids the seat to bid may make now (a pass included when allowed); empty otherwise."""
    if state.phase is not Phase.BIDDING:
        return ()
    high = state.hand.high_bid
    floor = high[1].height(state.rules) if high else 0
    bids = tuple(bid for bid in all_bids(state.rules) if bid.height(state.rules) > floor)
    return bids if state.dealer_stuck else (Bid(BidKind.PASS), *bids)
