"""Fitting text into boxes with the shipped font."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from pathlib import Path

import pygame
import pytest

from display.errors import DisplayError, FontMissingError
from display.style import RED, Style
from display.text import FONT_PATH, Align, Fonts, draw_text, line_width, runs


@pytest.fixture(scope="module")
def fonts() -> Fonts:
    return Fonts()


def test_the_shipped_font_and_its_licence_are_in_the_package() -> None:
    assert FONT_PATH.is_file()
    assert (FONT_PATH.parent / "LICENSE-DejaVu.txt").is_file()


def glyph_pixels(font: pygame.font.Font, char: str) -> bytes:
    return pygame.image.tobytes(font.render(char, False, (255, 255, 255), (0, 0, 0)), "RGB")


def test_the_shipped_font_draws_four_distinct_suit_symbols(fonts: Fonts) -> None:
    font = fonts.get(40)
    missing = glyph_pixels(font, "\U0010fffd")
    drawn = {glyph_pixels(font, symbol) for symbol in "♠♥♦♣"}
    assert len(drawn) == 4
    assert missing not in drawn


def test_pygames_default_font_lacks_them() -> None:
    font = pygame.font.Font(None, 40)
    assert len({glyph_pixels(font, symbol) for symbol in "♠♥♦♣"}) == 1


def test_fit_is_the_largest_size_that_fits(fonts: Fonts) -> None:
    fit = fonts.fit("Trick 3", 200, 100, 100, wrap=False)
    font = fonts.get(fit.size)
    assert line_width(font, "Trick 3") <= 200
    assert line_width(fonts.get(fit.size + 1), "Trick 3") > 200


def test_fit_respects_the_largest_size_asked(fonts: Fonts) -> None:
    assert fonts.fit("OK", 500, 500, 40).size == 40


def test_long_text_wraps_at_words_within_the_width(fonts: Fonts) -> None:
    text = "Place it flat in your zone so the camera can read it; OK hides this"
    fit = fonts.fit(text, 220, 200, 60)
    assert len(fit.lines) > 1
    assert " ".join(fit.lines) == text
    font = fonts.get(fit.size)
    assert all(line_width(font, line) <= 220 for line in fit.lines)
    assert fonts.block_height(fit.size, len(fit.lines)) <= 200


def test_a_word_too_long_for_the_line_shrinks_the_text(fonts: Fonts) -> None:
    wide = fonts.fit("Konstantinopoulos", 400, 60, 60)
    narrow = fonts.fit("Konstantinopoulos", 120, 60, 60)
    assert narrow.size < wide.size
    assert narrow.lines == ("Konstantinopoulos",)


def test_runs_split_out_suit_symbols() -> None:
    assert runs("give E your best ♥; press OK") == ["give E your best ", "♥", "; press OK"]
    assert runs("K♣") == ["K", "♣"]


def test_suit_symbols_are_drawn_in_their_colour(fonts: Fonts) -> None:
    surface = pygame.Surface((300, 100))
    surface.fill((255, 255, 255))
    box = pygame.Rect(0, 0, 300, 100)
    placed = draw_text(surface, "A♥", box, (0, 0, 0), fonts, suit_colour=Style().suit_colour)
    colours = {tuple(surface.get_at((x, y)))[:3] for x in range(placed.rect.left,
               placed.rect.right) for y in range(placed.rect.top, placed.rect.bottom)}
    assert RED in colours
    assert (0, 0, 0) in colours


@pytest.mark.parametrize("align", list(Align))
def test_drawn_text_stays_in_its_box(fonts: Fonts, align: Align) -> None:
    surface = pygame.Surface((400, 300))
    box = pygame.Rect(37, 41, 151, 63)
    placed = draw_text(surface, "W Dan: give E your best ♥", box, (255, 255, 255), fonts,
                       align=align)
    assert box.contains(placed.rect)
    assert placed.rect.width > box.width * 0.6


def test_a_missing_font_is_a_clear_error(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.ttf"
    with pytest.raises(FontMissingError, match=r"nowhere\.ttf") as caught:
        Fonts(missing)
    assert isinstance(caught.value, FileNotFoundError)
    assert isinstance(caught.value, DisplayError)


def test_fonts_survive_pygames_font_module_being_shut_down() -> None:
    fonts = Fonts()
    before = fonts.get(20).size("K♣")
    pygame.font.quit()
    assert fonts.get(20).size("K♣") == before


def test_fonts_survive_the_font_module_being_restarted_by_someone_else() -> None:
    fonts = Fonts()
    before = fonts.get(20).size("K♣")
    pygame.font.quit()
    pygame.font.init()
    assert fonts.get(20).size("K♣") == before
