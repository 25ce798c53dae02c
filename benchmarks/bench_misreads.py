"""Misread and unreadable cards put right at the table: simulated games, the real referee and
journal, a fake camera that fails now and then, and players answering the table as people would
(the policy is in tests/harness/misread_sim.py). Prints one line; exits 0 only when every game
ends with the true score and no false renege stands.

    .venv/bin/python benchmarks/bench_misreads.py [--games 200] [--p-unreadable 0.05]
        [--p-wrong 0.01] [--renege-rate 0.0]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.harness.misread_sim import run_games, summary_line


def main(argv: list[str] | None = None) -> int:
    """Run the games and print the summary line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--p-unreadable", type=float, default=0.05)
    parser.add_argument("--p-wrong", type=float, default=0.01)
    parser.add_argument("--renege-rate", type=float, default=0.0,
                        help="true reneges the simulated players make (each alarm is accepted)")
    args = parser.parse_args(argv)
    for name in ("p_unreadable", "p_wrong", "renege_rate"):
        value = getattr(args, name)
        if not 0 <= value <= 1:
            parser.error(f"--{name.replace('_', '-')} {value}: expected a chance from 0 to 1")
    if args.p_unreadable + args.p_wrong > 1:
        parser.error("--p-unreadable and --p-wrong together exceed 1")
    if args.games < 1:
        parser.error(f"--games {args.games}: expected at least 1")
    results = run_games(args.games, args.p_unreadable, args.p_wrong, args.renege_rate)
    print(summary_line(results))
    ok = all(result.true_score for result in results)
    return 0 if ok and not any(result.false_reneges for result in results) else 1


if __name__ == "__main__":
    sys.exit(main())
