"""`cardtable replay` and `cardtable simulate`: the engine on table logs."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    """Add `replay` and `simulate` to the `cardtable` command."""
    replay = subparsers.add_parser("replay", help="replay a table log and tell the game")
    replay.add_argument("log", type=Path, help="a table log (JSON Lines)")
    replay.add_argument("--json", action="store_true", help="print the JSON summary")
    replay.set_defaults(handler=run_replay)

    simulate = subparsers.add_parser("simulate", help="write random legal game logs")
    simulate.add_argument("--games", type=int, default=1, help="how many games (default 1)")
    simulate.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    simulate.add_argument("--out", type=Path, required=True, help="folder for the logs")
    simulate.add_argument(
        "--renege-rate",
        type=float,
        default=0.0,
        help="chance that a player who could follow plays off-suit instead (default 0)",
    )
    simulate.add_argument(
        "--rules", default="{}", help="rule options as JSON, e.g. '{\"joker\": true}'"
    )
    simulate.set_defaults(handler=run_simulate)


def run_replay(args: argparse.Namespace) -> int:
    """Replay a log: a readable account, or the JSON summary; exit 2 on an invalid log."""
    from table.errors import LogError
    from table.log import read_log
    from table.report import describe_game
    from table.summary import summary

    try:
        state = read_log(args.log)
    except LogError as error:
        print(str(error), file=sys.stderr)
        return 2
    except OSError as error:
        print(f"cannot read {args.log}: {error.strerror}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(summary(state), ensure_ascii=False))
    else:
        print(describe_game(state))
    return 0


def run_simulate(args: argparse.Namespace) -> int:
    """Write `--games` simulated logs into `--out`."""
    from table.errors import RulesError
    from table.log import dump_events
    from table.rules import Rules
    from table.simulate import simulate_game

    if args.games < 1:
        print(f"--games must be at least 1, not {args.games}", file=sys.stderr)
        return 2
    if not 0.0 <= args.renege_rate <= 1.0:
        print(f"--renege-rate must be between 0 and 1, not {args.renege_rate}", file=sys.stderr)
        return 2
    try:
        rules = Rules.from_mapping(json.loads(args.rules))
    except (ValueError, RecursionError) as error:
        reason = str(error) if isinstance(error, RulesError) else "not a JSON object of options"
        print(f"--rules: {reason}", file=sys.stderr)
        return 2
    if args.out.exists() and not args.out.is_dir():
        print(f"--out {args.out} is a file, not a folder for the logs", file=sys.stderr)
        return 2
    for index in range(args.games):
        game = simulate_game(seed=args.seed + index, rules=rules, renege_rate=args.renege_rate)
        path = args.out / f"game_{args.seed + index:05d}.jsonl"
        try:
            args.out.mkdir(parents=True, exist_ok=True)
            path.write_text(dump_events(game.events), encoding="utf-8")
        except OSError as error:
            print(f"--out {args.out}: cannot write {path.name}: {error.strerror}", file=sys.stderr)
            return 2
        print(path)
        if not game.finished:
            print(f"{path}: no team reached the target within the hand limit", file=sys.stderr)
    return 0
