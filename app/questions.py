"""What the table asks and holds between inputs: prompts, problems, held cards, keyed entry."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field, fields

from app.entry import KeyEntry
from app.notices import Problems
from app.prompts import Pending, Prompt
from drivers import inputs
from table import Card, Seat


@dataclass(slots=True)
class Questions:
    """The table's open questions; an input that fails puts them all back as they were."""

    proposal: inputs.BidPressed | inputs.TrumpPressed | None = None  # waits for a seat's OK
    held: dict[Seat, Card] = field(default_factory=dict)  # cards waiting for their turn
    held_from: dict[Seat, Pending] = field(default_factory=dict)  # who named each held card
    held_hand: int = 0  # the hand the held cards were seen in
    problems: Problems = field(default_factory=Problems)
    prompts: list[Prompt] = field(default_factory=list)  # the first is on the screen
    entry: KeyEntry = field(default_factory=KeyEntry)
    entry_seat: Seat | None = None  # the seat a card is being keyed for
    named: set[Seat] = field(default_factory=set)  # unreadable cards named where they lie

    @property
    def prompt(self) -> Prompt | None:
        """What the screen asks the players now, if anything."""
        return self.prompts[0] if self.prompts else None

    def ask(self, prompt: Prompt) -> None:
        """Put `prompt` on the screen, before whatever was asked already."""
        self.prompts.insert(0, prompt)

    def close(self, which: Callable[[Prompt], bool]) -> None:
        """Take the prompts `which` picks off the screen."""
        self.prompts = [prompt for prompt in self.prompts if not which(prompt)]

    def hold(self, named: Pending, hand: int) -> Card | None:
        """Keep `named` until its seat's turn in `hand`; the card it replaces, if any."""
        replaced = self.held.get(named.seat)
        self.held[named.seat] = named.card
        self.held_from[named.seat] = named
        self.held_hand = hand
        return replaced

    def let_go(self, seat: Seat) -> None:
        """Forget the card held for `seat`."""
        self.held.pop(seat, None)
        self.held_from.pop(seat, None)

    def forget(self) -> None:
        """Drop every held card, problem, prompt and keyed entry (a new game, an undo)."""
        self.held.clear()
        self.held_from.clear()
        self.problems.clear()
        self.prompts.clear()
        self.entry.clear()
        self.named.clear()

    def snapshot(self) -> Questions:
        """A deep copy to put back with `restore`."""
        return copy.deepcopy(self)

    def restore(self, before: Questions) -> None:
        """Everything as it was in `before`, in place."""
        for each in fields(self):
            setattr(self, each.name, getattr(before, each.name))
