"""Text fitted into boxes: the largest font size at which the text, wrapped at words, fits whole."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

import pygame

from display.errors import FontMissingError
from display.style import Colour

FONT_PATH = Path(__file__).with_name("fonts") / "DejaVuSans-Bold.ttf"
SMALLEST_SIZE = 6
SUIT_LETTERS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}

SuitColours = Callable[[str], Colour]


class Align(StrEnum):
    """Horizontal alignment of text in its box."""

    LEFT = "left"
    CENTER = "center"
    RIGHT = "right"


@dataclass(frozen=True)
class PlacedText:
    """Where a text was drawn: the box it was given, the area it covers and its font size."""

    text: str
    box: pygame.Rect
    rect: pygame.Rect
    size: int


@dataclass(frozen=True)
class Fit:
    """A font size and the lines the text wraps into at that size."""

    size: int
    lines: tuple[str, ...]


class Fonts:
    """The shipped font at every size asked for, loaded once per size; fits are cached too."""

    def __init__(self, path: Path = FONT_PATH) -> None:
        if not path.is_file():
            raise FontMissingError(f"font file {str(path)!r} not found")
        if not pygame.font.get_init():
            pygame.font.init()
        self.path = path
        self._fonts: dict[int, pygame.font.Font] = {}
        self._fits: dict[tuple[str, int, int, int, bool], Fit] = {}

    def get(self, size: int) -> pygame.font.Font:
        """The font at `size` pixels (reloaded if pygame's font module was shut down)."""
        if not pygame.font.get_init():
            pygame.font.init()
            self._fonts.clear()
        font = self._fonts.get(size)
        if font is not None and not still_valid(font):
            self._fonts.clear()
            font = None
        if font is None:
            font = pygame.font.Font(self.path, size)
            self._fonts[size] = font
        return font

    def fit(self, text: str, width: int, height: int, largest: int, wrap: bool = True) -> Fit:
        """The largest size up to `largest` at which `text` fits in width x height."""
        key = (text, width, height, largest, wrap)
        found = self._fits.get(key)
        if found is None:
            found = self._search(text, width, height, largest, wrap)
            self._fits[key] = found
        return found

    def _search(self, text: str, width: int, height: int, largest: int, wrap: bool) -> Fit:
        low, high = SMALLEST_SIZE, max(SMALLEST_SIZE, largest)
        best = Fit(SMALLEST_SIZE, self._lines(text, SMALLEST_SIZE, width, wrap) or (text,))
        while low <= high:
            size = (low + high) // 2
            lines = self._lines(text, size, width, wrap)
            if lines is not None and self.block_height(size, len(lines)) <= height:
                best = Fit(size, lines)
                low = size + 1
            else:
                high = size - 1
        return best

    def _lines(self, text: str, size: int, width: int, wrap: bool) -> tuple[str, ...] | None:
        """`text` broken into lines no wider than `width` at `size`, or None if a word is wider."""
        font = self.get(size)
        paragraphs = text.split("\n")
        lines: list[str] = []
        for paragraph in paragraphs:
            if not wrap:
                if line_width(font, paragraph) > width:
                    return None
                lines.append(paragraph)
                continue
            current = ""
            for word in paragraph.split(" "):
                candidate = f"{current} {word}" if current else word
                if line_width(font, candidate) <= width:
                    current = candidate
                elif current and line_width(font, word) <= width:
                    lines.append(current)
                    current = word
                else:
                    return None
            lines.append(current)
        return tuple(lines)

    def block_height(self, size: int, count: int) -> int:
        """Height of `count` lines at `size`."""
        font = self.get(size)
        return font.get_height() + (count - 1) * font.get_linesize()


def still_valid(font: pygame.font.Font) -> bool:
    """Whether `font` still works: not made before pygame's font module was last shut down."""
    try:
        font.get_height()
    except pygame.error:
        return False
    return True


def runs(line: str) -> list[str]:
    """`line` split so that every suit symbol is a run of its own."""
    pieces: list[str] = []
    current = ""
    for char in line:
        if char in SUIT_LETTERS:
            if current:
                pieces.append(current)
            pieces.append(char)
            current = ""
        else:
            current += char
    if current:
        pieces.append(current)
    return pieces


def line_width(font: pygame.font.Font, line: str) -> int:
    """Width of `line` drawn run by run."""
    return sum(font.size(run)[0] for run in runs(line))


def draw_text(
    surface: pygame.Surface,
    text: str,
    box: pygame.Rect,
    colour: Colour,
    fonts: Fonts,
    *,
    largest: int | None = None,
    align: Align = Align.CENTER,
    suit_colour: SuitColours | None = None,
    wrap: bool = True,
) -> PlacedText:
    """Draw `text` as large as fits in `box` (up to `largest` px), suits coloured if asked."""
    limit = largest if largest is not None else box.height
    fit = fonts.fit(text, box.width, box.height, limit, wrap)
    font = fonts.get(fit.size)
    block = fonts.block_height(fit.size, len(fit.lines))
    y = box.y + (box.height - block) // 2
    covered: pygame.Rect | None = None
    for line in fit.lines:
        width = line_width(font, line)
        if align is Align.LEFT:
            x = box.x
        elif align is Align.RIGHT:
            x = box.right - width
        else:
            x = box.x + (box.width - width) // 2
        for run in runs(line):
            run_colour = colour
            if suit_colour is not None and run in SUIT_LETTERS:
                run_colour = suit_colour(SUIT_LETTERS[run])
            image = font.render(run, True, run_colour)
            surface.blit(image, (x, y))
            area = pygame.Rect((x, y), image.get_size())
            covered = area if covered is None else covered.union(area)
            x += image.get_width()
        y += font.get_linesize()
    if covered is None:
        covered = pygame.Rect(box.center, (0, 0))
    return PlacedText(text, pygame.Rect(box), covered, fit.size)
