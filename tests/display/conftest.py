"""The display loop's rig under SDL's dummy video driver: an injected clock and its queues."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import queue
from collections.abc import Iterator

import pygame
import pytest

from display.loop import DisplayLoop, LoopOutput
from display.view import View
from tests.display.loop_rig import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def views() -> queue.Queue[View | None]:
    return queue.Queue()


@pytest.fixture
def presses() -> queue.Queue[LoopOutput]:
    return queue.Queue()


@pytest.fixture
def loop(
    views: queue.Queue[View | None], presses: queue.Queue[LoopOutput], clock: FakeClock
) -> Iterator[DisplayLoop]:
    display = DisplayLoop(views, presses, size=(800, 480), clock=clock)
    display.open()
    pygame.event.clear()
    yield display
    pygame.display.quit()
