"""The display loop under SDL's dummy video driver, with an injected clock."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import queue
from dataclasses import replace

import pygame

from display.layout import layout_for
from display.loop import Action, ButtonPressed, DisplayLoop, LoopOutput
from display.samples import sample_views
from display.view import View
from tests.display.loop_rig import FakeClock, drained

SAMPLES = sample_views()


def test_touch_on_ok_button_puts_a_press_on_the_queue(
    loop: DisplayLoop, views: queue.Queue[View | None], presses: queue.Queue[LoopOutput]
) -> None:
    views.put(SAMPLES["unreadable-card"])
    ok = layout_for(800, 480).ok_button
    pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, x=ok.centerx / 800,
                                         y=ok.centery / 480, touch_id=1, finger_id=0,
                                         dx=0.0, dy=0.0, pressure=1.0))
    loop.step()
    assert drained(presses) == [ButtonPressed(Action.OK, "touch")]


def test_mouse_click_on_undo_and_outside_the_buttons(
    loop: DisplayLoop, views: queue.Queue[View | None], presses: queue.Queue[LoopOutput],
    clock: FakeClock,
) -> None:
    views.put(SAMPLES["trick"])
    undo = layout_for(800, 480).undo_button
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=undo.center, button=1,
                                         touch=False))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(400, 240), button=1,
                                         touch=False))
    loop.step()
    assert drained(presses) == [ButtonPressed(Action.UNDO, "mouse")]


def test_mouse_events_made_from_touches_are_not_counted_twice(
    loop: DisplayLoop, presses: queue.Queue[LoopOutput]
) -> None:
    ok = layout_for(800, 480).ok_button
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=ok.center, button=1,
                                         touch=True))
    loop.step()
    assert drained(presses) == []


def test_a_double_tap_within_the_debounce_time_is_one_press(
    loop: DisplayLoop, presses: queue.Queue[LoopOutput], clock: FakeClock
) -> None:
    ok = layout_for(800, 480).ok_button
    click = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=ok.center, button=1, touch=False)
    pygame.event.post(click)
    loop.step()
    clock.advance(0.1)
    pygame.event.post(click)
    loop.step()
    clock.advance(0.5)
    pygame.event.post(click)
    loop.step()
    assert len(drained(presses)) == 2


def test_keyboard_enter_and_backspace(
    loop: DisplayLoop, presses: queue.Queue[LoopOutput]
) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0,
                                         unicode="\r", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0,
                                         unicode="\b", scancode=0))
    loop.step()
    assert drained(presses) == [ButtonPressed(Action.OK, "key"), ButtonPressed(Action.UNDO, "key")]


def test_redraws_only_when_the_view_changes(
    loop: DisplayLoop, views: queue.Queue[View | None], clock: FakeClock
) -> None:
    loop.step()
    assert loop.frames_drawn == 0
    views.put(SAMPLES["trick"])
    loop.step()
    assert loop.frames_drawn == 1
    for _ in range(20):
        clock.advance(0.1)
        loop.step()
    assert loop.frames_drawn == 1
    views.put(SAMPLES["trick"])
    loop.step()
    assert loop.frames_drawn == 1
    views.put(SAMPLES["trick-complete"])
    loop.step()
    assert loop.frames_drawn == 2


def test_the_drawn_frame_reaches_the_screen(
    loop: DisplayLoop, views: queue.Queue[View | None]
) -> None:
    views.put(SAMPLES["renege-alarm"])
    loop.step()
    screen = loop.screen()
    points = [(x, y) for x in range(200, 600, 8) for y in range(160, 320, 8)]
    red = [screen.get_at(p) for p in points]
    assert sum(c.r >= 140 and c.g <= 60 and c.b <= 60 for c in red) > len(points) / 2


def test_the_alarm_flashes_then_ends_but_stays_listed(
    loop: DisplayLoop, views: queue.Queue[View | None], clock: FakeClock
) -> None:
    alarm_view = SAMPLES["renege-alarm"]
    views.put(alarm_view)
    loop.step()
    assert loop.frames_drawn == 1
    for _ in range(4):
        clock.advance(0.25)
        loop.step()
    assert loop.frames_drawn == 5, "each flash half-period is drawn"
    assert loop.animating()
    clock.advance(loop.alarm_seconds)
    loop.step()
    assert loop.alarm is None and not loop.animating()
    shown = loop.shown_view()
    assert shown is not None and shown.alarm is None and shown.reneges == alarm_view.reneges
    drawn = loop.frames_drawn
    clock.advance(1.0)
    views.put(alarm_view)
    loop.step()
    assert loop.alarm is None, "the same renege does not raise the alarm again"
    assert loop.frames_drawn == drawn


def test_an_alarm_is_not_lost_when_a_later_view_arrives_in_the_same_turn(
    loop: DisplayLoop, views: queue.Queue[View | None]
) -> None:
    views.put(SAMPLES["renege-alarm"])
    views.put(replace(SAMPLES["renege-alarm"], alarm=None, turn="E"))
    loop.step()
    shown = loop.shown_view()
    assert shown is not None and shown.alarm == SAMPLES["renege-alarm"].alarm
    assert shown.turn == "E"


def test_none_on_the_queue_stops_the_loop(
    loop: DisplayLoop, views: queue.Queue[View | None]
) -> None:
    views.put(SAMPLES["trick"])
    views.put(None)
    assert loop.step() is False


def test_window_close_stops_the_loop(loop: DisplayLoop) -> None:
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert loop.step() is False


def test_fullscreen_at_the_screens_own_size(
    views: queue.Queue[View | None], presses: queue.Queue[LoopOutput]
) -> None:
    display = DisplayLoop(views, presses, size=None)
    screen = display.open()
    try:
        assert display.fullscreen
        assert screen.get_size()[0] > 0 and screen.get_size()[1] > 0
        views.put(SAMPLES["trick"])
        display.step()
        assert display.frames_drawn == 1
    finally:
        pygame.display.quit()
