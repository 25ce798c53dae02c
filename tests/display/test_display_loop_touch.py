"""Taps through the display loop: pygame events in, touch targets out; keys that quit; windows."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import queue

import pygame
import pytest

from display.layout import layout_for
from display.loop import Action, ButtonPressed, DisplayLoop, LoopOutput
from display.prompt_layout import prompt_geometry
from display.samples import prompt_views, sample_views
from display.style import Style
from display.targets import AskCard, OpenCorrection, PickCard, Touched
from display.view import View
from tests.display.loop_rig import FakeClock, drained

SIZE = (800, 480)
PROMPTS = prompt_views()
SAMPLES = sample_views()


def click(pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False))


def finger(pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, x=pos[0] / SIZE[0],
                                         y=pos[1] / SIZE[1], touch_id=1, finger_id=0, dx=0.0,
                                         dy=0.0, pressure=1.0))


def key(code: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="",
                                         scancode=0))


def spot_of(view: View, target: object) -> tuple[int, int]:
    assert view.prompt is not None
    spots = prompt_geometry(view.prompt, layout_for(*SIZE)).spots
    return next(spot.rect.center for spot in spots if spot.target == target)


def show(loop: DisplayLoop, views: queue.Queue[View | None], view: View) -> None:
    views.put(view)
    loop.step()
    assert loop.frames_drawn >= 1


@pytest.mark.parametrize("card", ["9S", "JH", "AD", "TC", "JK"])
def test_a_click_on_a_card_of_the_pick_hands_out_that_card(
    loop: DisplayLoop, views: queue.Queue[View | None], presses: queue.Queue[LoopOutput],
    card: str,
) -> None:
    view = PROMPTS["pick-card-joker"]
    show(loop, views, view)
    click(spot_of(view, PickCard(card)))
    loop.step()
    assert drained(presses) == [Touched(PickCard(card), "mouse")]


@pytest.mark.parametrize("name", list(PROMPTS))
def test_a_finger_on_each_target_hands_out_that_target(
    loop: DisplayLoop, views: queue.Queue[View | None], presses: queue.Queue[LoopOutput],
    clock: FakeClock, name: str,
) -> None:
    view = PROMPTS[name]
    assert view.prompt is not None
    show(loop, views, view)
    spots = prompt_geometry(view.prompt, layout_for(*SIZE)).spots
    for spot in spots:
        finger(spot.rect.center)
    loop.step()
    assert drained(presses) == [Touched(spot.target, "touch") for spot in spots]


def test_the_game_screen_buttons_through_the_loop(
    loop: DisplayLoop, views: queue.Queue[View | None], presses: queue.Queue[LoopOutput]
) -> None:
    show(loop, views, SAMPLES["trick"])
    layout = layout_for(*SIZE)
    finger(layout.correct_button.center)
    click(layout.ok_button.center)
    finger(layout.seats["W"].card.center)
    loop.step()
    assert drained(presses) == [Touched(OpenCorrection(), "touch"),
                                ButtonPressed(Action.OK, "mouse"),
                                Touched(AskCard("W"), "touch")]


def test_a_tap_answers_the_view_on_screen_and_misses_give_nothing(
    loop: DisplayLoop, views: queue.Queue[View | None], presses: queue.Queue[LoopOutput]
) -> None:
    show(loop, views, PROMPTS["suspect"])
    layout = layout_for(*SIZE)
    click(layout.side_status.center)
    click(layout.score_ns.center)
    loop.step()
    assert drained(presses) == []
    show(loop, views, SAMPLES["trick"])
    click(layout.ok_button.center)
    loop.step()
    assert drained(presses) == [ButtonPressed(Action.OK, "mouse")]


def test_the_same_target_tapped_twice_at_once_is_one_tap(
    loop: DisplayLoop, views: queue.Queue[View | None], presses: queue.Queue[LoopOutput],
    clock: FakeClock,
) -> None:
    view = PROMPTS["pick-card"]
    show(loop, views, view)
    queen, king = spot_of(view, PickCard("QH")), spot_of(view, PickCard("KH"))
    finger(queen)
    finger(queen)
    finger(king)
    loop.step()
    clock.now += loop.debounce_seconds
    finger(queen)
    loop.step()
    assert drained(presses) == [Touched(PickCard("QH"), "touch"), Touched(PickCard("KH"), "touch"),
                                Touched(PickCard("QH"), "touch")]


def test_a_tapped_target_shows_pressed_for_a_moment(
    loop: DisplayLoop, views: queue.Queue[View | None], clock: FakeClock
) -> None:
    view = PROMPTS["pick-card"]
    show(loop, views, view)
    assert view.prompt is not None
    spot = next(s for s in prompt_geometry(view.prompt, layout_for(*SIZE)).spots
                if s.target == PickCard("9S"))
    corner = (spot.rect.x + spot.rect.width // 8, spot.rect.centery)
    click(spot.rect.center)
    loop.step()
    screen = loop.screen()
    assert tuple(screen.get_at(corner))[:3] == Style().button_pressed
    clock.now += loop.pressed_seconds
    loop.step()
    assert tuple(screen.get_at(corner))[:3] == Style().card
    assert not loop.animating()


@pytest.mark.parametrize("code", [pygame.K_ESCAPE, pygame.K_q])
def test_escape_and_q_stop_the_loop(loop: DisplayLoop, views: queue.Queue[View | None],
                                    code: int) -> None:
    show(loop, views, SAMPLES["trick"])
    key(code)
    assert loop.step() is False


def test_other_keys_do_not_stop_the_loop(loop: DisplayLoop, views: queue.Queue[View | None]
                                         ) -> None:
    show(loop, views, SAMPLES["trick"])
    key(pygame.K_a)
    key(pygame.K_RETURN)
    assert loop.step() is True


def test_a_window_is_a_window(
    views: queue.Queue[View | None], presses: queue.Queue[LoopOutput]
) -> None:
    display = DisplayLoop(views, presses, size=SIZE, fullscreen=False)
    try:
        screen = display.open()
        assert not display.fullscreen
        assert screen.get_size() == SIZE
        assert not screen.get_flags() & pygame.FULLSCREEN
    finally:
        pygame.display.quit()
    display = DisplayLoop(views, presses, size=SIZE, fullscreen=True)
    try:
        assert display.open().get_flags() & pygame.FULLSCREEN
    finally:
        pygame.display.quit()
