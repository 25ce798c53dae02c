"""Drawing of the prompts (card pick, correction, played picker, suspect, misread question)."""

from __future__ import annotations

import pygame

from display.cards import JOKER
from display.painter import Painter
from display.prompt_layout import PromptGeometry, Spot, prompt_geometry
from display.prompts import (
    CardPick,
    CorrectionPick,
    MisreadQuestion,
    PlayedPicker,
    Prompt,
    SuspectPrompt,
)
from display.style import Colour
from display.targets import PickCard, PlayedCell, PromptButton, ShowHand, TouchTarget
from display.text import Align
from display.view import View
from display.wording import (
    BUTTON_TEXT,
    PICK_ADVICE,
    card_text,
    correction_detail,
    correction_title,
    misread_detail,
    pick_title,
    picker_detail,
    picker_title,
    renege_headline,
    suspect_detail,
    suspect_title,
)


def draw_prompt(painter: Painter, view: View, prompt: Prompt, *, flash: bool,
                touched: TouchTarget | None) -> None:
    """Draw `prompt` over the screen; `flash` picks the bright red of a misread question."""
    geometry = prompt_geometry(prompt, painter.layout)
    style = painter.style
    if isinstance(prompt, MisreadQuestion):
        fill, ink = (style.alarm if flash else style.alarm_dim), style.on_alarm
    elif isinstance(prompt, SuspectPrompt):
        fill, ink = style.problem, style.on_problem
    else:
        fill, ink = style.panel, style.ink
    painter.box(geometry.panel, fill)
    painter.box(geometry.panel, ink, max(2, painter.layout.gap // 2))
    title, detail = prompt_text(prompt, view)
    title_band, detail_band = geometry.bands
    size = painter.text(title, title_band, ink, suits=fill is style.panel, wrap=False).size
    painter.text(detail, detail_band, ink if fill is not style.panel else style.ink_soft,
                 suits=fill is style.panel, largest=round(size * 0.8))
    draw_labels(painter, geometry)
    for spot in geometry.spots:
        draw_spot(painter, prompt, spot, pressed=spot.target == touched)


def prompt_text(prompt: Prompt, view: View) -> tuple[str, str]:
    """The prompt's title and detail lines."""
    names = view.names
    if isinstance(prompt, CardPick):
        return pick_title(prompt, names), PICK_ADVICE[prompt.reason]
    if isinstance(prompt, CorrectionPick):
        return correction_title(prompt, names), correction_detail(prompt)
    if isinstance(prompt, PlayedPicker):
        return picker_title(prompt), picker_detail(prompt)
    if isinstance(prompt, SuspectPrompt):
        return (suspect_title(prompt, names),
                suspect_detail(prompt, names, view.hand_number))
    return renege_headline(prompt.renege, names), misread_detail(prompt, view.renege_penalty)


def draw_labels(painter: Painter, geometry: PromptGeometry) -> None:
    """The played picker's seat headings and trick numbers, at one size."""
    if not geometry.labels:
        return
    texts = [text for _, text in geometry.labels]
    boxes = [rect for rect, _ in geometry.labels]
    size = painter.common_size(texts, boxes, wrap=False)
    for rect, text in geometry.labels:
        painter.text(text, rect, painter.style.ink_soft, largest=size, wrap=False)


def draw_spot(painter: Painter, prompt: Prompt, spot: Spot, *, pressed: bool) -> None:
    """One touch target: a card of the grid, a recorded card, or a button."""
    target = spot.target
    if isinstance(target, PickCard):
        chosen = isinstance(prompt, CorrectionPick) and prompt.chosen == target.card
        was = isinstance(prompt, CorrectionPick) and prompt.was == target.card
        draw_card_cell(painter, spot.rect, target.card, pressed=pressed, chosen=chosen, dim=was)
    elif isinstance(target, PlayedCell) and isinstance(prompt, PlayedPicker):
        card = prompt.card_at(target.trick, target.seat)
        won = next((t.winner == target.seat for t in prompt.tricks if t.number == target.trick),
                   False)
        if card is not None:
            draw_card_cell(painter, spot.rect, card, pressed=pressed, won=won)
    elif isinstance(target, PromptButton):
        draw_button(painter, spot.rect, BUTTON_TEXT[target.name], button_colours(painter, target),
                    pressed=pressed)
    elif isinstance(target, ShowHand):
        colours = (painter.style.bidding_team, painter.style.ink)
        draw_button(painter, spot.rect, f"HAND {target.hand}", colours, pressed=pressed)


def button_colours(painter: Painter, button: PromptButton) -> tuple[Colour, Colour]:
    """Fill and ink of a prompt button: the way forward in blue, the way back in grey."""
    style = painter.style
    if button.name in ("ok", "confirm", "correct"):
        return style.button_ok, style.on_button
    if button.name == "misread":
        return style.highlight, style.ink
    return style.button_undo, style.on_button


def draw_button(painter: Painter, rect: pygame.Rect, text: str, colours: tuple[Colour, Colour],
                *, pressed: bool) -> None:
    """A button with its label as large as fits on one line."""
    fill, ink = colours
    if pressed:
        fill, ink = painter.style.button_pressed, painter.style.ink
    painter.box(rect, fill)
    gap = painter.layout.gap
    painter.text(text, rect.inflate(-2 * gap, -2 * gap), ink, wrap=False,
                 largest=round(rect.height * 0.45), suits=False)


def draw_card_cell(painter: Painter, rect: pygame.Rect, card: str, *, pressed: bool,
                   chosen: bool = False, dim: bool = False, won: bool = False) -> None:
    """A card to tap on a white tile: `chosen` on yellow, `dim` greyed, `won` framed."""
    style = painter.style
    edge = max(2, painter.layout.gap // 2)
    fill = (style.button_pressed if pressed else style.highlight if chosen
            else style.panel_dim if dim else style.card)
    painter.box(rect, fill)
    frame = style.winner if won else style.ink if chosen else style.card_edge
    painter.box(rect, frame, edge * 2 if won or chosen else max(1, edge // 2))
    inner = rect.inflate(-2 * edge - painter.layout.gap, -2 * edge)
    largest = round(rect.height * 0.55)
    if card == JOKER:
        top, bottom = painter.split(inner.inflate(-painter.layout.gap, 0), 0.5)
        size = min(largest, round(rect.height * 0.22))
        painter.text("JOKER", top, style.ink, wrap=False, largest=size)
        painter.text("★", bottom, style.ink, wrap=False, largest=size * 2)
        return
    painter.text(card_text(card), inner, style.suit_colour(card[1]), wrap=False, largest=largest,
                 align=Align.CENTER)
