"""`cardtable run` on a recorded camera (1280x720, 10 fps): CPU against the recording's length.

    python benchmarks/bench_run.py [TRICKS]            # as fast as it goes: CPU a second of table
    python benchmarks/bench_run.py [TRICKS] --pi-box   # as root: in a box of a Pi 4 core

The demo (`cardtable demo`) prints the latency from a card lying still to the screen showing
it; the first mode measures the whole process, start-up included, as the service would run it.
`--pi-box [SHARE]` runs the table in a cgroup (v1 `cpu.cfs_quota_us`) given SHARE of one core
here (0.22: a Pi 4 core is about 4-5x slower), with the recording played as a live camera at
10 fps that drops the frames the table is too slow to take, and prints the frames a second it
read and the delay from each card lying still to the table's journal taking it (the screen is
drawn right after), and whether every card was still named by the camera.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.camera_demo import write_recording
from app.journal import Journal
from tests.harness.live_recording import KIND

CGROUP_ROOT = Path("/sys/fs/cgroup/cpu")
"""Where cgroup v1's cpu controller is mounted."""
LATENCY_GOAL_S = 1.0
"""The most a card may take from lying still to the journal on a Pi 4 core."""
PERIOD_US = 100_000


def as_fast_as_it_goes(tricks: int) -> None:
    """Print the CPU of a run that reads the recording as fast as it decodes it."""
    with tempfile.TemporaryDirectory() as folder:
        config, presses = write_recording(Path(folder) / "rec", max_tricks=tricks)
        frames = len(list((config.parent / "frames").glob("frame_*.jpg")))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "app", "run", "--config", str(config), "--script",
             str(presses), "--no-display", "--state-dir", str(Path(folder) / "state")],
            check=True, stdout=subprocess.DEVNULL,
        )
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    seconds = frames / 10
    print(f"recording: {frames} frames at 1280x720 = {seconds:.0f} s of table at 10 fps")
    print(f"cardtable run: {wall:.1f} s wall, {cpu:.1f} s CPU (decoding JPEG frames included)")
    print(f"CPU use when paced at 10 fps: {100 * cpu / seconds:.0f}% of one core")
    print(f"peak memory: {after.ru_maxrss / 1024:.0f} MB")


def make_box(share: float) -> Path:
    """A cgroup given `share` of one core; exits naming the problem where none can be made."""
    box = CGROUP_ROOT / f"cardtable-pi-box-{os.getpid()}"
    try:
        box.mkdir()
        (box / "cpu.cfs_period_us").write_text(str(PERIOD_US))
        (box / "cpu.cfs_quota_us").write_text(str(round(share * PERIOD_US)))
    except OSError as error:
        sys.exit(f"bench_run: cannot make a cgroup under {CGROUP_ROOT} ({error.strerror}): "
                 "--pi-box needs root and cgroup v1's cpu controller")
    return box


def in_pi_box(tricks: int, share: float) -> None:
    """Print frames a second and card-to-journal delays of the table in a Pi-sized box."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        config, presses = write_recording(root / "rec", max_tricks=tricks)
        frames = config.parent / "frames"
        text = config.read_text(encoding="utf-8").replace(
            'kind = "recorded"\npath = "frames"', f'kind = "{KIND}"\npath = "{frames}"')
        config.write_text(text, encoding="utf-8")
        landed = {(e["seat"], e["card"]): e["t"] for e in map(json.loads, (
            frames / "truth.jsonl").read_text(encoding="utf-8").splitlines())
            if e["event"] == "placed"}
        stats, state = root / "camera.json", root / "state"
        box = make_box(share)
        try:
            table = subprocess.Popen(
                [sys.executable, "-m", "tests.harness.live_recording", str(stats), "run",
                 "--config", str(config), "--script", str(presses), "--no-display",
                 "--state-dir", str(state)],
                stdout=subprocess.DEVNULL, cwd=Path(__file__).resolve().parent.parent,
                preexec_fn=lambda: (box / "cgroup.procs").write_text(str(os.getpid())),
            )
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            seen = wait_for_the_end(stats, table)
            table.send_signal(signal.SIGINT)
            table.wait(timeout=60)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        finally:
            box.rmdir()
        report(seen, landed, state / "journal.sqlite", share, cpu)


def wait_for_the_end(stats: Path, table: subprocess.Popen[bytes]) -> dict[str, float]:
    """The live camera's figures once its recording has ended (and 3 s more for the table)."""
    while table.poll() is None:
        if stats.exists() and json.loads(stats.read_text(encoding="utf-8"))["ended"]:
            time.sleep(3.0)
            break
        time.sleep(0.5)
    if not stats.exists():
        sys.exit("bench_run: the table read no frame")
    figures: dict[str, float] = json.loads(stats.read_text(encoding="utf-8"))
    return figures


def report(seen: dict[str, float], landed: dict[tuple[str, str], float], journal: Path,
           share: float, cpu: float) -> None:
    """Print the figures of a boxed run."""
    with Journal(journal) as kept:
        game = kept.latest_game()
    with closing(sqlite3.connect(f"file:{journal}?mode=ro", uri=True)) as db:
        rows = db.execute(  # each event's commit time, which the journal's API leaves out
            "SELECT at, event, source FROM events WHERE game_id = ? ORDER BY seq",
            (game,)).fetchall()
    delays: list[float] = []
    late: list[str] = []
    named: set[tuple[str, str]] = set()
    by_people = 0
    for at, event, source in rows:
        card = json.loads(event)
        if card.get("type") != "card":
            continue
        key = (card["seat"], card["card"])
        if source != "camera":
            by_people += 1
            continue
        named.add(key)
        if key in landed:
            taken = datetime.fromisoformat(at).timestamp() - seen["started"]
            delays.append(taken - landed[key])
            if delays[-1] > LATENCY_GOAL_S:
                late.append(f"{card['seat']} {card['card']} {delays[-1]:.2f} s")
    duration = seen["frames"] / 10
    print(f"box: {share:.0%} of one core here (a Pi 4 core is about 4-5x slower)")
    print(f"recording: {seen['frames']:.0f} frames, {duration:.0f} s at 10 fps, played live")
    print(f"frames read: {seen['read']:.0f} ({seen['read'] / duration:.1f} a second), "
          f"dropped as late: {seen['dropped']:.0f}")
    print(f"CPU used in the box, start-up included: {cpu:.1f} s")
    missing = sorted(set(landed) - named)
    print(f"cards named by the camera: {len(named & set(landed))} of {len(landed)}"
          + (f"; not named: {', '.join(c for _, c in missing)}" if missing else "")
          + (f"; by the players: {by_people}" if by_people else ""))
    if delays:
        print(f"card lying still to the journal taking it: median {statistics.median(delays):.2f}"
              f" s, worst {max(delays):.2f} s (0.3 s stability window included)")
        print(f"cards taken after more than {LATENCY_GOAL_S:.0f} s: {len(late)}"
              + (f" ({', '.join(late)})" if late else ""))


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tricks", nargs="?", type=int, default=6, help="tricks recorded (6)")
    parser.add_argument("--pi-box", nargs="?", type=float, const=0.22, metavar="SHARE",
                        help="run in a cgroup given this share of one core (0.22)")
    args = parser.parse_args()
    if args.pi_box is None:
        as_fast_as_it_goes(args.tricks)
    elif not 0 < args.pi_box <= 1:
        parser.error(f"--pi-box {args.pi_box}: expected a share of one core, above 0 and at most 1")
    else:
        in_pi_box(args.tricks, args.pi_box)


if __name__ == "__main__":
    main()
