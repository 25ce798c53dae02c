"""The table's referee: turns button presses and card sightings into engine events."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

from app.journal import Journal
from drivers import inputs
from table import (
    AceNoFaceClaimed,
    Bid,
    BidMade,
    Card,
    CardPlayed,
    DealerDiscarded,
    Event,
    ExchangeDone,
    GameStarted,
    GameState,
    InvalidEvent,
    Phase,
    Renege,
    Rules,
    Seat,
    Suit,
    TrumpNamed,
    Undone,
    replay,
)


class NoticeKind(StrEnum):
    """What the table tells the players after an input."""

    ACCEPTED = "accepted"
    REFUSED = "refused"
    HELD = "held"
    UNREADABLE_CARD = "unreadable_card"
    ALREADY_PLAYED = "already_played"
    OUT_OF_TURN = "out_of_turn"
    RENEGE = "renege"
    NEW_GAME = "new_game"


@dataclass(frozen=True, slots=True)
class Notice:
    """One thing to show or sound: an accepted event, a refusal, a problem, an alarm."""

    kind: NoticeKind
    message: str
    seat: Seat | None = None
    card: Card | None = None
    renege: Renege | None = None


@dataclass(slots=True)
class Problems:
    """Problems standing until someone deals with them, keyed by seat."""

    unreadable: set[Seat] = field(default_factory=set)
    already_played: dict[Seat, Card] = field(default_factory=dict)
    out_of_turn: dict[Seat, Card] = field(default_factory=dict)

    def clear(self, seat: Seat | None = None) -> None:
        """Forget the problems of one seat, or all."""
        if seat is None:
            self.unreadable.clear()
            self.already_played.clear()
            self.out_of_turn.clear()
            return
        self.unreadable.discard(seat)
        self.already_played.pop(seat, None)
        self.out_of_turn.pop(seat, None)

    def __bool__(self) -> bool:
        return bool(self.unreadable or self.already_played or self.out_of_turn)


class TableController:
    """Owns the game state and the journal; every accepted event is journaled first."""

    def __init__(
        self, journal: Journal, rules: Rules, dealer: Seat = Seat.N, seat_confirms: bool = False
    ) -> None:
        """`seat_confirms`: shared value keys only propose; the seat's own OK decides who."""
        self.journal = journal
        self.seat_confirms = seat_confirms
        self.proposal: inputs.BidPressed | inputs.TrumpPressed | None = None
        self.rules = rules
        self.first_dealer = dealer
        self.held: dict[Seat, Card] = {}
        self._held_hand = 0
        self.problems = Problems()
        game_id = journal.latest_game()
        if game_id is None:
            self.game_id, self.state = self._start(rules, dealer)
        else:
            self.game_id = game_id
            self.state = replay(journal.events(game_id))
        # Played cards still lying on the table: seeing one again records nothing.
        self.on_table: set[tuple[Seat, Card]] = {
            (Seat(seat), Card.parse(card)) for seat, card in journal.on_table(self.game_id)
        }

    def _start(self, rules: Rules, dealer: Seat) -> tuple[int, GameState]:
        start = GameStarted(dealer=dealer, rules=rules)
        return self.journal.start_game(start), GameState(start)

    # ---- inputs ------------------------------------------------------------------------

    def on_input(self, pressed: inputs.PlayerInput) -> list[Notice]:
        """Handle one button press (or a touch on the screen)."""
        if (
            self.seat_confirms
            and isinstance(pressed, inputs.BidPressed | inputs.TrumpPressed)
            and pressed.seat is None
        ):
            self.proposal = pressed
            if isinstance(pressed, inputs.BidPressed):
                what = f"bid {pressed.bid}"
            else:
                what = f"name trump {Suit(pressed.suit).symbol}"
            return [Notice(NoticeKind.HELD, f"to {what}, press OK on your own pad")]
        if isinstance(pressed, inputs.ConfirmPressed) and pressed.seat and self.proposal:
            proposal, self.proposal = self.proposal, None
            return self.on_input(replace(proposal, seat=pressed.seat))
        match pressed:
            case inputs.BidPressed(seat, bid):
                return self._submit(BidMade(self._seat(seat), Bid.parse(bid)))
            case inputs.PassPressed(seat):
                return self._submit(BidMade(self._seat(seat), Bid.parse("pass")))
            case inputs.TrumpPressed(seat, suit):
                return self._submit(TrumpNamed(self._seat(seat), Suit(suit)))
            case inputs.ConfirmPressed(seat):
                return self._confirm()
            case inputs.UndoPressed():
                self.held.clear()
                self.problems.clear()
                return self._submit(Undone())
            case inputs.NewGameConfirmed():
                return self.new_game()
            case inputs.AceNoFaceClaimed(seat):
                if seat is None:
                    return [
                        Notice(
                            NoticeKind.REFUSED, "Ace No Face: press it on the claimant's own pad"
                        )
                    ]
                return self._submit(AceNoFaceClaimed(Seat(seat)))
        return [Notice(NoticeKind.REFUSED, f"unknown input {pressed!r}")]

    def on_card(self, seat: Seat, card: Card | None) -> list[Notice]:
        """A card the camera saw come to rest in `seat`'s zone; None when unreadable."""
        if card is None:
            self.problems.unreadable.add(seat)
            return [
                Notice(
                    NoticeKind.UNREADABLE_CARD,
                    f"{seat}: card unreadable, place it flat in your zone",
                    seat,
                )
            ]
        self.problems.unreadable.discard(seat)
        hand = self.state.hand
        if (seat, card) in self.on_table and (seat, card) in self._trick_on_table():
            return []  # the same card seen again where it lies, e.g. after a restart
        if hand.played[card] >= self.rules_in_force.copies:
            self.problems.already_played[seat] = card
            return [
                Notice(
                    NoticeKind.ALREADY_PLAYED,
                    f"{card} was already played this hand: not recorded",
                    seat,
                    card,
                )
            ]
        contract = hand.contract
        if contract is not None and seat is contract.sitting_out:
            self.problems.out_of_turn[seat] = card
            return [Notice(NoticeKind.OUT_OF_TURN, f"{seat} sits out this hand", seat, card)]
        if self.state.phase is Phase.PLAY and self.state.turn is seat:
            return self._submit(CardPlayed(seat, card))
        replaced = self.held.get(seat)
        self.held[seat] = card
        self._held_hand = hand.number
        message = f"{seat}'s {card} waits for {seat}'s turn"
        if replaced is not None:
            message += f" (instead of {replaced})"
        return [Notice(NoticeKind.HELD, message, seat, card)]

    def on_card_removed(self, seat: Seat, card: Card | None) -> list[Notice]:
        """A card left `seat`'s zone: gathered with its trick, or a held card taken back."""
        if card is not None and (seat, card) in self.on_table:
            self.on_table.discard((seat, card))
            self.journal.set_on_table(self.game_id, self._on_table_codes())
        if card is not None and self.held.get(seat) == card:
            del self.held[seat]
        if card is not None and self.problems.already_played.get(seat) == card:
            del self.problems.already_played[seat]
        if card is None:
            self.problems.unreadable.discard(seat)
        return []

    def new_game(self) -> list[Notice]:
        """Close the current game in the journal and start a fresh one, the deal passing on."""
        dealer = self.state.dealer
        self.game_id, self.state = self._start(self.rules, dealer)
        self.on_table.clear()
        self.held.clear()
        self.problems.clear()
        return [Notice(NoticeKind.NEW_GAME, f"new game, {dealer} deals")]

    def _on_table_codes(self) -> list[tuple[str, str]]:
        return [(seat.value, card.code) for seat, card in self.on_table]

    def _trick_on_table(self) -> set[tuple[Seat, Card]]:
        """The plays of the trick lying on the table: the one in progress, else the last one
        completed (across a hand's end) until the next lead."""
        state = self.state
        hand = state.hand if state.hand.tricks else (state.completed or [state.hand])[-1]
        return set(hand.tricks[-1].cards) if hand.tricks else set()

    @property
    def rules_in_force(self) -> Rules:
        """The rules of the game being played (a resumed game keeps its own)."""
        return self.state.rules

    # ---- internals ---------------------------------------------------------------------

    def _seat(self, seat: str | None) -> Seat:
        """The seat that pressed, or the seat whose turn it is for a shared panel."""
        if seat is not None:
            return Seat(seat)
        return self.state.turn or Seat.N

    def _confirm(self) -> list[Notice]:
        phase, turn = self.state.phase, self.state.turn
        if self.problems:
            self.problems.clear()
            return [Notice(NoticeKind.ACCEPTED, "problems dismissed")]
        if phase is Phase.EXCHANGE and turn is not None:
            return self._submit(ExchangeDone(turn))
        if phase is Phase.DISCARD and turn is not None:
            return self._submit(DealerDiscarded(turn))
        return [Notice(NoticeKind.REFUSED, "nothing to confirm")]

    def _submit(self, event: Event) -> list[Notice]:
        """Apply, journal, then report; held cards whose turn came are played after."""
        notices = self._apply(event)
        if notices and notices[0].kind is NoticeKind.REFUSED:
            return notices
        if isinstance(event, BidMade) and event.bid.kind.value == "moon":
            notices.extend(self._forced_passes())
        notices.extend(self._play_held())
        return notices

    def _apply(self, event: Event) -> list[Notice]:
        try:
            self.state.apply(event)
        except InvalidEvent as error:
            return [Notice(NoticeKind.REFUSED, error.reason)]
        if isinstance(event, CardPlayed):
            self.on_table.add((event.seat, event.card))
        self.on_table &= self._trick_on_table()
        try:
            self.journal.append(self.game_id, event, self.state, self._on_table_codes())
        except Exception:
            self.state = replay(self.journal.events(self.game_id))
            self.on_table &= self._trick_on_table()
            raise
        notices = [
            Notice(
                NoticeKind.ACCEPTED,
                describe(event),
                _seat_of(event),
                event.card if isinstance(event, CardPlayed) else None,
            )
        ]
        if isinstance(event, CardPlayed):
            self.problems.clear(event.seat)
        notices.extend(
            Notice(NoticeKind.RENEGE, f"renege by {r.seat}", r.seat, r.card, r)
            for r in self.state.newly_proven
        )
        return notices

    def _forced_passes(self) -> list[Notice]:
        """After a moon the others can only pass: the table records it for them."""
        notices: list[Notice] = []
        while self.state.phase is Phase.BIDDING and self.state.turn is not None:
            notices.extend(self._apply(BidMade(self.state.turn, Bid.parse("pass"))))
        return notices

    def _play_held(self) -> list[Notice]:
        if self.held and self.state.hand.number != self._held_hand:
            self.held.clear()  # a card held over from a finished hand means nothing now
        notices: list[Notice] = []
        while self.state.phase is Phase.PLAY and self.state.turn in self.held:
            seat = self.state.turn
            assert seat is not None
            card = self.held.pop(seat)
            result = self._apply(CardPlayed(seat, card))
            if result and result[0].kind is NoticeKind.REFUSED:
                self.problems.out_of_turn[seat] = card
                result = [Notice(NoticeKind.OUT_OF_TURN, result[0].message, seat, card)]
            notices.extend(result)
        return notices


def _seat_of(event: Event) -> Seat | None:
    return getattr(event, "seat", None)


def describe(event: Event) -> str:
    """A short line for an accepted event."""
    match event:
        case BidMade(seat, bid):
            return f"{seat} passes" if bid.is_pass else f"{seat} bids {bid}"
        case TrumpNamed(seat, suit):
            return f"{seat} names trump {suit.symbol}"
        case ExchangeDone(seat):
            return f"{seat}: exchange done"
        case DealerDiscarded(seat):
            return f"{seat} discarded"
        case AceNoFaceClaimed(seat):
            return f"{seat} claims Ace No Face"
        case CardPlayed(seat, card):
            return f"{seat} plays {card}"
        case Undone():
            return "undone"
    return type(event).__name__
