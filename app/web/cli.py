"""The subcommands `import`, `web` and `club`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    """Add `import`, `web` and `club` to the `cardtable` command."""
    imported = subparsers.add_parser("import", help="add a table log to the journal as a game")
    imported.add_argument("log", type=Path, help="the table log (JSON Lines)")
    _journal_options(imported)
    imported.set_defaults(handler=run_import)


def _journal_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, help="the table's TOML config")
    parser.add_argument(
        "--state-dir", type=Path,
        help="where the journal lives (default: $CARDTABLE_STATE_DIR, else [state] dir of "
             "the config, else ~/.local/state/cardtable)")


def _state_dir(args: argparse.Namespace) -> Path:
    from app.config import load_config

    config = load_config(args.config)
    state_dir: Path = (args.state_dir or config.state_dir).expanduser()
    return state_dir


def run_import(args: argparse.Namespace) -> int:
    """Check the whole log, then add it to the journal as a closed game; exit 2 if invalid."""
    from app.config import ConfigError
    from app.import_log import import_game, read_game_log
    from app.journal import Journal, JournalError
    from app.state_lock import StateLock, TableRunning
    from table import LogError

    try:
        events, state = read_game_log(args.log)
    except OSError as error:
        print(f"cardtable import: cannot read {args.log}: {error.strerror}", file=sys.stderr)
        return 2
    except LogError as error:
        print(f"cardtable import: {args.log}: {error}; nothing was imported", file=sys.stderr)
        return 2
    try:
        state_dir = _state_dir(args)
        if state_dir.exists() and not state_dir.is_dir():
            raise JournalError(f"the state directory {state_dir} is a file, not a folder")
        lock = StateLock(state_dir)
        lock.acquire("import")
        with lock, Journal(state_dir / "journal.sqlite") as journal:
            result = import_game(journal, events, state)
    except (ConfigError, JournalError, TableRunning) as error:
        print(f"cardtable import: {error}", file=sys.stderr)
        return 2
    outcome = f"{state.winner} won" if state.winner else "no winner"
    print(f"game {result.game_id}: {result.events} events, {len(state.hands)} hands, "
          f"{_score(state)}, {outcome}")
    if result.resumed_game is not None:
        print(f"the game in progress is now game {result.resumed_game}")
    return 0


def _score(state: Any) -> str:
    from table import Team

    return f"NS {state.scores[Team.NS]} EW {state.scores[Team.EW]}"
