"""Where the table shows itself: a window, PNG files per step, or nowhere."""

from __future__ import annotations

import argparse
import contextlib
import queue
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from app.run import TableApp, current_view, headless_writer


class Screen:
    """Where the table shows itself: a window or the console, PNG files, or nowhere."""

    def show(self, label: str) -> None:
        """Show the current state; `label` names the step."""

    def poll(self) -> list[Any]:
        """Run the window's turn of the loop; returns on-screen presses."""
        return []


class PngScreen(Screen):
    """Headless: one PNG per step."""

    def __init__(self, app: TableApp, outdir: Path) -> None:
        size = (app.config.display.width, app.config.display.height)
        self.app, self.write = app, headless_writer(outdir, size)

    def show(self, label: str) -> None:
        self.write(self.app, label)


class WindowScreen(Screen):
    """The pygame display loop, stepped from the main loop."""

    def __init__(self, app: TableApp) -> None:
        from display.loop import DisplayLoop
        from display.style import Style

        settings = app.config.display
        self.app = app
        self.views: queue.Queue[Any] = queue.Queue()
        self.presses: queue.Queue[Any] = queue.Queue()
        self.loop = DisplayLoop(
            self.views,
            self.presses,
            size=(settings.width, settings.height),
            fullscreen=settings.fullscreen,
            style=Style(four_colour=settings.four_colour),
            fps=settings.fps,
        )
        self.loop.open()

    def show(self, label: str) -> None:
        self.views.put(current_view(self.app))

    def poll(self) -> list[Any]:
        if not self.loop.step():
            self.app.stop.set()
        taken = []
        while not self.presses.empty():
            taken.append(self.presses.get_nowait())
        return taken

    def close(self) -> None:
        """Stop the display loop."""
        self.views.put(None)
        self.loop.step()


@contextlib.contextmanager
def open_screen(app: TableApp, args: argparse.Namespace) -> Iterator[Screen]:
    """The screen the arguments ask for."""
    if args.headless:
        yield PngScreen(app, args.headless)
    elif args.no_display:
        yield Screen()
    else:
        window = WindowScreen(app)
        try:
            yield window
        finally:
            window.close()
