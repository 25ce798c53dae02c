"""`Painter`: the drawing primitives the table display and its prompts are drawn with."""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from display.layout import Layout, bands_of
from display.style import Colour, Style
from display.text import Align, Fonts, PlacedText, SuitColours, draw_text


@dataclass
class Painter:
    """Drawing on one surface in a layout and style: fitted text, rounded boxes, bands; keeps a
    record of the text it placed."""

    surface: pygame.Surface
    layout: Layout
    style: Style
    fonts: Fonts
    placed: list[PlacedText] = field(default_factory=list)

    def text(
        self,
        text: str,
        box: pygame.Rect,
        colour: Colour | None = None,
        *,
        largest: int | None = None,
        align: Align = Align.CENTER,
        suits: bool = True,
        wrap: bool = True,
    ) -> PlacedText:
        """Fit and draw `text` in `box`; suit symbols in their colours unless `suits` is off."""
        suit_colour: SuitColours | None = self.style.suit_colour if suits else None
        placed = draw_text(self.surface, text, box, colour or self.style.ink, self.fonts,
                           largest=largest, align=align, suit_colour=suit_colour, wrap=wrap)
        self.placed.append(placed)
        return placed

    def common_size(self, texts: list[str], boxes: list[pygame.Rect], wrap: bool = True) -> int:
        """The largest size at which every text fits its box, so that a group reads evenly."""
        return min(self.fonts.fit(text, box.width, box.height, box.height, wrap).size
                   for text, box in zip(texts, boxes, strict=True))

    def box(self, rect: pygame.Rect, colour: Colour, width: int = 0) -> None:
        """A rounded rectangle, filled or outlined."""
        pygame.draw.rect(self.surface, colour, rect, width, border_radius=self.layout.gap)

    def rows(self, area: pygame.Rect, weights: list[float]) -> list[pygame.Rect]:
        """`area` cut into horizontal bands in proportion to `weights`, with small gaps."""
        return bands_of(area, weights, self.layout.gap)

    def split(self, rect: pygame.Rect, share: float) -> tuple[pygame.Rect, pygame.Rect]:
        """`rect` cut into a top part of `share` of its height and the rest."""
        top_h = round(rect.height * share)
        return (pygame.Rect(rect.x, rect.y, rect.width, top_h),
                pygame.Rect(rect.x, rect.y + top_h, rect.width, rect.height - top_h))
