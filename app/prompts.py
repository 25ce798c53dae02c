"""What the table asks the players when the camera cannot decide, and the answers they give."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from table import Card, Renege, Seat
from table.hand import Play


class PickReason(StrEnum):
    """Why the table asks for a card by name."""

    UNREADABLE = "unreadable"  # the camera sees a card it cannot read
    ASKED = "asked"  # a player asked (CARD), or a table without a camera
    DISPUTED = "disputed"  # the players say the camera's reading is wrong


@dataclass(frozen=True, slots=True)
class PickPrompt:
    """Name the card lying in `seat`'s zone."""

    seat: Seat
    reason: PickReason
    camera_read: Card | None = None  # what the camera read, for a disputed reading


@dataclass(frozen=True, slots=True)
class PlayedPrompt:
    """Choose the played card to correct, among the current or the last hand's tricks."""

    hand: int
    seat: Seat | None = None  # the seat already keyed on the panel, if any


@dataclass(frozen=True, slots=True)
class Pending:
    """A card waiting to be played once a correction has made room for it."""

    seat: Seat
    card: Card
    source: str
    camera_read: str | None


@dataclass(frozen=True, slots=True)
class CorrectionPrompt:
    """What was really played at `play`? Once `chosen`, the players confirm."""

    play: Play
    chosen: Card | None = None
    then: Pending | None = None  # the card refused as already played, played after
    refused: str | None = None  # why the engine refused the last card chosen


@dataclass(frozen=True, slots=True)
class SuspectPrompt:
    """`card` seen in `seat`'s zone was already recorded at `earlier`: a misread there?"""

    seat: Seat
    card: Card
    earlier: Play
    pending: Pending


@dataclass(frozen=True, slots=True)
class MisreadPrompt:
    """A renege was proven: accept it, or say the reneging card was misread."""

    renege: Renege
    hand: int


Prompt = PickPrompt | PlayedPrompt | CorrectionPrompt | SuspectPrompt | MisreadPrompt


class Answer(StrEnum):
    """The buttons of a prompt."""

    OK = "ok"
    CANCEL = "cancel"
    CONFIRM = "confirm"
    MISREAD = "misread"
    CORRECT = "correct"
    NO = "no"


@dataclass(frozen=True, slots=True)
class CardNamed:
    """A touch on a card of the pick: the card lying there (or the corrected card) is `card`."""

    card: str
    seat: Seat | None = None


@dataclass(frozen=True, slots=True)
class PromptAnswered:
    """A touch on one of the prompt's buttons."""

    answer: Answer


@dataclass(frozen=True, slots=True)
class PlayedChosen:
    """A touch on a played card: correct the card `seat` played in `trick` of `hand`."""

    hand: int
    trick: int
    seat: Seat


@dataclass(frozen=True, slots=True)
class CorrectionOpened:
    """A touch on "correct a card": show the played cards to choose from."""


@dataclass(frozen=True, slots=True)
class HandShown:
    """A touch on the played picker's HAND button: show the cards of `hand` instead."""

    hand: int


@dataclass(frozen=True, slots=True)
class NamingAsked:
    """A player asks to name the card in `seat`'s zone (None: the seat whose turn it is)."""

    seat: Seat | None = None


TouchInput = (
    CardNamed | PromptAnswered | PlayedChosen | CorrectionOpened | HandShown | NamingAsked
)
TOUCH_INPUTS = (CardNamed, PromptAnswered, PlayedChosen, CorrectionOpened, HandShown, NamingAsked)


@dataclass(frozen=True, slots=True)
class SeatCardNamed:
    """From the phone page, in one step: the card lying in `seat`'s zone is `card`."""

    seat: Seat
    card: Card


@dataclass(frozen=True, slots=True)
class PlayCorrected:
    """From the phone page, in one step: `seat`'s card in `trick` of `hand` was `card`."""

    hand: int
    trick: int
    seat: Seat
    card: Card


PageInput = SeatCardNamed | PlayCorrected
PAGE_INPUTS = (SeatCardNamed, PlayCorrected)
