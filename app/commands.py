"""The `cardtable` subcommands: where each is registered, and the app's own commands.

How a command is added (tests/app/test_app_command_imports.py holds every command to it):

- Its arguments are registered at start-up for every command, so registering imports only the
  standard library: either add it to `register` below, or give a module of its own a
  `register(subparsers)` and list that module in COMMAND_MODULES.
- Its handler, `handler(args) -> exit status` set with `set_defaults(handler=...)`, imports
  the module that does the work inside its body. `cardtable replay` so never loads the
  runner, the drivers, pygame, OpenCV or numpy. A handler may raise an `OSError` or a
  package's base error: app/cli.py prints it as one line and exits 2.
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

DEMO_LOG = Path(__file__).with_name("data") / "demo_game.jsonl"

# The modules whose `register(subparsers)` adds subcommands, in the order of `cardtable --help`.
COMMAND_MODULES = (
    "app.replay_cli",
    "app.vision_cli",
    "app.deck_cli",
    "app.vision_live_cli",
    "app.hardware_cli",
    "app.display_cli",
    "app.commands",
    "app.journal_cli",
    "app.web_cli",
)


def register(subparsers: Any) -> None:
    """Add `demo`, `run`, `games`, `export` and `new-game` to the `cardtable` command."""
    demo = subparsers.add_parser(
        "demo", help="a recorded table through camera recognition, referee and screen"
    )
    demo.add_argument("--headless", type=Path, metavar="OUTDIR", default=Path("demo-out"),
                      help="where the screens (PNG) and the table log go (default demo-out)")
    demo.add_argument("--window", action="store_true", help="show the screen in a window too")
    demo.add_argument("--tricks", type=int, help="stop after this many tricks")
    demo.add_argument("--real-time", action="store_true",
                      help="play the recording at its own pace (10 frames a second, as a camera "
                           "gives them) instead of as fast as it is read")
    demo.add_argument("--narrate", action="store_true",
                      help="only tell a table log event by event through the engine")
    demo.add_argument("--log", type=Path, default=DEMO_LOG, help="the log for --narrate")
    demo.set_defaults(handler=run_demo)

    run = subparsers.add_parser("run", help="run the table")
    add_run_arguments(run)
    run.set_defaults(handler=run_table)

    games = subparsers.add_parser("games", help="list the games in the journal")
    games.add_argument("--misreads", action="store_true",
                       help="per game, the cards the camera got wrong or could not read")
    journal_options(games)
    games.set_defaults(handler=run_games)

    export = subparsers.add_parser("export", help="write a game as a table log")
    export.add_argument("game", type=int, help="the game's number (see `cardtable games`)")
    export.add_argument("--out", type=Path, help="file to write (default: standard output)")
    journal_options(export)
    export.set_defaults(handler=run_export)

    new_game = subparsers.add_parser("new-game", help="start a new game now")
    journal_options(new_game)
    new_game.set_defaults(handler=run_new_game)


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `cardtable run`."""
    journal_options(parser, "the table's TOML config (default: none)")
    parser.add_argument("--script", type=Path, help="scripted presses and sightings (JSON Lines)")
    parser.add_argument("--script-from", type=int, default=1, help="first script line to play")
    parser.add_argument("--headless", type=Path, metavar="OUTDIR", help="write a PNG per step")
    parser.add_argument("--no-display", action="store_true", help="run without any screen")
    parser.add_argument("--max-seconds", type=float, help="stop after this long")
    parser.add_argument("--verbose", action="store_true", help="print every notice on stderr")
    parser.add_argument(
        "--no-web", action="store_true",
        help="serve neither the web page nor MQTT from the table: `cardtable web` does it beside "
             "(the cardtable-web service)")
    parser.add_argument(
        "--stuck-after", type=float, metavar="SECONDS",
        help="a camera or panel thread silent this long is restarted (default 10)")
    parser.add_argument("--demo", action="store_true",
                        help="play the demo's recorded table (camera frames and buttons) instead "
                             "of this table's devices; the journal goes to demo-out/table")
    parser.add_argument("--tricks", type=int, help="with --demo: stop after this many tricks")
    parser.add_argument("--real-time", action="store_true",
                        help="with --demo: play the recording at its own pace (10 frames a "
                             "second) instead of as fast as it is read")


def run_table(args: argparse.Namespace) -> int:
    """Run the table (app/runner.py)."""
    from app.runner import run_table as run

    return run(args)


def journal_options(
    parser: argparse.ArgumentParser, config_help: str = "the table's TOML config"
) -> None:
    """`--config` and `--state-dir`, for every command that finds a table's journal."""
    parser.add_argument("--config", type=Path, help=config_help)
    parser.add_argument(
        "--state-dir", type=Path,
        help="where the journal lives (default: $CARDTABLE_STATE_DIR, else [state] dir of "
             "the config, else ~/.local/state/cardtable)")


