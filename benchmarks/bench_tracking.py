"""Tracking speed and faithfulness on synthetic hands at 1280x720, one core, recognition included.

Each seed's first hand of a simulated game is rendered with every effect on (kept as JPEG in
memory, not timed), then tracked twice: as shipped (recognition rerun only when the view
changes) and with recognition on every frame. Prints frames per second, per-frame times,
the delay of each report, and the comparison with the true events.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

# One core: numpy's BLAS is held to one thread before numpy loads (OpenCV's is set in main).
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from table.log import dump_events  # noqa: E402
from table.simulate import simulate_game  # noqa: E402
from tools.table_synth import SynthConfig, TableScene, compare_events, tricks_from_log  # noqa: E402
from vision.live import LiveConfig, TableWatcher  # noqa: E402
from vision.model import GlyphModel  # noqa: E402
from vision.profile import with_profile  # noqa: E402


def render(seed: int, size: tuple[int, int], tricks: int | None) -> tuple[TableScene, list[
        tuple[float, bytes]]]:
    """A scene and its frames as JPEG bytes."""
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "game.jsonl"
        log.write_text(dump_events(simulate_game(seed=seed, max_hands=1).events))
        scene = TableScene(tricks_from_log(log), SynthConfig(
            width=size[0], height=size[1], seed=seed, max_tricks=tricks))
    frames = []
    for t, frame in scene.frames():
        ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 92])
        assert ok
        frames.append((t, data.tobytes()))
    return scene, frames


def track(scene: TableScene, frames: list[tuple[float, bytes]], model: GlyphModel,
          config: LiveConfig) -> tuple[list[float], list[dict[str, object]], TableWatcher]:
    """Per-frame seconds of tracking, the events, and the watcher."""
    watcher = TableWatcher(model, scene.zones(), live_config=config)
    times, events = [], []
    for t, data in frames:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        start = time.perf_counter()
        found = watcher.process(t, image)
        times.append(time.perf_counter() - start)
        events += [event.to_json() for event in found]
    return times, events, watcher


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--tricks", type=int, default=None, help="tricks per hand (all)")
    parser.add_argument("--deck", type=Path, default=None, help="deck profile (.npz) to add")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    width, height = (int(v) for v in args.size.split("x"))
    model = GlyphModel.load()
    if args.deck is not None:
        model = with_profile(model, GlyphModel.load(args.deck))
    modes = (("as shipped", LiveConfig()), ("recognise every frame", LiveConfig(change_level=-1)))
    totals: dict[str, dict[str, int]] = {name: {} for name, _ in modes}
    by_rank: dict[str, list[int]] = {rank: [0, 0] for rank in "9TJQKA"}
    all_times: dict[str, list[float]] = {name: [] for name, _ in modes}
    print(f"tracking at {width}x{height}, one core (OpenCV threads 1)")
    for seed in (int(s) for s in args.seeds.split(",")):
        start = time.perf_counter()
        scene, frames = render(seed, (width, height), args.tricks)
        print(f"seed {seed}: {len(frames)} frames ({scene.duration:.1f} s at "
              f"{scene.config.fps:g} fps), rendered in {time.perf_counter() - start:.0f} s")
        for name, config in modes:
            times, events, watcher = track(scene, frames, model, config)
            all_times[name] += times
            comparison = compare_events(scene.truth, events)
            for key, value in comparison.summary().items():
                totals[name][key] = totals[name].get(key, 0) + value
            delays = comparison.delays
            if name == modes[0][0]:
                for event in scene.truth:
                    if event.event == "placed" and event.card[0] in by_rank:
                        by_rank[event.card[0]][1] += 1
                for card in comparison.named:
                    if card[0] in by_rank:
                        by_rank[card[0]][0] += 1
            print(f"  {name:<22} {len(times) / sum(times):6.1f} fps  median "
                  f"{statistics.median(times) * 1000:5.1f} ms  p95 "
                  f"{np.percentile(times, 95) * 1000:5.1f} ms  max {max(times) * 1000:5.1f} ms"
                  f"  recognised {watcher.recognised}/{watcher.frames} frames")
            print(f"  {'':<22} {comparison.summary()}")
            if delays:
                print(f"  {'':<22} placement reported {statistics.median(delays):.2f} s "
                      f"(median), {max(delays):.2f} s (max) after the card landed")
            for problem in (*comparison.wrong, *comparison.wrong_seat, *comparison.missed,
                            *comparison.phantoms):
                print(f"  {'':<22} PROBLEM {problem}")
    print("named right by rank (as shipped): " + ", ".join(
        f"{rank} {right}/{placed}" for rank, (right, placed) in by_rank.items()))
    for name, _ in modes:
        times = all_times[name]
        print(f"all seeds, {name}: {len(times) / sum(times):.1f} fps over {len(times)} frames; "
              f"{totals[name]}")


if __name__ == "__main__":
    main()
