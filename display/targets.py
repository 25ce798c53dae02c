"""What a tap on the screen means: typed touch targets, and the item the display loop hands out.

`display.touch.hit_test(view, size, pos)` gives one of the `TouchTarget` types for a tap, or
None. The display loop puts a `Touched(target, source)` on its output queue for every tap on a
target, except the OK and UNDO buttons, which still arrive as `ButtonPressed` (display.loop).
"""

from __future__ import annotations

from dataclasses import dataclass

from display.cards import check_card, check_seat
from display.errors import ViewError

BUTTONS = ("ok", "cancel", "confirm", "misread", "correct", "no")
"""The buttons of the prompts (`PromptButton.name`)."""

SCREEN_BUTTONS = ("ok", "undo")
"""The OK and UNDO buttons of the game screen (`ScreenButton.name`)."""


@dataclass(frozen=True)
class PickCard:
    """A card of a pick grid: the card lying there (or recorded) is `card`."""

    card: str

    def __post_init__(self) -> None:
        check_card(self.card)


@dataclass(frozen=True)
class PromptButton:
    """A prompt's button: ok, cancel, confirm, misread, correct (CORRECT IT) or no."""

    name: str

    def __post_init__(self) -> None:
        if self.name not in BUTTONS:
            raise ViewError(f"prompt button {self.name!r} is not one of {', '.join(BUTTONS)}")


@dataclass(frozen=True)
class PlayedCell:
    """A recorded card in the played picker: `seat`'s card in `trick` of `hand`."""

    hand: int
    trick: int
    seat: str

    def __post_init__(self) -> None:
        check_seat(self.seat)


@dataclass(frozen=True)
class ShowHand:
    """The played picker's button to show the cards of `hand` instead."""

    hand: int


@dataclass(frozen=True)
class OpenCorrection:
    """The game screen's CORRECT button: open the played picker."""


@dataclass(frozen=True)
class AskCard:
    """A tap on `seat`'s card place during play: that seat asks to name its card by hand."""

    seat: str

    def __post_init__(self) -> None:
        check_seat(self.seat)


@dataclass(frozen=True)
class ScreenButton:
    """The game screen's OK or UNDO button (the loop reports it as a `ButtonPressed`)."""

    name: str

    def __post_init__(self) -> None:
        if self.name not in SCREEN_BUTTONS:
            raise ViewError(f"screen button {self.name!r} is not ok or undo")


TouchTarget = (
    PickCard | PromptButton | PlayedCell | ShowHand | OpenCorrection | AskCard | ScreenButton
)


@dataclass(frozen=True)
class Touched:
    """A tap on a touch target, as the display loop hands it out; `source` "touch" or "mouse"."""

    target: TouchTarget
    source: str
