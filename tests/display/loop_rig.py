"""A clock the display loop's tests move by hand, and the loop's output drained."""

from __future__ import annotations

import queue

from display.loop import LoopOutput


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def drained(presses: queue.Queue[LoopOutput]) -> list[LoopOutput]:
    """Everything the loop has handed out so far."""
    found = []
    while not presses.empty():
        found.append(presses.get_nowait())
    return found
