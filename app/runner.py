"""`cardtable run`: build the table from the config and run the loop until stopped."""

from __future__ import annotations

import argparse
import signal
import sys
import time
from pathlib import Path
from types import FrameType

from app.config import AppConfig, ConfigError, load_config
from app.controller import Notice, TableController
from app.journal import Journal, JournalError
from app.run import TableApp, headless_writer
from app.script import ScriptError, load_script

TICK_S = 0.01


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `cardtable run`."""
    parser.add_argument("--config", type=Path, help="the table's TOML config (default: none)")
    parser.add_argument("--state-dir", type=Path, help="where the journal lives (overrides config)")
    parser.add_argument("--script", type=Path, help="scripted presses and sightings (JSON Lines)")
    parser.add_argument("--script-from", type=int, default=1, help="first script line to play")
    parser.add_argument("--headless", type=Path, metavar="OUTDIR", help="write a PNG per step")
    parser.add_argument("--no-display", action="store_true", help="run without any screen")
    parser.add_argument("--max-seconds", type=float, help="stop after this long")
    parser.add_argument("--verbose", action="store_true", help="print every notice on stderr")


def run_table(args: argparse.Namespace) -> int:
    """Run the table; exit 2 on a config, journal or script problem."""
    try:
        config = load_config(args.config)
        if args.state_dir is not None:
            config = AppConfig(**{**config.__dict__, "state_dir": args.state_dir})
        script = load_script(args.script) if args.script else []
        journal = Journal(config.journal_path)
    except (ConfigError, ScriptError, JournalError) as error:
        print(f"cardtable run: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"cardtable run: {error.filename}: {error.strerror}", file=sys.stderr)
        return 2
    with journal:
        controller = TableController(journal, config.rules, config.dealer)
        app = TableApp(config, controller)
        size = (config.display.width, config.display.height)
        write_png = headless_writer(args.headless, size) if args.headless else None
        if args.verbose:
            app.listeners.append(print_notices)
        stop_on_signal(app)
        app.notifier.ready(f"game {controller.game_id}")
        if write_png:
            write_png(app, "start")
        started = time.monotonic()
        pending = [line for line in script if line.number >= args.script_from]
        while not app.stop.is_set():
            if pending:
                line = pending.pop(0)
                notices = app.handle(line.item)
                print(f"ack {line.number} {len(controller.state.log)}", flush=True)
                if write_png and notices:
                    write_png(app, f"line{line.number}_{notices[-1].message}")
            elif args.script:
                break
            app.drain()
            app.keep_alive()
            if args.max_seconds is not None and time.monotonic() - started >= args.max_seconds:
                break
            if not pending:
                time.sleep(TICK_S)
        app.notifier.stopping()
    return 0


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
