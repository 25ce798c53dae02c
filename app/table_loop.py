"""The table's main loop: script lines, then every source, then the screen, until stopped."""

from __future__ import annotations

import argparse
import signal
import sys
import time
from collections.abc import Callable
from types import FrameType

from app.controller import Notice
from app.run import Poll, TableApp, log
from app.script import ScriptLine, Wait
from drivers.clock import ManualClock

TICK_S = 0.01


def loop(
    app: TableApp,
    args: argparse.Namespace,
    script: list[ScriptLine],
    polls: list[Poll],
    show: Callable[[str], None],
    clock: Callable[[], float] = time.monotonic,
) -> None:
    """The main loop: one script line per turn (if any), then every source, then the screen."""
    started = time.monotonic()
    pending = [line for line in script if line.number >= args.script_from]
    while not app.stop.is_set():
        if pending:
            line = pending.pop(0)
            if isinstance(line.item, Wait):
                if isinstance(clock, ManualClock):
                    clock.advance(line.item.seconds)
                notices = app.tick()
            else:
                notices = app.handle(line.item)
            if app.journal_pause.paused:
                log(f"script line {line.number} not taken: {app.journal_pause.message}")
            else:
                print(f"ack {line.number} {len(app.controller.state.log)}", flush=True)
            if notices:
                show(f"line{line.number}_{notices[-1].message}")
        elif args.script and not app.feeds_running():
            app.drain(polls)
            break
        notices = app.drain(polls)
        if notices:
            show(notices[-1].message)
        app.keep_alive()
        if args.max_seconds is not None and time.monotonic() - started >= args.max_seconds:
            break
        if not pending:
            time.sleep(TICK_S)


def print_notices(notices: list[Notice]) -> None:
    """Print each notice on stderr: what the table accepted, refused or flagged."""
    for notice in notices:
        print(f"{notice.kind}: {notice.message}", file=sys.stderr, flush=True)


def stop_on_signal(app: TableApp) -> None:
    """SIGTERM and SIGINT end the loop cleanly."""

    def handler(signum: int, frame: FrameType | None) -> None:
        app.stop.set()

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, handler)
