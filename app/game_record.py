"""The journal's side of the table: the game's events, its state, the cards lying on the table."""

from __future__ import annotations

from dataclasses import dataclass

from app.journal import Journal, Provenance
from table import (
    Card,
    CardCorrected,
    CardPlayed,
    Event,
    GameStarted,
    GameState,
    Hand,
    Phase,
    Renege,
    Rules,
    Seat,
    replay,
)
from table.hand import Play

CAMERA = "camera"  # a card read by the camera
PERSON = "person"  # a card named by a person


@dataclass(frozen=True, slots=True)
class Mark:
    """The record as it was before an input, to put back if the input fails."""

    game_id: int
    events: list[Event]
    on_table: set[tuple[Seat, Card]]


class GameRecord:
    """The game the journal holds: every event applied here is journaled with it."""

    def __init__(self, journal: Journal, rules: Rules, dealer: Seat) -> None:
        """Resume the journal's latest game, or start one with `rules`, `dealer` dealing."""
        self.journal = journal
        self.rules = rules
        self.events: list[Event] = []  # the game's journaled events, Undone included
        game_id = journal.latest_game()
        if game_id is None:
            self.start(dealer)
        else:
            self.game_id = game_id
            self.events = journal.events(game_id)
            self.state = replay(self.events)
        # Played cards still lying on the table: seeing one again records nothing.
        self.on_table: set[tuple[Seat, Card]] = {
            (Seat(seat), Card.parse(card)) for seat, card in journal.on_table(self.game_id)
        }

    def start(self, dealer: Seat) -> None:
        """Start a fresh game in the journal, `dealer` dealing; no card lies on the table."""
        start = GameStarted(dealer=dealer, rules=self.rules)
        self.game_id = self.journal.start_game(start)
        self.events = [start]
        self.state = GameState(start)
        self.on_table = set()

    def apply(self, event: Event, provenance: Provenance | None = None) -> None:
        """Apply `event` to the state, then journal it; InvalidEvent if the engine refuses."""
        was = None
        if isinstance(event, CardCorrected):
            was = self.played_card(event.hand, event.trick, event.seat)
        self.state.apply(event)
        if isinstance(event, CardPlayed):
            self.on_table.add((event.seat, event.card))
        if isinstance(event, CardCorrected) and (event.seat, was) in self.on_table:
            self.on_table.discard((event.seat, was))
            self.on_table.add((event.seat, event.card))
        self.on_table &= self.trick_on_table()
        self.events.append(event)
        self.journal.append(self.game_id, event, self.state, self.on_table_codes(), provenance)

    def taken_away(self, seat: Seat, card: Card) -> None:
        """`seat`'s `card` left the table (gathered with its trick)."""
        if (seat, card) in self.on_table:
            self.on_table.discard((seat, card))
            self.journal.set_on_table(self.game_id, self.on_table_codes())

    def on_table_codes(self) -> list[tuple[str, str]]:
        """The cards lying on the table as the journal keeps them."""
        return [(seat.value, card.code) for seat, card in self.on_table]

    def trick_on_table(self) -> set[tuple[Seat, Card]]:
        """The plays of the trick lying on the table: the one in progress, else the last one
        completed (across a hand's end) until the next lead."""
        state = self.state
        hand = state.hand if state.hand.tricks else (state.completed or [state.hand])[-1]
        return set(hand.tricks[-1].cards) if hand.tricks else set()

    def turn_to_play(self) -> Seat | None:
        """The seat whose turn it is to play a card, if cards are being played."""
        return self.state.turn if self.state.phase is Phase.PLAY else None

    def hand(self, number: int) -> Hand | None:
        """Hand `number` of the game, if it has been reached."""
        for hand in [*self.state.completed, self.state.hand]:
            if hand.number == number:
                return hand
        return None

    def played_card(self, number: int, trick: int, seat: Seat) -> Card | None:
        """The card recorded for `seat` in `trick` of hand `number`, if any."""
        hand = self.hand(number)
        if hand is None or not 1 <= trick <= len(hand.tricks):
            return None
        return hand.tricks[trick - 1].card_of(seat)

    def correctable(self) -> list[Hand]:
        """The hands whose cards the players may correct: the current and the last."""
        return [hand for hand in self.state.hands if hand.tricks][-2:]

    def hand_of(self, renege: Renege) -> int:
        """The number of the hand a just-proven renege belongs to."""
        hand = self.state.hand
        if renege in hand.reneges or not self.state.completed:
            return hand.number
        return self.state.completed[-1].number

    def camera_reading(self, play: Play) -> str | None:
        """What the camera had read at `play`, if the card recorded there is its reading."""
        for record in reversed(self.journal.card_records(self.game_id)):
            provenance = record.provenance
            if (
                provenance is not None
                and (provenance.hand, provenance.trick) == (play.hand, play.trick)
                and getattr(record.event, "seat", None) is play.seat
            ):
                return play.card.code if provenance.source == CAMERA else None
        return None

    def mark(self) -> Mark:
        """Where the record stands, to put back with `put_back`."""
        return Mark(self.game_id, list(self.events), set(self.on_table))

    def put_back(self, mark: Mark) -> None:
        """The record as it was at `mark` (the journal rolled back with it)."""
        changed = self.game_id != mark.game_id or len(self.events) != len(mark.events)
        self.game_id, self.events, self.on_table = mark.game_id, mark.events, mark.on_table
        if changed:
            self.state = replay(self.events)
