"""Application subcommands: `demo`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

DEMO_LOG = Path(__file__).with_name("data") / "demo_game.jsonl"


def register(subparsers: Any) -> None:
    """Add `demo` to the `cardtable` command."""
    demo = subparsers.add_parser("demo", help="play a recorded game through the engine")
    demo.add_argument("--log", type=Path, default=DEMO_LOG, help="a table log to play")
    demo.set_defaults(handler=run_demo)


def run_demo(args: argparse.Namespace) -> int:
    """Feed a recorded game to the engine event by event and announce what happens."""
    from app.narrate import announce
    from table import GameStarted, GameState, InvalidEvent
    from table.log import parse_lines

    try:
        with args.log.open(encoding="utf-8") as handle:
            lines = handle.readlines()
    except OSError as error:
        print(f"cannot read {args.log}: {error.strerror}", file=sys.stderr)
        return 2
    state: GameState | None = None
    for number, event in parse_lines(lines):
        if state is None:
            if not isinstance(event, GameStarted):
                print(f"line {number}: the first line must be a 'game' event", file=sys.stderr)
                return 2
            state = GameState(event)
            print(
                f"New game, dealer {event.dealer}; rules: {event.rules.to_mapping() or 'defaults'}"
            )
            continue
        hands_before = len(state.completed)
        try:
            state.apply(event)
        except InvalidEvent as error:
            print(f"line {number}: {error.reason}", file=sys.stderr)
            return 2
        for line in announce(state, event, hands_before):
            print(line)
    return 0
