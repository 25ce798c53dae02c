"""`cardtable run`: build the table from the config and run the loop until stopped."""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

from app.config import AppConfig, ConfigError, load_config
from app.controller import TableController
from app.journal import NOT_WRITABLE, Journal, JournalError, JournalUnavailable
from app.journal_check import JournalDamaged, guard_for_start, mark_created
from app.run import Item, Poll, TableApp, feed_from_thread, log
from app.screens import open_screen
from app.script import ScriptError, load_script
from app.state_dir import ENVIRONMENT_EXIT, environment_problem
from app.state_lock import StateLock, TableRunning
from app.supervisor import STUCK_AFTER_S
from app.table_loop import loop, print_notices, stop_on_signal
from drivers.camera import RUNS_OUT
from drivers.clock import ManualClock

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
    if (getattr(args, "demo", False) or getattr(args, "tricks", None) is not None
            or getattr(args, "real_time", False)):
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

        watcher = open_watcher(vision.calibration, vision.deck, vision.stable_s,
                               app.config.rules.copies)
        notice = deck_notice(vision.deck)
        if notice is not None:
            log(notice)
        recorded = hardware_config.camera.fps if hardware_config.camera_kind == "recorded" else None
        runs_out = hardware_config.camera_kind in RUNS_OUT
        running = lambda: not app.stop.is_set()  # noqa: E731
        camera = hardware.camera
        feed = lambda: watch(hardware.frame, watcher, running, recorded_fps=recorded,  # noqa: E731
                             ended=lambda: camera.ended, runs_out=runs_out)
        feed_from_thread(app, feed, "camera", ends=runs_out)
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
