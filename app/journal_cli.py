"""`cardtable journal check|recover`: what of a journal is readable, and a rebuilt copy."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    """Add the `journal` command group."""
    journal = subparsers.add_parser("journal", help="check a journal, or rebuild a damaged one")
    actions = journal.add_subparsers(dest="journal_command", metavar="ACTION", required=True)
    check = actions.add_parser(
        "check", help="say what of a journal is readable (exit 0 sound, 1 damaged or not readable "
                 "here: a read-only folder, a lock held, a disk error)")
    _where(check)
    check.set_defaults(handler=run_check)
    recover = actions.add_parser(
        "recover", help="write each game's longest valid part into a fresh journal; "
                        "the original is kept as it is")
    _where(recover)
    recover.add_argument("--out", type=Path, required=True, metavar="NEW.sqlite",
                         help="the fresh journal to write (must not exist)")
    recover.set_defaults(handler=run_recover)


def _where(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("journal", nargs="?", type=Path, metavar="JOURNAL",
                        help="the journal file (default: journal.sqlite in the state directory)")
    parser.add_argument("--config", type=Path, help="the table's TOML config")
    parser.add_argument("--state-dir", type=Path, help="where the journal lives")


def _journal_path(args: argparse.Namespace) -> Path:
    if args.journal is not None:
        return Path(args.journal)
    from app.config import load_config

    config = load_config(args.config)
    state_dir = args.state_dir or config.state_dir
    return Path(state_dir).expanduser() / "journal.sqlite"


def run_check(args: argparse.Namespace) -> int:
    """Print the journal's health."""
    from app.config import ConfigError
    from app.journal import JournalUnavailable
    from app.journal_check import check_journal

    try:
        path = _journal_path(args)
    except ConfigError as error:
        print(error, file=sys.stderr)
        return 2
    if not path.is_file():
        print(f"{path}: no such journal file", file=sys.stderr)
        return 2
    try:
        health = check_journal(path)
    except JournalUnavailable as error:  # no verdict on the file: the disk or a lock refused
        print(f"cardtable journal check: {error}", file=sys.stderr)
        return 1
    print("\n".join(health.lines()))
    return 0 if health.is_sound else 1


def run_recover(args: argparse.Namespace) -> int:
    """Rebuild the valid part of a journal into a new file."""
    from app.config import ConfigError
    from app.journal import JournalUnavailable
    from app.journal_check import JournalDamaged, recover_journal

    try:
        path = _journal_path(args)
        if not path.is_file():
            print(f"{path}: no such journal file", file=sys.stderr)
            return 2
        health = recover_journal(path, args.out)
    except JournalUnavailable as error:
        print(f"cardtable journal recover: {error}", file=sys.stderr)
        return 1
    except (ConfigError, JournalDamaged) as error:
        print(error, file=sys.stderr)
        return 2
    print("\n".join(health.lines()))
    print(f"the original {path} is unchanged; to use the recovered journal, stop the table and "
          f"move {args.out} to {path}")
    return 0
