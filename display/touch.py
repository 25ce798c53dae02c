"""What a tap on the screen means: `hit_test(view, size, pos) -> TouchTarget | None`.

`hit_test` is pure: the same view, screen size and position give the same target, computed
from the geometry the renderer draws with (`display.layout`, `display.prompt_layout`).

With a prompt on the view (`view.prompt`) only the prompt's own targets answer:

- `CardPick`: `PickCard(card)` on each card of the grid (and the joker), `PromptButton("cancel")`.
- `CorrectionPick`: the same, plus `PromptButton("confirm")` once `chosen` is set.
- `PlayedPicker`: `PlayedCell(hand, trick, seat)` on each recorded card, `ShowHand(other_hand)`
  when there is another hand to show, `PromptButton("cancel")`.
- `SuspectPrompt`: `PromptButton("correct")` (CORRECT IT) and `PromptButton("no")`.
- `MisreadQuestion`: `PromptButton("ok")` and `PromptButton("misread")` (MISREAD?).

Without a prompt: `ScreenButton("ok")`, `ScreenButton("undo")`, `OpenCorrection()` (the CORRECT
button, always shown); `AskCard(seat)` on the band of an "unreadable card" problem, and during
play, with no alarm or problem over the drawn table, on a seat's card place. Anywhere else gives
None.

The display loop (`display.loop.DisplayLoop`) turns mouse clicks and finger taps into these
and puts them on its output queue: OK and UNDO as `ButtonPressed(Action, source)` as before,
every other target as `Touched(target, source)`, `source` being "mouse" or "touch".
"""

from __future__ import annotations

from display.cards import SEATS
from display.layout import layout_for
from display.prompt_layout import prompt_geometry
from display.targets import (
    AskCard,
    OpenCorrection,
    PickCard,
    PlayedCell,
    PromptButton,
    ScreenButton,
    ShowHand,
    Touched,
    TouchTarget,
)
from display.view import Phase, ProblemKind, View

__all__ = [
    "AskCard",
    "OpenCorrection",
    "PickCard",
    "PlayedCell",
    "PromptButton",
    "ScreenButton",
    "ShowHand",
    "TouchTarget",
    "Touched",
    "hit_test",
]


def hit_test(view: View, size: tuple[int, int], pos: tuple[int, int]) -> TouchTarget | None:
    """The target under `pos` on a `size` screen showing `view`, or None."""
    layout = layout_for(*size)
    if view.prompt is not None:
        spot = prompt_geometry(view.prompt, layout).spot_at(pos)
        return spot.target if spot else None
    for rect, target in ((layout.ok_button, ScreenButton("ok")),
                         (layout.undo_button, ScreenButton("undo")),
                         (layout.correct_button, OpenCorrection())):
        if rect.collidepoint(pos):
            return target
    if view.alarm is not None:
        return None
    if view.problems:
        bands = layout.problem_bands(len(view.problems))
        for band, problem in zip(bands, view.problems, strict=True):
            seat = problem.seat if problem.kind is ProblemKind.UNREADABLE_CARD else None
            if seat is not None and band.collidepoint(pos):
                return AskCard(seat)
        return None
    if view.phase is Phase.PLAY:
        sitting_out = view.contract.sitting_out if view.contract else None
        for seat in SEATS:
            if seat != sitting_out and layout.seats[seat].card.collidepoint(pos):
                return AskCard(seat)
    return None
