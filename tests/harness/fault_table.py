"""The fault table: the faults chosen, each against a real `cardtable run` playing one game on
a pty panel, one row each (tests/harness/faultcheck.py, faultcheck_threads.py), as Markdown.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

from tests.harness.faultcheck import (
    Row,
    build_game,
    fault_ack_lost,
    fault_camera,
    fault_damaged_journal,
    fault_full_disk,
    fault_garbage,
    fault_kills,
    fault_locked_journal,
    fault_read_only_journal,
    fault_second_instance,
    fault_unplug_and_reboot,
)
from tests.harness.faultcheck_threads import fault_camera_thread

FAULTS = ("kills", "ack", "garbage", "panel", "second", "damaged", "full", "readonly", "locked",
          "camera", "thread")


def fault_check(
    seed: int = 3,
    kills: int = 20,
    limit: int | None = None,
    faults: tuple[str, ...] = FAULTS,
    keep: Path | None = None,
) -> list[Row]:
    """Run the chosen faults on one game; one row each (three for a damaged journal)."""
    rng = random.Random(seed)
    game = build_game(seed, limit)
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as folder:
        root = keep or Path(folder)
        root.mkdir(parents=True, exist_ok=True)
        if "kills" in faults:
            rows.append(fault_kills(game, root, kills, rng))
        if "ack" in faults:
            rows.append(fault_ack_lost(game, root, kills, rng))
        if "garbage" in faults:
            rows.append(fault_garbage(game, root, rng))
        if "panel" in faults:
            rows.append(fault_unplug_and_reboot(game, root, rng))
        if "second" in faults:
            rows.append(fault_second_instance(game, root))
        if "damaged" in faults:
            rows.extend(fault_damaged_journal(game, root, rng))
        if "full" in faults:
            rows.append(fault_full_disk(game, root))
        if "readonly" in faults:
            rows.append(fault_read_only_journal(game, root))
        if "locked" in faults:
            rows.append(fault_locked_journal(game, root))
        if "camera" in faults:
            rows.append(fault_camera(game, root))
        if "thread" in faults:
            rows += [fault_camera_thread(game, root, how) for how in ("raise", "hang")]
    return rows


def format_rows(rows: list[Row]) -> str:
    """The fault table as Markdown."""
    lines = ["| fault | what the table did | events acknowledged | events lost |",
             "|---|---|---|---|"]
    lines += [f"| {r.fault} | {r.did} | {r.acknowledged} | {r.lost} |" for r in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """`python benchmarks/fault_test.py [--seed S] [--kills N] [--steps N] [--only F,...]`."""
    parser = argparse.ArgumentParser(prog="fault_test.py", description=__doc__)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--steps", type=int, help="play only the first N steps of the game")
    parser.add_argument("--only",
                        help=f"comma-separated: {', '.join(FAULTS)}")
    parser.add_argument("--keep", type=Path, help="keep the state directories and logs here")
    args = parser.parse_args(argv)
    chosen = tuple(args.only.split(",")) if args.only else FAULTS
    unknown = sorted(set(chosen) - set(FAULTS))
    if unknown or args.kills < 0 or (args.steps is not None and args.steps < 4):
        what = f"unknown fault {unknown[0]!r}" if unknown else "--kills >= 0, --steps >= 4"
        print(f"fault_test.py: {what}", file=sys.stderr)
        return 2
    started = time.monotonic()
    rows = fault_check(args.seed, args.kills, args.steps, chosen, args.keep)
    print(format_rows(rows))
    steps = len(build_game(args.seed, args.steps).steps)
    print(f"seed {args.seed}, {steps} steps, {time.monotonic() - started:.0f} s; "
          f"events lost: {sum(r.lost for r in rows)}, faults failed: "
          f"{sum(not r.ok for r in rows)}")
    return 0 if all(r.ok for r in rows) else 1

