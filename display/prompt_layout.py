"""Where each prompt and its touch targets go: the one geometry of renderer and `hit_test`."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from display.cards import JOKER, RANKS, SEATS
from display.layout import Layout
from display.prompts import (
    PICK_SUITS,
    CardPick,
    CorrectionPick,
    MisreadQuestion,
    PlayedPicker,
    Prompt,
    SuspectPrompt,
)
from display.targets import PickCard, PlayedCell, PromptButton, ShowHand, TouchTarget

TRICKS_PER_BLOCK = 6
MIN_PICKER_ROWS = 4


@dataclass(frozen=True)
class Spot:
    """A touchable rectangle and what a tap on it means."""

    rect: pygame.Rect
    target: TouchTarget


@dataclass(frozen=True)
class PromptGeometry:
    """A prompt's panel, its lines of text (title first) and its touch targets."""

    panel: pygame.Rect
    bands: tuple[pygame.Rect, ...]
    spots: tuple[Spot, ...]
    labels: tuple[tuple[pygame.Rect, str], ...] = ()

    def spot_at(self, pos: tuple[int, int]) -> Spot | None:
        """The touch target under `pos`, if any."""
        return next((spot for spot in self.spots if spot.rect.collidepoint(pos)), None)


def prompt_geometry(prompt: Prompt, layout: Layout) -> PromptGeometry:
    """The geometry of `prompt` on a screen laid out as `layout`."""
    if isinstance(prompt, CardPick | CorrectionPick):
        return pick_geometry(prompt, layout)
    if isinstance(prompt, PlayedPicker):
        return picker_geometry(prompt, layout)
    if isinstance(prompt, SuspectPrompt):
        return question_geometry(layout, layout.question_area, ("correct", "no"))
    return question_geometry(layout, layout.below_scores, ("ok", "misread"))


def header_and_body(layout: Layout, panel: pygame.Rect, share: float
                    ) -> tuple[tuple[pygame.Rect, pygame.Rect], pygame.Rect]:
    """The panel's two text lines (title, detail) over the rest, inside a margin."""
    gap = layout.gap
    inner = panel.inflate(-2 * gap, -2 * gap)
    header_h = round(inner.height * share)
    title_h = round(header_h * 0.55)
    title = pygame.Rect(inner.x, inner.y, inner.width, title_h)
    detail = pygame.Rect(inner.x, title.bottom, inner.width, header_h - title_h)
    body_y = detail.bottom + gap
    body = pygame.Rect(inner.x, body_y, inner.width, inner.bottom - body_y)
    return (title, detail), body


def grid_cells(area: pygame.Rect, columns: int, rows: int, gap: int) -> list[list[pygame.Rect]]:
    """`area` cut into `rows` x `columns` cells with `gap` between them, row by row."""
    cell_w = (area.width - (columns - 1) * gap) / columns
    cell_h = (area.height - (rows - 1) * gap) / rows
    return [[pygame.Rect(round(area.x + c * (cell_w + gap)), round(area.y + r * (cell_h + gap)),
                         round(cell_w), round(cell_h)) for c in range(columns)]
            for r in range(rows)]


def split_side(layout: Layout, body: pygame.Rect) -> tuple[pygame.Rect, pygame.Rect]:
    """The body cut into the card grid (left) and a column for the joker and buttons (right)."""
    side_w = round(body.width * 0.2)
    grid = pygame.Rect(body.x, body.y, body.width - side_w - layout.gap, body.height)
    side = pygame.Rect(grid.right + layout.gap, body.y, side_w, body.height)
    return grid, side


def pick_geometry(prompt: CardPick | CorrectionPick, layout: Layout) -> PromptGeometry:
    """Cards in a grid, a row per suit (♠ ♥ ♣ ♦) and a column per rank; joker and buttons apart."""
    panel = layout.below_scores
    bands, body = header_and_body(layout, panel, 0.2)
    grid, side = split_side(layout, body)
    cells = grid_cells(grid, len(RANKS), len(PICK_SUITS), layout.gap)
    spots = [Spot(cells[PICK_SUITS.index(card[1])][RANKS.index(card[0])], PickCard(card))
             for card in prompt.choices if card != JOKER]
    slots = grid_cells(side, 1, len(PICK_SUITS), layout.gap)
    if JOKER in prompt.choices:
        spots.append(Spot(slots[0][0].union(slots[1][0]), PickCard(JOKER)))
    if isinstance(prompt, CorrectionPick) and prompt.chosen is not None:
        spots.append(Spot(slots[2][0], PromptButton("confirm")))
    spots.append(Spot(slots[3][0], PromptButton("cancel")))
    return PromptGeometry(panel, bands, tuple(spots))