def _open_journal(args: argparse.Namespace, create: bool = False) -> Any:
    """The config and the journal; a command that only reads never creates one."""
    from app.config import load_config
    from app.journal import Journal, JournalError

    config = load_config(args.config)
    state_dir = (args.state_dir or config.state_dir).expanduser()
    path = state_dir / "journal.sqlite"
    if state_dir.exists() and not state_dir.is_dir():
        raise JournalError(f"the state directory {state_dir} is a file, not a folder")
    if not create and not path.is_file():
        raise JournalError(f"no journal in {state_dir}: no game has been played there "
                           "(give --state-dir or --config to read another table's)")
    return config, Journal(path)


def _reporting_errors(command: Callable[[argparse.Namespace], int]) -> Callable[..., int]:
    """Run a journal command; a config or journal problem is printed and exits 2."""

    @functools.wraps(command)
    def run(args: argparse.Namespace) -> int:
        from app.config import ConfigError
        from app.journal import JournalError

        try:
            return command(args)
        except (ConfigError, JournalError) as error:
            print(error, file=sys.stderr)
            return 2

    return run


@_reporting_errors
def run_games(args: argparse.Namespace) -> int:
    """List the journal's games."""
    _, journal = _open_journal(args)
    with journal:
        records = journal.games()
        current = journal.unfinished_game()
        if args.misreads and records:
            from app.misreads import misreads_report

            print("\n".join(misreads_report(journal)))
            return 0
    if not records:
        print("no games yet")
        return 0
    print(f"{'game':>4}  {'started (UTC)':<16}  {'NS':>3}  {'EW':>3}  {'events':>6}  status")
    for record in records:
        status = (
            f"{record.winner} won"
            if record.winner
            else ("in progress" if record.id == current else "abandoned")
        )
        print(
            f"{record.id:>4}  {record.started_at[:16].replace('T', ' '):<16}  "
            f"{record.score_ns:>3}  {record.score_ew:>3}  {record.events:>6}  {status}"
        )
    return 0


@_reporting_errors
def run_export(args: argparse.Namespace) -> int:
    """Write one game as a table log."""
    _, journal = _open_journal(args)
    with journal:
        text = journal.export(args.game)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


@_reporting_errors
def run_new_game(args: argparse.Namespace) -> int:
    """Close the game in progress and start a fresh one with the configured rules."""
    from app.controller import TableController
    from app.state_lock import StateLock, TableRunning

    config, journal = _open_journal(args, create=True)
    lock = StateLock(journal.path.parent)
    try:
        lock.acquire("new-game")
    except TableRunning as error:
        journal.close()
        print(f"cardtable new-game: {error}; at the table, hold UNDO for 2 s, then OK",
              file=sys.stderr)
        return 2
    with lock, journal:
        controller = TableController(journal, config.rules, config.dealer)
        if controller.state.hands or controller.state.winner:
            controller.new_game()
        print(f"game {controller.game_id} ready, {controller.state.dealer} deals")
    return 0


def run_demo(args: argparse.Namespace) -> int:
    """The camera demo, or with --narrate the engine-only account of a log."""
    if args.narrate:
        return run_narration(args)
    from app.camera_demo import run_demo as camera_demo

    if args.tricks is not None and args.tricks < 1:
        print(f"--tricks must be at least 1, not {args.tricks}", file=sys.stderr)
        return 2
    result = camera_demo(args.headless, headless=not args.window, max_tricks=args.tricks,
                         real_time=args.real_time)
    print(result.figures())
    print(f"screens: {args.headless / 'screens'} ({result.screens} PNG files)")
    return 0


def run_narration(args: argparse.Namespace) -> int:
    """Feed a recorded game to the engine event by event and announce what happens."""
    from app.narrate import announce
    from table import GameStarted, GameState, InvalidEvent, LogError
    from table.log import log_lines, parse_lines

    try:
        lines = log_lines(args.log)
    except OSError as error:
        print(f"cannot read {args.log}: {error.strerror}", file=sys.stderr)
        return 2
    except LogError as error:
        print(str(error), file=sys.stderr)
        return 2
    state: GameState | None = None
    try:
        for number, event in parse_lines(lines):
            if state is None:
                if not isinstance(event, GameStarted):
                    raise LogError(number, "the first line must be a 'game' event")
                state = GameState(event)
                rules = event.rules.to_mapping() or "defaults"
                print(f"New game, dealer {event.dealer}; rules: {rules}")
                continue
            hands_before = len(state.completed)
            try:
                state.apply(event)
            except InvalidEvent as error:
                raise LogError(number, error.reason, error.kind) from None
            for line in announce(state, event, hands_before):
                print(line)
    except LogError as error:
        print(str(error), file=sys.stderr)
        return 2
    if state is None:
        print("line 1: the log is empty: the first line must be a 'game' event", file=sys.stderr)
        return 2
    return 0
