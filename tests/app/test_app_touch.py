"""Taps on the drawn screen, through the display loop, name and correct cards at the table."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import queue
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from app.config import AppConfig
from app.controller import TableController
from app.journal import Journal
from app.prompts import CorrectionPrompt, PickPrompt, PickReason
from app.run import TableApp, current_view
from display.loop import DisplayLoop
from display.render import render
from display.wording import card_text
from drivers.clock import ManualClock
from table import Card, Rules, Seat
from tests.app.tablerig import bid_hand, play

SIZES = [(800, 480), (1920, 1080)]


class Screen:
    """The display loop on SDL's dummy driver, showing the app's view; taps go to the app."""

    def __init__(self, app: TableApp, size: tuple[int, int], clock: ManualClock) -> None:
        self.app, self.size, self.clock = app, size, clock
        self.views: queue.Queue[object] = queue.Queue()
        self.presses: queue.Queue[object] = queue.Queue()
        self.loop = DisplayLoop(self.views, self.presses, size=size, clock=clock)  # type: ignore[arg-type]
        self.loop.open()

    def show(self) -> None:
        self.views.put(current_view(self.app))
        self.loop.step()

    def tap(self, text: str) -> None:
        """A finger on the centre of `text` as drawn, then the app takes what the loop gave."""
        self.show()
        placed = render(current_view(self.app), pygame.Surface(self.size))
        found = [item for item in placed if item.text == text]
        assert len(found) == 1, f"{text!r} drawn {len(found)} times"
        self.loop.press_at(found[0].rect.center, "touch", self.clock())
        self.clock.advance(0.05)
        while not self.presses.empty():
            self.app.handle(self.presses.get_nowait())


@pytest.fixture(params=SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def screen(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Screen]:
    clock = ManualClock(10.0)
    with Journal(tmp_path / "journal.sqlite") as journal:
        controller = TableController(journal, Rules(), clock=clock)
        yield Screen(TableApp(AppConfig(), controller, clock=clock), request.param, clock)
    pygame.display.quit()


def test_a_tap_on_the_pick_names_the_unreadable_card(screen: Screen) -> None:
    table = screen.app.controller
    bid_hand(table)
    table.on_card(Seat.E, None)
    screen.clock.advance(3.5)
    screen.app.drain()
    assert table.prompt == PickPrompt(Seat.E, PickReason.UNREADABLE)
    screen.tap(card_text("QH"))
    assert table.state.hand.tricks[0].cards == [(Seat.E, Card.parse("QH"))]
    assert table.prompt is None


def test_a_double_tap_on_the_pick_names_one_card(screen: Screen) -> None:
    table = screen.app.controller
    bid_hand(table)
    table.on_card(Seat.E, None)
    screen.clock.advance(3.5)
    screen.app.drain()
    screen.show()
    placed = render(current_view(screen.app), pygame.Surface(screen.size))
    where = next(item.rect.center for item in placed if item.text == card_text("KH"))
    screen.loop.press_at(where, "touch", screen.clock())
    screen.loop.press_at(where, "touch", screen.clock() + 0.05)
    taps = []
    while not screen.presses.empty():
        taps.append(screen.presses.get_nowait())
    assert len(taps) == 1
    for tap in taps:
        screen.app.handle(tap)
    assert len(table.state.hand.tricks[0].cards) == 1


def test_correct_then_the_card_then_what_it_was_then_confirm(screen: Screen) -> None:
    table = screen.app.controller
    bid_hand(table)
    play(table, "E AS", "S 9S", "W KS")
    screen.tap("CORRECT")
    screen.tap(card_text("9S"))
    assert table.prompt == CorrectionPrompt(table.prompt.play)  # type: ignore[union-attr]
    screen.tap(card_text("QS"))
    screen.tap("CONFIRM")
    assert table.state.hand.tricks[0].cards[1] == (Seat.S, Card.parse("QS"))
    assert table.prompt is None
