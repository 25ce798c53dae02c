"""The `cardtable` command: one entry point whose subcommands come from each package."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Each module here defines `register(subparsers)`; it must import nothing heavy at module level.
COMMAND_MODULES = (
    "table.cli",
    "app.vision_cli",
    "app.deck_cli",
    "app.vision_live_cli",
    "drivers.cli",
    "display.cli",
    "app.commands",
)


def build_parser() -> argparse.ArgumentParser:
    """Build the parser with every package's subcommands."""
    parser = argparse.ArgumentParser(prog="cardtable", description="Bid Euchre table controller")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name != name:
                raise
            continue
        module.register(subparsers)
    return parser


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
    return status


if __name__ == "__main__":
    sys.exit(main())
