"""Questions the screen puts to the players, as plain frozen values in the table log's notation.

A `View` carries at most one of these in its `prompt` field; while it is set the screen shows it
over the game (the scores stay visible) and taps answer it (see `display.touch`).

- `CardPick(seat, reason, choices)`: name the card lying in `seat`'s zone; one tap on the grid
  (`PickCard`) names it, or CANCEL.
- `CorrectionPick(hand, trick, seat, was, choices, chosen)`: put right a card already recorded;
  a tap on the grid (`PickCard`) chooses, then CONFIRM (shown once `chosen` is set) or CANCEL.
- `PlayedPicker(hand, tricks, other_hand)`: the cards recorded in `hand`, trick by trick; a tap
  on one (`PlayedCell`) picks it for correction; a HAND button (`ShowHand`) switches to
  `other_hand` (the current or the last hand), or CANCEL.
- `SuspectPrompt(card, now_seat, earlier_hand, earlier_trick, earlier_seat)`: a card seen again
  points at an earlier misread; CORRECT IT or NO.
- `MisreadQuestion(seat, trick, led, card, proved_by_trick, proved_by_card)`: the evidence of a
  renege with OK and MISREAD?.
"""

from __future__ import annotations

from dataclasses import dataclass

from display.cards import JOKER, RANKS, Renege, Trick, check_card, check_seat, check_suit
from display.errors import ViewError

PICK_SUITS = ("S", "H", "C", "D")
"""The grid's rows, top to bottom: black and red alternate so neighbouring rows read apart."""

PICK_REASONS = ("unreadable", "asked", "correct")


def card_choices(joker: bool = False) -> tuple[str, ...]:
    """The 24 cards in grid order (row by row: ♠ ♥ ♣ ♦, 9 to A), then "JK" when `joker`."""
    cards = tuple(rank + suit for suit in PICK_SUITS for rank in RANKS)
    return (*cards, JOKER) if joker else cards


def check_choices(choices: tuple[str, ...]) -> tuple[str, ...]:
    """Return `choices` if they are distinct card codes and not empty; raise ViewError."""
    if not choices:
        raise ViewError("a card pick needs at least one card to choose from")
    for card in choices:
        check_card(card)
    if len(set(choices)) != len(choices):
        raise ViewError(f"a card pick lists a card twice: {choices!r}")
    return choices


def check_number(what: str, number: int) -> int:
    """Return `number` if it is a whole number from 1; raise ViewError naming `what`."""
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise ViewError(f"{what} {number!r} is not a number from 1")
    return number


@dataclass(frozen=True)
class CardPick:
    """Name the card lying in `seat`'s zone; `reason` is "unreadable", "asked" or "correct"."""

    seat: str
    reason: str = "unreadable"
    choices: tuple[str, ...] = card_choices()

    def __post_init__(self) -> None:
        check_seat(self.seat)
        if self.reason not in PICK_REASONS:
            raise ViewError(f"pick reason {self.reason!r} is not one of {', '.join(PICK_REASONS)}")
        check_choices(self.choices)


@dataclass(frozen=True)
class CorrectionPick:
    """Correct the card recorded for `seat` in `hand`, `trick` (it was `was`); `chosen` so far."""

    hand: int
    trick: int
    seat: str
    was: str
    choices: tuple[str, ...] = card_choices()
    chosen: str | None = None
    refused: str | None = None
    """Why the table refused the card chosen last (shown until another card is chosen)."""

    def __post_init__(self) -> None:
        check_number("hand", self.hand)
        check_number("trick", self.trick)
        check_seat(self.seat)
        check_card(self.was)
        check_choices(self.choices)
        if self.chosen is not None and check_card(self.chosen) not in self.choices:
            raise ViewError(f"chosen card {self.chosen!r} is not among the choices")


@dataclass(frozen=True)
class PlayedPicker:
    """The cards recorded in `hand`, trick by trick, to touch one and correct it.

    `tricks` are the hand's tricks in order (`Trick.number` from 1); `other_hand` is the number
    of the other hand that may be shown instead (the current or the last one), or None.
    """

    hand: int
    tricks: tuple[Trick, ...] = ()
    other_hand: int | None = None

    def __post_init__(self) -> None:
        check_number("hand", self.hand)
        if self.other_hand is not None:
            check_number("other hand", self.other_hand)
        for trick in self.tricks:
            check_number("trick", trick.number)
        numbers = [trick.number for trick in self.tricks]
        if len(set(numbers)) != len(numbers):
            raise ViewError(f"a trick appears twice in the played picker: {numbers!r}")

    def card_at(self, trick: int, seat: str) -> str | None:
        """The card `seat` played to trick number `trick`, if any."""
        found = next((each for each in self.tricks if each.number == trick), None)
        return found.card_of(seat) if found else None


@dataclass(frozen=True)
class SuspectPrompt:
    """`card`, just seen at `now_seat`, was already recorded for `earlier_seat`: misread there?"""

    card: str
    now_seat: str
    earlier_hand: int
    earlier_trick: int
    earlier_seat: str

    def __post_init__(self) -> None:
        check_card(self.card)
        check_seat(self.now_seat)
        check_number("hand", self.earlier_hand)
        check_number("trick", self.earlier_trick)
        check_seat(self.earlier_seat)


@dataclass(frozen=True)
class MisreadQuestion:
    """A renege's evidence, asking OK or MISREAD?: `seat` did not follow `led` in `trick`."""

    seat: str
    trick: int
    led: str
    card: str
    proved_by_trick: int
    proved_by_card: str

    def __post_init__(self) -> None:
        check_seat(self.seat)
        check_number("trick", self.trick)
        check_suit(self.led)
        check_card(self.card)
        check_number("trick", self.proved_by_trick)
        check_card(self.proved_by_card)

    @classmethod
    def of(cls, renege: Renege) -> MisreadQuestion:
        """The question about `renege`."""
        return cls(renege.seat, renege.trick, renege.led, renege.card, renege.proved_by_trick,
                   renege.proved_by_card)

    @property
    def renege(self) -> Renege:
        """The renege asked about."""
        return Renege(self.seat, self.trick, self.led, self.card, self.proved_by_trick,
                      self.proved_by_card)


Prompt = CardPick | CorrectionPick | PlayedPicker | SuspectPrompt | MisreadQuestion
PROMPT_TYPES = (CardPick, CorrectionPick, PlayedPicker, SuspectPrompt, MisreadQuestion)
