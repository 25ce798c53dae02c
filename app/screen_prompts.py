"""The referee's questions as the display draws them, and taps on the screen as answers."""

from __future__ import annotations

from typing import Any

from app.controller import TableController
from app.prompts import (
    Answer,
    CardNamed,
    CorrectionOpened,
    CorrectionPrompt,
    HandShown,
    MisreadPrompt,
    NamingAsked,
    PickPrompt,
    PickReason,
    PlayedChosen,
    PlayedPrompt,
    PromptAnswered,
    SuspectPrompt,
    TouchInput,
)
from display import prompts as shown
from display import targets
from display.from_state import pick_choices, played_picker, renege_view
from table import Seat

PICK_REASONS = {
    PickReason.UNREADABLE: "unreadable",
    PickReason.ASKED: "asked",
    PickReason.DISPUTED: "correct",
}


def prompt_view(controller: TableController) -> shown.Prompt | None:
    """The question on the screen now, in the display's terms."""
    prompt = controller.prompt
    choices = pick_choices(controller.state)
    match prompt:
        case PickPrompt(seat, reason):
            return shown.CardPick(seat.value, PICK_REASONS[reason], choices)
        case CorrectionPrompt(play, chosen):
            return shown.CorrectionPick(
                play.hand,
                play.trick,
                play.seat.value,
                play.card.code,
                choices,
                chosen.code if chosen else None,
            )
        case PlayedPrompt(number):
            return played_picker(controller.state, number)
        case SuspectPrompt(seat, card, earlier):
            return shown.SuspectPrompt(
                card.code, seat.value, earlier.hand, earlier.trick, earlier.seat.value
            )
        case MisreadPrompt(renege):
            return shown.MisreadQuestion.of(renege_view(renege))
    return None


def touch_input(target: Any) -> TouchInput | None:
    """What a tap on a display touch target asks the referee (None: not the referee's)."""
    match target:
        case targets.PickCard(card):
            return CardNamed(card)
        case targets.PromptButton(name):
            return PromptAnswered(Answer(name))
        case targets.PlayedCell(hand, trick, seat):
            return PlayedChosen(hand, trick, Seat(seat))
        case targets.ShowHand(hand):
            return HandShown(hand)
        case targets.OpenCorrection():
            return CorrectionOpened()
        case targets.AskCard(seat):
            return NamingAsked(Seat(seat))
    return None
