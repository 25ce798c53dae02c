"""Every display state rendered headless at both screen sizes, checked where it matters."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from dataclasses import replace

import pygame
import pytest

from display.cards import Trick
from display.layout import layout_for
from display.render import render
from display.samples import sample_views
from display.style import BLUE, GREEN, RED, Style
from display.view import SeatNames

SIZES = [(800, 480), (1920, 1080)]
OTHER_SIZES = [(1024, 600), (1280, 720), (1280, 800), (1366, 768)]
SAMPLES = sample_views()


def legible(size: tuple[int, int]) -> int:
    """The smallest text allowed: 12 px on the 7-inch 800x480 screen, scaled with the screen."""
    return int(12 * min(size[0] / 800, size[1] / 480))


def is_red(colour: pygame.Color) -> bool:
    """Alarm red: strong red, little green or blue."""
    return colour.r >= 140 and colour.g <= 60 and colour.b <= 60


def red_share(surface: pygame.Surface, area: pygame.Rect, step: int = 4) -> float:
    """The share of sampled pixels in `area` that are alarm red."""
    points = [(x, y) for x in range(area.left, area.right, step)
              for y in range(area.top, area.bottom, step)]
    return sum(is_red(surface.get_at(point)) for point in points) / len(points)


def near(colour: pygame.Color, target: tuple[int, int, int], tolerance: int = 30) -> bool:
    """Whether `colour` is within `tolerance` of `target` on every channel."""
    return all(abs(a - b) <= tolerance for a, b in zip(colour[:3], target, strict=True))


def count_near(surface: pygame.Surface, area: pygame.Rect, target: tuple[int, int, int]) -> int:
    """How many pixels of `area` are close to `target`."""
    return sum(near(surface.get_at((x, y)), target)
               for x in range(area.left, area.right, 2) for y in range(area.top, area.bottom, 2))


@pytest.mark.parametrize("size", SIZES + OTHER_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", list(SAMPLES))
def test_every_text_fits_its_box_and_stays_legible(name: str, size: tuple[int, int]) -> None:
    surface = pygame.Surface(size)
    placed = render(SAMPLES[name], surface)
    screen = surface.get_rect()
    assert placed, "nothing was drawn"
    for text in placed:
        assert screen.contains(text.box), f"box of {text.text!r} leaves the screen"
        assert text.box.contains(text.rect), f"{text.text!r} runs outside its box"
        assert text.size >= legible(size), f"{text.text!r} shrank to {text.size}px"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_long_names_shrink_but_are_never_cut(size: tuple[int, int]) -> None:
    names = SeatNames(n="Maximiliana", e="Bartholomew", s="Konstantinos", w="Wilhelmina")
    view = replace(SAMPLES["trick"], names=names)
    surface = pygame.Surface(size)
    for text in render(view, surface):
        assert text.box.contains(text.rect), f"{text.text!r} runs outside its box"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("now", [0.0, 0.3, 0.6, 2.9])
def test_renege_alarm_covers_the_centre_in_red(size: tuple[int, int], now: float) -> None:
    surface = pygame.Surface(size)
    render(SAMPLES["renege-alarm"], surface, now=now)
    centre = pygame.Rect(0, 0, size[0] // 2, size[1] // 3)
    centre.center = (size[0] // 2, size[1] // 2)
    assert red_share(surface, centre) > 0.5


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_no_red_centre_without_an_alarm(size: tuple[int, int]) -> None:
    surface = pygame.Surface(size)
    render(SAMPLES["renege-listed"], surface)
    centre = pygame.Rect(0, 0, size[0] // 2, size[1] // 3)
    centre.center = (size[0] // 2, size[1] // 2)
    assert red_share(surface, centre) < 0.05


def test_renege_alarm_flashes() -> None:
    surface = pygame.Surface((800, 480))
    area = layout_for(800, 480).alarm_area
    corner = (area.left + 2 * layout_for(800, 480).gap, area.centery)
    render(SAMPLES["renege-alarm"], surface, now=0.0)
    bright = surface.get_at(corner)
    render(SAMPLES["renege-alarm"], surface, now=0.3)
    dim = surface.get_at(corner)
    assert is_red(bright) and is_red(dim)
    assert bright.r > dim.r


def test_alarm_names_seat_trick_suit_card_and_proof() -> None:
    surface = pygame.Surface((800, 480))
    texts = " ".join(text.text for text in render(SAMPLES["renege-alarm"], surface))
    assert "RENEGE: W Dan" in texts
    assert "Trick 2: ♣ led, W played 9♥. K♣ in trick 4 proves it." in texts


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_trump_is_a_large_symbol_in_its_suit_colour(size: tuple[int, int]) -> None:
    surface = pygame.Surface(size)
    placed = render(SAMPLES["contract-4"], surface)
    symbol = next(text for text in placed if text.text == "♥")
    left = layout_for(*size).left
    assert left.contains(symbol.rect)
    assert symbol.rect.height >= left.height * 0.3
    assert count_near(surface, symbol.rect, RED) > symbol.rect.width * symbol.rect.height / 40


def test_four_colour_deck_draws_diamonds_blue_and_clubs_green() -> None:
    view = replace(SAMPLES["trick"], trick=Trick(3, "E", (("E", "AD"), ("S", "KC"))))
    slots = layout_for(800, 480).seats
    surface = pygame.Surface((800, 480))
    render(view, surface, style=Style(four_colour=True))
    assert count_near(surface, slots["E"].card, BLUE) > 50
    assert count_near(surface, slots["S"].card, GREEN) > 50
    render(view, surface, style=Style(four_colour=False))
    assert count_near(surface, slots["E"].card, BLUE) == 0
    assert count_near(surface, slots["E"].card, RED) > 50


@pytest.mark.parametrize(
    ("name", "headline", "need"),
    [
        ("contract-3", "E Bob bid 3", "EW need 3"),
        ("contract-4", "E Bob bid 4", "EW need 4"),
        ("contract-5", "E Bob bid 5", "EW need 5"),
        ("contract-6", "E Bob bid 6", "EW need 6"),
        ("contract-ask", "E Bob: ASK", "EW need all 6"),
        ("contract-moon", "E Bob: MOON", "EW need all 6"),
    ],
)
def test_each_bid_type_is_shown_with_its_contract(name: str, headline: str, need: str) -> None:
    surface = pygame.Surface((800, 480))
    texts = [text.text for text in render(SAMPLES[name], surface)]
    assert headline in texts
    assert need in texts


def test_the_partner_who_sits_out_is_marked() -> None:
    surface = pygame.Surface((800, 480))
    texts = [text.text for text in render(SAMPLES["contract-moon"], surface)]
    assert "W Dan sits out" in texts
    assert "sits out" in texts


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("unreadable-card", "Place it flat in your zone, or tap here to name it; OK hides this"),
        ("already-played", "W Dan: J♥ was already played"),
        ("out-of-turn", "N Ann played A♠ out of turn"),
        ("disconnected", "Camera disconnected"),
    ],
)
def test_problems_are_shown_in_words(name: str, expected: str) -> None:
    surface = pygame.Surface((800, 480))
    texts = [text.text for text in render(SAMPLES[name], surface)]
    assert expected in texts


def test_a_problem_covers_the_table_in_amber() -> None:
    surface = pygame.Surface((800, 480))
    render(SAMPLES["unreadable-card"], surface)
    style = Style()
    area = layout_for(800, 480).problem_area
    assert count_near(surface, area, style.problem) > area.width * area.height / 8


@pytest.mark.parametrize("size", SIZES + OTHER_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_each_seat_label_is_centred_over_its_card(size: tuple[int, int]) -> None:
    layout = layout_for(*size)
    for seat, slot in layout.seats.items():
        assert abs(slot.label.centerx - slot.card.centerx) <= 1, seat
        assert layout.centre.contains(slot.card) and layout.centre.contains(slot.label), seat
    placed = render(SAMPLES["trick"], pygame.Surface(size))
    for seat in ("W", "E"):
        label = next(text for text in placed if text.text == SAMPLES["trick"].names.label(seat))
        assert abs(label.rect.centerx - layout.seats[seat].card.centerx) <= 2, seat


@pytest.mark.parametrize("size", SIZES + OTHER_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("seat", ["N", "E", "S", "W"])
def test_the_last_trick_winner_stays_on_one_line(size: tuple[int, int], seat: str) -> None:
    view = replace(SAMPLES["trick"], last_trick_winner=seat)
    placed = render(view, pygame.Surface(size))
    last = next(text for text in placed if text.text.startswith("last trick"))
    assert last.rect.height < 2 * last.size, f"{last.text!r} wraps"
    assert last.size >= legible(size)


@pytest.mark.parametrize(
    ("name", "calls"),
    [("bidding", "calls: PASS 5 6 ASK MOON"),
     ("bidding-dealer-stuck", "calls: 3 4 5 6 ASK MOON")],
)
def test_the_bid_list_shows_only_the_legal_calls(name: str, calls: str) -> None:
    texts = [text.text for text in render(SAMPLES[name], pygame.Surface((800, 480)))]
    assert calls in texts
    assert not any("3 4 5 6 ASK MOON" in text for text in texts if text != calls)


def test_no_bid_list_is_shown_once_the_bidding_is_over() -> None:
    texts = [text.text for text in render(SAMPLES["trump"], pygame.Surface((800, 480)))]
    assert not any(text.startswith("calls") for text in texts)


def test_the_hand_end_header_names_the_next_dealer_as_next() -> None:
    texts = [text.text for text in render(SAMPLES["hand-end"], pygame.Surface((800, 480)))]
    assert "Next dealer N Ann" in texts and "to 32 · hand 3" in texts
    assert "Dealer N Ann" not in texts
    playing = [text.text for text in render(SAMPLES["trick"], pygame.Surface((800, 480)))]
    assert "Dealer W Dan" in playing
