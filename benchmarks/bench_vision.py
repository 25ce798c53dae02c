"""Benchmark: median time and peak memory of the whole recognition pipeline on one core.

The frame is 1280x720 with eight cards on a textured table: svg-cards artwork when the shared
folder is present (CARDTABLE_SHARED or ../shared), else plain drawn cards.
Run: .venv/bin/python benchmarks/bench_vision.py [--runs N] [--photos]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

# One core: numpy's BLAS is held to one thread before numpy loads (OpenCV's is set in main).
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from vision.config import VisionConfig  # noqa: E402
from vision.deck_config import DeckMatchConfig  # noqa: E402
from vision.deck_faces import DeckFaces, face_views  # noqa: E402
from vision.imageio import read_image  # noqa: E402
from vision.model import GlyphModel  # noqa: E402
from vision.pipeline import recognise  # noqa: E402
from vision.scenes import paste_card, plain_card, table_background  # noqa: E402
from vision.synthetic import artwork_cards  # noqa: E402

CARDS = ("JH", "TS", "9D", "AC", "KS", "QD", "AH", "9C")


def shared_folder() -> Path | None:
    """The shared data folder, when present."""
    for candidate in (os.environ.get("CARDTABLE_SHARED"), str(REPO.parent / "shared")):
        if candidate and Path(candidate).is_dir():
            return Path(candidate)
    return None


def eight_card_frame(artwork: bool = True) -> np.ndarray:
    """A 1280x720 frame holding eight cards, two rows of four (artwork faces when available)."""
    frame = table_background(1280, 720, seed=3)
    shared = shared_folder()
    faces = dict(artwork_cards(shared / "vision" / "artwork")) if shared and artwork else {}
    for i, name in enumerate(CARDS):
        face = faces.get(name)
        if face is None:
            face = plain_card(name[0].replace("T", "10"), name[1])
        centre = (170 + 310 * (i % 4), 190 + 340 * (i // 4))
        paste_card(frame, face, centre, 250, angle=-20 + 11 * i, tilt=0.05)
    return frame


def artwork_profile(model: GlyphModel) -> GlyphModel | None:
    """The model with the artwork deck's 24 euchre faces enrolled as a known deck."""
    shared = shared_folder()
    if shared is None:
        return None
    samples = []
    for name, face in artwork_cards(shared / "vision" / "artwork"):
        if name[0] in "9TJQKA":
            height, width = face.shape[:2]
            whole = np.array([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]],
                             np.float32)
            samples.append((name, face_views(face, whole, DeckMatchConfig())))
    return GlyphModel(model.ranks, model.suits, model.faces, DeckFaces.of(samples))


def time_frame(frame: np.ndarray, model: GlyphModel, runs: int,
               config: VisionConfig | None = None, clock: Any = time.perf_counter) -> list[float]:
    """Milliseconds per call of the whole pipeline, by `clock` (wall time unless told)."""
    config = config or VisionConfig()
    times = []
    for _ in range(runs):
        start = clock()
        recognise(frame, model, config)
        times.append((clock() - start) * 1000.0)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--photos", action="store_true",
                        help="also time every photo of the shared dev set")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    model = GlyphModel.load()
    frame = eight_card_frame()
    found = recognise(frame, model)
    print(f"frame 1280x720, {len(CARDS)} cards placed, {len(found)} found, "
          f"read: {sorted(o.name for o in found if o.name)}")
    time_frame(frame, model, 3)
    times = time_frame(frame, model, args.runs)
    print(f"median {statistics.median(times):.1f} ms, p90 {np.percentile(times, 90):.1f} ms "
          f"over {args.runs} runs on one OpenCV thread")
    # CPU time of this thread: less disturbed than wall time when other jobs share the cores.
    cpu = time_frame(frame, model, args.runs, clock=time.thread_time)
    print(f"CPU time (thread_time): median {statistics.median(cpu):.1f} ms")
    outlines_only = time_frame(frame, model, args.runs, VisionConfig(read_corners=False))
    print(f"without corner reading (read_corners=False): median "
          f"{statistics.median(outlines_only):.1f} ms")
    plain = eight_card_frame(artwork=False)
    plain_read = sum(1 for o in recognise(plain, model) if o.name)
    plain_times = time_frame(plain, model, args.runs)
    print(f"same layout with plain drawn cards ({plain_read} of 8 read): "
          f"median {statistics.median(plain_times):.1f} ms")
    profiled = artwork_profile(model)
    if profiled is not None:
        deck_read = sorted(o.name for o in recognise(frame, profiled) if o.name)
        deck_cpu = time_frame(frame, profiled, args.runs, clock=time.thread_time)
        added = statistics.median(deck_cpu) - statistics.median(cpu)
        print(f"with the artwork deck enrolled (known-deck reading): CPU median "
              f"{statistics.median(deck_cpu):.1f} ms, {added / len(CARDS):+.2f} ms per card; "
              f"read: {deck_read}")
    tracemalloc.start()
    recognise(frame, model)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"peak Python allocations per frame {peak / 1e6:.1f} MB (tracemalloc); "
          f"process peak RSS {rss_kib / 1024:.0f} MB (ru_maxrss)")
    shared = shared_folder()
    if args.photos and shared:
        per_image = []
        for path in sorted((shared / "vision" / "dev").rglob("*.jpg")):
            image = read_image(path)
            per_image.extend(time_frame(image, model, 1))
        print(f"dev photos: median {statistics.median(per_image):.1f} ms over {len(per_image)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
