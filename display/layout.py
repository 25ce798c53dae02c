"""Where everything goes on a screen of a given size, from 800x480 up to 1920x1080."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from display.cards import SEATS


@dataclass(frozen=True)
class SeatSlot:
    """A seat's place at the drawn table: its card (or bid) and its name label."""

    card: pygame.Rect
    label: pygame.Rect


@dataclass(frozen=True)
class Layout:
    """Rectangles of every area for one screen size."""

    width: int
    height: int
    gap: int
    score_ns: pygame.Rect
    info: pygame.Rect
    score_ew: pygame.Rect
    left: pygame.Rect
    centre: pygame.Rect
    right: pygame.Rect
    middle: pygame.Rect
    status: pygame.Rect
    ok_button: pygame.Rect
    undo_button: pygame.Rect
    correct_button: pygame.Rect
    seats: dict[str, SeatSlot]

    @property
    def problem_area(self) -> pygame.Rect:
        """Problems cover the drawn table and the tricks panel; the contract stays visible."""
        return pygame.Rect(self.centre.x, self.middle.y, self.right.right - self.centre.x,
                           self.middle.height)

    def problem_bands(self, count: int) -> list[pygame.Rect]:
        """One band of the problem area per problem shown."""
        return bands_of(self.problem_area, [1.0] * count, self.gap)

    @property
    def below_scores(self) -> pygame.Rect:
        """Everything under the scores: where a card pick or the played picker goes."""
        return pygame.Rect(self.gap, self.middle.y, self.width - 2 * self.gap,
                           self.height - self.gap - self.middle.y)

    @property
    def question_area(self) -> pygame.Rect:
        """A question covers the drawn table, the tricks panel and the buttons below them."""
        return pygame.Rect(self.centre.x, self.middle.y, self.right.right - self.centre.x,
                           self.status.bottom - self.middle.y)

    @property
    def side_status(self) -> pygame.Rect:
        """The status line beside a question: under the contract panel."""
        return pygame.Rect(self.status.x, self.status.y, self.left.width, self.status.height)

    @property
    def alarm_area(self) -> pygame.Rect:
        """The renege alarm covers the whole middle of the screen."""
        return self.middle.inflate(self.gap * 2, self.gap * 2)


def bands_of(area: pygame.Rect, weights: list[float], gap: int) -> list[pygame.Rect]:
    """`area` cut into horizontal bands in proportion to `weights`, with small gaps."""
    pad = max(1, gap // 2)
    inner = area.inflate(-2 * gap, -2 * pad)
    total = sum(weights)
    bands, y = [], float(inner.y)
    for weight in weights:
        height = inner.height * weight / total
        bands.append(pygame.Rect(inner.x, round(y), inner.width, round(height) - pad))
        y += height
    return bands


def layout_for(width: int, height: int) -> Layout:
    """The layout of a `width` x `height` screen."""
    gap = max(4, round(min(width, height) * 0.014))
    top_h = round(height * 0.16)
    bottom_h = round(height * 0.16)
    top = pygame.Rect(gap, gap, width - 2 * gap, top_h)
    bottom = pygame.Rect(gap, height - gap - bottom_h, width - 2 * gap, bottom_h)
    middle_h = bottom.top - top.bottom - 2 * gap
    middle = pygame.Rect(gap, top.bottom + gap, width - 2 * gap, middle_h)

    score_w = round(top.width * 0.37)
    score_ns = pygame.Rect(top.x, top.y, score_w, top.height)
    score_ew = pygame.Rect(top.right - score_w, top.y, score_w, top.height)
    info = pygame.Rect(score_ns.right + gap, top.y, score_ew.left - score_ns.right - 2 * gap,
                       top.height)

    left_w = round(middle.width * 0.27)
    right_w = round(middle.width * 0.24)
    left = pygame.Rect(middle.x, middle.y, left_w, middle.height)
    right = pygame.Rect(middle.right - right_w, middle.y, right_w, middle.height)
    centre = pygame.Rect(left.right + gap, middle.y, right.left - left.right - 2 * gap,
                         middle.height)

    button_w = round(bottom.width * 0.14)
    undo_button = pygame.Rect(bottom.right - button_w, bottom.y, button_w, bottom.height)
    ok_button = pygame.Rect(undo_button.left - gap - button_w, bottom.y, button_w, bottom.height)
    correct_button = pygame.Rect(ok_button.left - gap - button_w, bottom.y, button_w,
                                 bottom.height)
    status = pygame.Rect(bottom.x, bottom.y, correct_button.left - gap - bottom.x, bottom.height)

    return Layout(width, height, gap, score_ns, info, score_ew, left, centre, right, middle,
                  status, ok_button, undo_button, correct_button, seat_slots(centre, gap))


def seat_slots(area: pygame.Rect, gap: int) -> dict[str, SeatSlot]:
    """Card and label places: N top, E right, S bottom, W left; each label centred over its card."""
    label_h = round(area.height * 0.13)
    card_h = round(area.height * 0.36)
    card_w = min(round(card_h * 0.72), (area.width - 4 * gap) // 3)
    pad = max(2, gap // 2)
    north = pygame.Rect(area.centerx - card_w // 2, area.y + label_h, card_w, card_h)
    south = pygame.Rect(area.centerx - card_w // 2, area.bottom - label_h - card_h, card_w, card_h)
    side_y = area.centery - (card_h - label_h) // 2
    middle_w = round(area.width * 0.5)
    side_w = north.left - gap - area.x
    west = pygame.Rect(area.x + (side_w - card_w) // 2, side_y, card_w, card_h)
    east = pygame.Rect(area.right - side_w + (side_w - card_w) // 2, side_y, card_w, card_h)
    west.left, east.right = max(west.left, area.x + pad), min(east.right, area.right - pad)
    labels = {
        "N": pygame.Rect(area.centerx - middle_w // 2, area.y, middle_w, label_h),
        "S": pygame.Rect(area.centerx - middle_w // 2, area.bottom - label_h, middle_w, label_h),
        "W": pygame.Rect(area.x, west.top - label_h, side_w, label_h),
        "E": pygame.Rect(area.right - side_w, east.top - label_h, side_w, label_h),
    }
    cards = {"N": north, "E": east, "S": south, "W": west}
    return {seat: SeatSlot(cards[seat], labels[seat]) for seat in SEATS}
