"""Show every sample state in turn on a real screen, to check it from the players' seats."""

from __future__ import annotations

import queue
import threading

from display.loop import DisplayLoop, LoopOutput
from display.samples import sample_views
from display.style import Style
from display.view import View


def feed_samples(views: queue.Queue[View | None], seconds: float, rounds: int,
                 stop: threading.Event) -> None:
    """Put each sample view on `views` every `seconds`, `rounds` times over, then None."""
    for _ in range(rounds):
        for view in sample_views().values():
            views.put(view)
            if stop.wait(seconds):
                views.put(None)
                return
    views.put(None)


def run_demo(size: tuple[int, int] | None, seconds: float, rounds: int, style: Style) -> int:
    """Open the display and cycle through the samples; returns the number of presses seen."""
    views: queue.Queue[View | None] = queue.Queue()
    presses: queue.Queue[LoopOutput] = queue.Queue()
    loop = DisplayLoop(views, presses, size=size, style=style)
    stop = threading.Event()
    feeder = threading.Thread(target=feed_samples, args=(views, seconds, rounds, stop),
                              daemon=True)
    loop.open()
    feeder.start()
    try:
        loop.run()
    finally:
        stop.set()
        feeder.join()
    return presses.qsize()
