"""The `cardtable` command: one entry point; app/commands.py says where subcommands come from."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Any

from app.commands import COMMAND_MODULES


def version() -> str:
    """The installed version of cardtable (the source tree's when it is not installed)."""
    from importlib import metadata  # slow to import: only `--version` pays for it

    try:
        return metadata.version("cardtable")
    except metadata.PackageNotFoundError:
        return "0+unknown"


def build_parser() -> argparse.ArgumentParser:
    """Build the parser with the subcommands of every module in COMMAND_MODULES."""
    parser = argparse.ArgumentParser(prog="cardtable", description="Bid Euchre table controller")
    parser.add_argument("--version", action=VersionAction, help="show the version and exit")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name != name:
                raise
            continue
        module.register(subparsers)
    describe_subcommands(subparsers)
    return parser


class VersionAction(argparse.Action):
    """`--version`: print the version and exit, looking it up only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        print(f"cardtable {version()}")
        parser.exit()


def describe_subcommands(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Give every subcommand (and every action of a command group) its help line as description."""
    helps = {action.dest: action.help for action in subparsers._choices_actions}
    for name, command in subparsers.choices.items():
        if command.description is None and helps.get(name):
            command.description = helps[name]
        for action in command._actions:
            if isinstance(action, argparse._SubParsersAction):
                describe_subcommands(action)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        status: int = handler(args)
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away, e.g. `| head`
        return 0
    except OSError as error:
        print(f"cardtable {args.command}: {os_problem(error)}", file=sys.stderr)
        return 2
    except user_errors() as error:
        print(f"cardtable {args.command}: {error}", file=sys.stderr)
        return 2
    return status


def os_problem(error: OSError) -> str:
    """A file system or device error as a person reads it: the path, then what went wrong."""
    if error.filename is not None:
        return f"{error.filename}: {error.strerror or error}"
    return str(error)


def user_errors() -> tuple[type[Exception], ...]:
    """The packages' base errors: each names the bad input, so it is shown without a traceback."""
    from app.config import ConfigError
    from app.journal import JournalError
    from app.script import ScriptError
    from display.errors import DisplayError
    from drivers.errors import DriverError
    from table.errors import TableError
    from vision.api import VisionError

    return (ConfigError, JournalError, ScriptError, DisplayError, DriverError, TableError,
            VisionError)


if __name__ == "__main__":
    sys.exit(main())