def picker_geometry(prompt: PlayedPicker, layout: Layout) -> PromptGeometry:
    """The hand's tricks as rows (two blocks side by side past six), a column per seat.

    The buttons sit at the right of the title so that the grid has the whole width.
    """
    panel = layout.below_scores
    (title, detail), grid = header_and_body(layout, panel, 0.17)
    gap = layout.gap
    button_w = round(grid.width * 0.17)
    buttons = pygame.Rect(title.right - 2 * button_w - gap, title.y, 2 * button_w + gap,
                          detail.bottom - title.y)
    text_w = buttons.left - gap - title.x
    bands = (pygame.Rect(title.x, title.y, text_w, title.height),
             pygame.Rect(detail.x, detail.y, text_w, detail.height))
    count = max(1, len(prompt.tricks))
    blocks = math.ceil(count / TRICKS_PER_BLOCK)
    rows = max(MIN_PICKER_ROWS, math.ceil(count / blocks))
    spots: list[Spot] = []
    labels: list[tuple[pygame.Rect, str]] = []
    row_gap = max(2, gap // 2)
    for block, area in enumerate(grid_cells(grid, blocks, 1, gap * 3)[0]):
        heading_h = round(area.height * 0.09)
        table = pygame.Rect(area.x, area.y + heading_h + row_gap, area.width,
                            area.height - heading_h - row_gap)
        number_w = round(area.width * 0.12)
        seat_area = pygame.Rect(table.x + number_w, table.y, table.width - number_w, table.height)
        headings = grid_cells(pygame.Rect(seat_area.x, area.y, seat_area.width, heading_h),
                              len(SEATS), 1, gap)[0]
        labels += [(rect, seat) for rect, seat in zip(headings, SEATS, strict=True)]
        cells = grid_cells(seat_area, len(SEATS), rows, row_gap)
        for row, trick in enumerate(prompt.tricks[block * rows:(block + 1) * rows]):
            number = pygame.Rect(table.x, cells[row][0].y, number_w - gap, cells[row][0].height)
            labels.append((number, str(trick.number)))
            for column, seat in enumerate(SEATS):
                if trick.card_of(seat) is not None:
                    target = PlayedCell(prompt.hand, trick.number, seat)
                    spots.append(Spot(cells[row][column], target))
    cancel = pygame.Rect(buttons.right - button_w, buttons.y, button_w, buttons.height)
    if prompt.other_hand is not None:
        other = pygame.Rect(buttons.x, buttons.y, button_w, buttons.height)
        spots.append(Spot(other, ShowHand(prompt.other_hand)))
    spots.append(Spot(cancel, PromptButton("cancel")))
    return PromptGeometry(panel, bands, tuple(spots), tuple(labels))


def question_geometry(layout: Layout, panel: pygame.Rect, buttons: tuple[str, str]
                      ) -> PromptGeometry:
    """A question: a title, the detail, and two buttons side by side along the bottom."""
    gap = layout.gap
    inner = panel.inflate(-2 * gap, -2 * gap)
    button_h = layout.status.height
    row = pygame.Rect(inner.x, inner.bottom - button_h, inner.width, button_h)
    text = pygame.Rect(inner.x, inner.y, inner.width, row.top - gap - inner.y)
    title_h = round(text.height * 0.4)
    bands = (pygame.Rect(text.x, text.y, text.width, title_h),
             pygame.Rect(text.x, text.y + title_h, text.width, text.height - title_h))
    width = min(round(row.width * 0.4), row.width // 2 - gap)
    left = pygame.Rect(row.centerx - gap - width, row.y, width, row.height)
    right = pygame.Rect(row.centerx + gap, row.y, width, row.height)
    spots = (Spot(left, PromptButton(buttons[0])), Spot(right, PromptButton(buttons[1])))
    return PromptGeometry(panel, bands, spots)


def is_question(prompt: Prompt) -> bool:
    """Whether `prompt` is a question over the game (suspect, misread) rather than a full pick."""
    return isinstance(prompt, SuspectPrompt | MisreadQuestion)
