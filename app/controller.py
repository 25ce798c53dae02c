"""The table's referee: turns button presses and card sightings into engine events."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import update_wrapper
from typing import Concatenate, ParamSpec, TypeVar

from app.correcting import Correcting
from app.entry import KeyEntry
from app.game_record import GameRecord
from app.intake import Intake
from app.journal import Journal
from app.notices import Notice, NoticeKind, Problems, describe
from app.picks import Picks
from app.presses import Presses
from app.prompts import PageInput, Prompt, TouchInput
from app.questions import Questions
from app.seen_cards import SeenCards
from drivers import inputs
from table import Card, Event, GameState, Hand, Rules, Seat

__all__ = ["Notice", "NoticeKind", "Problems", "TableController", "describe"]

UNREADABLE_PROMPT_S = 3.0

P = ParamSpec("P")
R = TypeVar("R")


def atomic(
    method: Callable[Concatenate[TableController, P], R],
) -> Callable[Concatenate[TableController, P], R]:
    """One input, all or nothing: its writes commit together, or the table is as it was."""

    def wrapper(self: TableController, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with self.all_or_nothing():
            return method(self, *args, **kwargs)

    update_wrapper(wrapper, method)
    return wrapper


class TableController:
    """Owns the game state and the journal; every accepted event is journaled first.

    The work is shared out: `record` (the journal's side), `questions` (what is asked and
    held), `intake` (events and placed cards), `correcting`, `picks`, `presses` and `seen`
    (the camera's sightings).
    """

    def __init__(
        self,
        journal: Journal,
        rules: Rules,
        dealer: Seat = Seat.N,
        seat_confirms: bool = False,
        *,
        clock: Callable[[], float] = time.monotonic,
        unreadable_prompt_s: float = UNREADABLE_PROMPT_S,
    ) -> None:
        """`seat_confirms`: shared value keys only propose; the seat's own OK decides who.

        A card the camera cannot read for `unreadable_prompt_s` (by `clock`) is asked for.
        """
        self.first_dealer = dealer
        self.record = GameRecord(journal, rules, dealer)
        self.questions = Questions()
        self.intake = Intake(self.record, self.questions)
        self.correcting = Correcting(self.record, self.questions, self.intake)
        self.picks = Picks(self.record, self.questions, self.intake, self.correcting)
        self.presses = Presses(self.record, self.questions, self.intake, self.picks,
                               self.correcting, seat_confirms)
        self.seen = SeenCards(self.record, self.questions, self.intake, clock,
                              unreadable_prompt_s)
        self._inside = False

    # ---- all or nothing ------------------------------------------------------------------

    @contextmanager
    def all_or_nothing(self) -> Iterator[None]:
        """Run one input in one journal transaction; if it fails, put everything back."""
        if self._inside:
            yield
            return
        mark, asked = self.record.mark(), self.questions.snapshot()
        self._inside = True
        try:
            with self.journal.atomic():
                yield
        except BaseException:
            self.record.put_back(mark)
            self.questions.restore(asked)
            raise
        finally:
            self._inside = False

    # ---- inputs ------------------------------------------------------------------------

    @atomic
    def on_input(self, pressed: inputs.PlayerInput | TouchInput | PageInput) -> list[Notice]:
        """Handle one button press, a touch on the screen, or a correction from the page."""
        return self.presses.press(pressed)

    @atomic
    def on_card(self, seat: Seat, card: Card | None, identified: bool = False) -> list[Notice]:
        """A card the camera saw come to rest in `seat`'s zone; None when unreadable.

        `identified`: the camera now reads a card it first reported unreadable, where it lies.
        A joker read where the deck has none is a misreading: the card counts as unreadable.
        """
        return self.seen.placed(seat, card, identified)

    @atomic
    def on_card_removed(self, seat: Seat, card: Card | None) -> list[Notice]:
        """A card left `seat`'s zone: gathered with its trick, or a held card taken back."""
        return self.seen.removed(seat, card)

    def tick(self) -> list[Notice]:
        """Let time pass: a card unreadable for long enough is asked for by name."""
        return self.seen.tick()

    @atomic
    def new_game(self) -> list[Notice]:
        """Close the current game in the journal and start a fresh one, the deal passing on."""
        return self.intake.new_game()

    # ---- what the rest of the table reads ----------------------------------------------

    @property
    def journal(self) -> Journal:
        """The journal every accepted event goes to first."""
        return self.record.journal

    @property
    def rules(self) -> Rules:
        """The rules a new game starts with."""
        return self.record.rules

    @property
    def rules_in_force(self) -> Rules:
        """The rules of the game being played (a resumed game keeps its own)."""
        return self.record.state.rules

    @property
    def game_id(self) -> int:
        """The journal's id of the game being played."""
        return self.record.game_id

    @property
    def events(self) -> list[Event]:
        """The game's journaled events, Undone included."""
        return self.record.events

    @property
    def state(self) -> GameState:
        """The game's state: its events folded by the engine."""
        return self.record.state

    @property
    def on_table(self) -> set[tuple[Seat, Card]]:
        """Played cards still lying on the table: seeing one again records nothing."""
        return self.record.on_table

    @property
    def seat_confirms(self) -> bool:
        """Whether shared value keys only propose, the seat's own OK deciding who."""
        return self.presses.seat_confirms

    @property
    def clock(self) -> Callable[[], float]:
        """The clock that times unreadable cards."""
        return self.seen.clock

    @property
    def unreadable_prompt_s(self) -> float:
        """How long a card stays unreadable before it is asked for by name."""
        return self.seen.unreadable_prompt_s

    @property
    def prompt(self) -> Prompt | None:
        """What the screen asks the players now, if anything."""
        return self.questions.prompt

    @property
    def prompts(self) -> list[Prompt]:
        """What the screen asks, the first on the screen now."""
        return self.questions.prompts

    @property
    def problems(self) -> Problems:
        """Problems standing until someone deals with them."""
        return self.questions.problems

    @property
    def held(self) -> dict[Seat, Card]:
        """Cards seen before their seat's turn, waiting for it."""
        return self.questions.held

    @property
    def entry(self) -> KeyEntry:
        """The keys pressed so far towards a card, a seat or a trick."""
        return self.questions.entry

    @property
    def proposal(self) -> inputs.BidPressed | inputs.TrumpPressed | None:
        """A bid or trump from a shared key, waiting for a seat's own OK."""
        return self.questions.proposal

    def correctable_hands(self) -> list[int]:
        """The hands whose cards the players may correct: the current and the last."""
        return self.correcting.correctable_hands()

    def hand(self, number: int) -> Hand | None:
        """Hand `number` of the game, if it has been reached."""
        return self.record.hand(number)
