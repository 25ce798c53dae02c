"""`cardtable run`: build the table from the config and run the loop until stopped."""

from __future__ import annotations

import argparse
import contextlib
import queue
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from types import FrameType
from typing import Any

from app.config import AppConfig, ConfigError, load_config
from app.controller import Notice, TableController
from app.journal import NOT_WRITABLE, Journal, JournalError, JournalUnavailable
from app.journal_check import JournalDamaged, guard_for_start, mark_created
from app.run import Item, Poll, TableApp, current_view, feed_from_thread, headless_writer, log
from app.script import ScriptError, ScriptLine, Wait, load_script
from app.state_dir import ENVIRONMENT_EXIT, environment_problem
from app.state_lock import StateLock, TableRunning
from app.supervisor import STUCK_AFTER_S
from drivers.clock import ManualClock

TICK_S = 0.01
PANEL_POLL_S = 0.02


def stuck_after_s(args: argparse.Namespace) -> float:
    """How long a feed thread may stay silent: `--stuck-after`, else STUCK_AFTER_S."""
    given: float | None = getattr(args, "stuck_after", None)
    return STUCK_AFTER_S if given is None else given


def run_table(args: argparse.Namespace) -> int:
    """Run the table; exit 2 on a config, journal or script problem, 1 when the state
    directory or its disk fails (systemd starts it again)."""
    if not stuck_after_s(args) > 0:
        print(f"cardtable run: --stuck-after {args.stuck_after}: expected seconds above 0",
              file=sys.stderr)
        return 2
    if getattr(args, "demo", False) or getattr(args, "tricks", None) is not None:
        from app.demo_table import run_demo_table

        return run_demo_table(args)
    try:
        config = load_config(args.config)
        if args.state_dir is not None:
            config = replace(config, state_dir=args.state_dir)
        script = load_script(args.script) if args.script else []
    except (ConfigError, ScriptError) as error:
        print(f"cardtable run: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"cardtable run: {error.filename}: {error.strerror}", file=sys.stderr)
        return 2
    state_dir = config.journal_path.parent
    lock = StateLock(state_dir)
    try:
        lock.acquire("a second table")
        guard_for_start(config.journal_path)
        if config.hardware is None and not script and args.no_display:
            print("cardtable run: nothing to run: no camera, buttons or panel (give --config, "
                  "see hardware/table.example.toml), no --script and --no-display",
                  file=sys.stderr)
            lock.release()
            return 2
        journal = Journal(config.journal_path)
        # SQLite opens a file this process may not write read-only, silently and for good: a
        # write tried now finds it. A lock or a full disk may pass: input waits for them.
        try:
            journal.probe()
        except JournalUnavailable as error:
            if error.reason == NOT_WRITABLE:
                journal.close()
                raise
        mark_created(config.journal_path)
    except JournalUnavailable as error:  # the disk, not the config: a restart may find it well
        lock.release()
        print(f"cardtable run: {error}; the table exits {ENVIRONMENT_EXIT} so that systemd starts "
              "it again once the journal can write", file=sys.stderr)
        return ENVIRONMENT_EXIT
    except (JournalError, JournalDamaged, TableRunning) as error:
        lock.release()
        print(f"cardtable run: {error}", file=sys.stderr)
        return 2
    except OSError as error:  # a read-only, full or vanished state directory is no bad config
        lock.release()
        problem = environment_problem(error, state_dir)
        print(f"cardtable run: {problem or f'{error.filename}: {error.strerror}'}",
              file=sys.stderr)
        return 2 if problem is None else ENVIRONMENT_EXIT
    # A script brings its own time: `{"wait": S}` lines move the table's clock on.
    clock: Callable[[], float] = ManualClock() if args.script else time.monotonic
    with lock, journal, contextlib.ExitStack() as stack:
        try:
            controller = TableController(
                journal,
                config.rules,
                config.dealer,
                seat_confirms=has_seat_pads(config),
                clock=clock,
                unreadable_prompt_s=config.vision.unreadable_prompt_s,
            )
        except JournalUnavailable as error:  # a fresh journal whose first game cannot start
            print(f"cardtable run: {error}", file=sys.stderr)
            return 1
        app = TableApp(config, controller, watch_clock=time.monotonic,
                       stuck_after_s=stuck_after_s(args))
        if not getattr(args, "no_web", False):  # else `cardtable web` serves them beside
            from app.web.service import table_services  # the web page and MQTT, as configured

            stack.enter_context(table_services(app))
        if config.web.pin is not None:  # corrections from the page, here or beside
            from app.control import control_socket

            stack.enter_context(control_socket(app))
        if args.verbose:
            app.listeners.append(print_notices)
        polls = stack.enter_context(open_devices(app))
        screen = stack.enter_context(open_screen(app, args))
        stop_on_signal(app)
        app.notifier.ready(f"game {app.controller.game_id}")
        screen.show("start")
        loop(app, args, script, [screen.poll, *polls], screen.show, clock)
        app.notifier.stopping()
    return exit_status(app)


def exit_status(app: TableApp) -> int:
    """0 when the table ran well; 1, said in the log, when a feed thread failed on the way
    or the journal refused writes."""
    failures = app.supervisor.failures()
    if failures:
        log(f"the table ran with {len(failures)} feed failure(s): " + "; ".join(failures))
    refused = app.journal_pause.failures
    if refused:
        log(f"the journal could not write {refused} time(s)"
            + (f"; still: {app.journal_pause.message}" if app.journal_pause.paused else ""))
    return 1 if failures or refused else 0


def has_seat_pads(config: AppConfig) -> bool:
    """True when seats have their own OK: shared value keys then wait for it."""
    pin_map = config.hardware.pin_map if config.hardware else None
    return pin_map is not None and any(b.seat and b.name == "OK" for b in pin_map.buttons)


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


@contextlib.contextmanager
def open_devices(app: TableApp) -> Iterator[list[Poll]]:
    """Open the configured hardware: buttons are polled, the panel is read in its own thread."""
    hardware_config = app.config.hardware
    if hardware_config is None:
        yield []
        return
    from drivers.hardware import open_hardware

    hardware = open_hardware(hardware_config)
    app.outputs = hardware.outputs
    polls: list[Poll] = []
    if hardware.buttons is not None:
        polls.append(hardware.buttons.poll)
    panel = hardware.panel
    if panel is not None:
        feed_from_thread(app, lambda: _polling(panel.poll, app), "panel")
    if hardware.camera is not None:
        vision = app.config.vision
        assert vision.calibration is not None  # load_config requires it with a camera
        from app.camera_feed import deck_notice, open_watcher, watch

        watcher = open_watcher(vision.calibration, vision.deck, vision.stable_s)
        notice = deck_notice(vision.deck)
        if notice is not None:
            log(notice)
        recorded = hardware_config.camera.fps if hardware_config.camera_kind == "recorded" else None
        running = lambda: not app.stop.is_set()  # noqa: E731
        camera = hardware.camera
        feed = lambda: watch(hardware.frame, watcher, running, recorded_fps=recorded,  # noqa: E731
                             ended=lambda: camera.ended)
        feed_from_thread(app, feed, "camera", ends=recorded is not None)
    try:
        yield polls
    finally:
        app.stop.set()
        hardware.close()


def _polling(poll: Callable[[], Sequence[Item]], app: TableApp) -> Iterator[Item | None]:
    while not app.stop.is_set():
        yield from poll()
        yield None  # alive
        time.sleep(PANEL_POLL_S)


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
