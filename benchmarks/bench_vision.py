"""Benchmark: median time and peak memory of the whole recognition pipeline on one core.

The frames hold eight cards on a textured table: svg-cards artwork when the shared folder is
present (CARDTABLE_SHARED or ../shared), else plain drawn cards. The benchmark frame is 1280x720
with cards 250 px long; the table frames are what the camera over the table sees: 1920x1080 with
cards about 140 px long, 1280x720 with cards about 95 px long and 2560x1440 with cards about
190 px long; and the 1080p frame with a
blank card beside them, which is left unread and so gets the learned finder's second look.
Each frame's line gives the CPU time of every stage of recognition (vision.pipeline.StageClock).
The watcher itself recognises the play area cropped from the camera's frame with its own settings
(vision.live): those views are timed too, also as during play, where the cards played before lie
still, named, and are not read again (one card just laid among seven). The watcher itself is
timed over a short sequence of frames as during play, as shipped and reading every changed frame
whole (the CPU per frame and the frames until the card laid is named), and with a blank card
unread as the light dims.
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
from dataclasses import replace
from pathlib import Path
from typing import Any

# One core: numpy's BLAS is held to one thread before numpy loads (OpenCV's is set in main).
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tools.clip_score import area_zones  # noqa: E402
from tools.scenes import paste_card, plain_card, table_background  # noqa: E402
from tools.synthetic import artwork_cards  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.deck_config import DeckMatchConfig  # noqa: E402
from vision.deck_faces import DeckFaces, face_views  # noqa: E402
from vision.finder_net import inside_mask  # noqa: E402
from vision.imageio import read_image  # noqa: E402
from vision.live import LiveConfig, TableWatcher, view_config  # noqa: E402
from vision.model import GlyphModel  # noqa: E402
from vision.pipeline import StageClock, recognise  # noqa: E402

CARDS = ("JH", "TS", "9D", "AC", "KS", "QD", "AH", "9C")
LAID = 3
"""The card laid during play in the watcher's sequence: the trick's west card."""


def shared_folder() -> Path | None:
    """The shared data folder, when present."""
    for candidate in (os.environ.get("CARDTABLE_SHARED"), str(REPO.parent / "shared")):
        if candidate and Path(candidate).is_dir():
            return Path(candidate)
    return None


def eight_card_frame(artwork: bool = True) -> np.ndarray:
    """A 1280x720 frame holding eight cards 250 px long, two rows of four."""
    frame = table_background(1280, 720, seed=3)
    faces = _faces(artwork)
    for i, name in enumerate(CARDS):
        centre = (170 + 310 * (i % 4), 190 + 340 * (i // 4))
        paste_card(frame, faces[name], centre, 250, angle=-20 + 11 * i, tilt=0.05)
    return frame


def table_frame(width: int, height: int, long_side: float, artwork: bool = True,
                laid: float = 1.0) -> np.ndarray:
    """A frame as the camera over the table sees it: eight cards of `long_side` pixels, a trick
    of four in the middle and one card before each seat's place plus three more. The trick's
    west card has come `laid` of its way in from the play area's west edge (0: not there)."""
    frame = table_background(width, height, seed=4)
    faces = _faces(artwork)
    step = 1.5 * long_side
    spots = [(0.0, -0.75), (0.75, 0.0), (0.0, 0.75), (-0.75, 0.0),
             (-1.5, -1.2), (1.5, -1.2), (1.5, 1.2), (-1.5, 1.2)]
    for i, (name, (dx, dy)) in enumerate(zip(CARDS, spots, strict=True)):
        centre = (width / 2 + dx * step, height / 2 + dy * step)
        if i == LAID:
            if laid <= 0:
                continue
            centre = (centre[0] - (1 - laid) * (centre[0] - (width - height) / 2), centre[1])
        paste_card(frame, faces[name], centre, long_side, angle=-35 + 23 * i, tilt=0.04)
    return frame


def doubt_frame(width: int, height: int, long_side: float) -> np.ndarray:
    """The table frame with a blank card beside the trick as well: present but unread, so the
    frame gets the learned finder's second look around it."""
    frame = table_frame(width, height, long_side)
    blank = np.full((350, 250, 3), 235, np.uint8)
    cv2.rectangle(blank, (8, 8), (241, 341), (60, 60, 200), 3)
    paste_card(frame, blank, (width / 2 - 2.25 * long_side, height / 2), long_side, angle=17,
               tilt=0.03)
    return frame


def _faces(artwork: bool) -> dict[str, np.ndarray]:
    """The eight faces: the shared artwork when present and wanted, else plain drawn cards."""
    shared = shared_folder()
    faces = dict(artwork_cards(shared / "vision" / "artwork")) if shared and artwork else {}
    return {name: faces.get(name, plain_card(name[0].replace("T", "10"), name[1]))
            for name in CARDS}


def peak_allocations(frame: np.ndarray, model: GlyphModel) -> float:
    """Peak Python allocations (MB, tracemalloc) while one frame is recognised."""
    tracemalloc.start()
    recognise(frame, model)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1e6


def report_frame(label: str, frame: np.ndarray, model: GlyphModel, runs: int) -> None:
    """Print what is read on a frame, its median wall and CPU time and its peak allocations."""
    found = recognise(frame, model)
    read = sorted(o.name for o in found if o.name)
    height, width = frame.shape[:2]
    print(f"{label}: {width}x{height}, {len(CARDS)} cards placed, {len(found)} found, "
          f"{sum(name in CARDS for name in read)} read right: {read}")
    time_frame(frame, model, 3)
    wall = time_frame(frame, model, runs)
    cpu = time_frame(frame, model, runs, clock=time.thread_time)
    print(f"  wall median {statistics.median(wall):.1f} ms (p90 {np.percentile(wall, 90):.1f}), "
          f"CPU median {statistics.median(cpu):.1f} ms (thread_time), "
          f"peak allocations {peak_allocations(frame, model):.1f} MB (tracemalloc), "
          f"process peak RSS so far {_peak_rss_mb():.0f} MB")
    report_stages(frame, model, runs)
    without = replace(VisionConfig(), learned_finder=None)
    colour = sorted(o.name for o in recognise(frame, model, without) if o.name)
    cpu_without = time_frame(frame, model, runs, without, clock=time.thread_time)
    print(f"  without the learned finder's second look: CPU median "
          f"{statistics.median(cpu_without):.1f} ms, "
          f"{sum(name in CARDS for name in colour)} read right")


def report_view(label: str, frame: np.ndarray, model: GlyphModel, runs: int,
                card_length: float) -> None:
    """Print what the watcher reads in the frame's play-area view (its middle square, the
    frame's height across) with its own settings (`vision.live.view_config`, the card length
    known), and its median CPU time and stages."""
    view, config = play_area(frame, card_length)
    read = sorted(o.name for o in recognise(view, model, config) if o.name)
    time_frame(view, model, 3, config)
    cpu = time_frame(view, model, runs, config, clock=time.thread_time)
    height = view.shape[0]
    print(f"{label}: {height}x{height} view, {sum(name in CARDS for name in read)} read right: "
          f"{read}\n  CPU median {statistics.median(cpu):.1f} ms (thread_time)")
    report_stages(view, model, runs, config)


def report_one_laid(label: str, frame: np.ndarray, model: GlyphModel, runs: int,
                    card_length: float) -> None:
    """Print the watcher's CPU time for the frame's play-area view when every card read but one
    lies still, named, as the watcher hands such cards over (`recognise(settled=...)`): a card
    just laid among those played before, which is what the table sees during play."""
    view, config = play_area(frame, card_length)
    named = [o for o in recognise(view, model, config) if o.whole and o.name is not None]
    settled = named[:-1]
    read = sorted(o.name for o in recognise(view, model, config, settled=settled) if o.name)
    cpu = []
    for _ in range(runs):
        start = time.thread_time()
        recognise(view, model, config, settled=settled)
        cpu.append((time.thread_time() - start) * 1000.0)
    print(f"{label}: {len(settled)} named cards lying still and one just laid, "
          f"{sum(name in CARDS for name in read)} read right: CPU median "
          f"{statistics.median(cpu):.1f} ms (thread_time)")


def report_watcher(label: str, width: int, height: int, long_side: float, model: GlyphModel,
                   configs: dict[str, LiveConfig]) -> None:
    """Print the watcher's CPU per frame (thread_time) over a sequence at 10 fps: seven cards
    lying still, named, then the trick's west card slid in over three frames and lying still
    until placed; and the frames from its first until it is placed."""
    grow = 0.03 * width  # crop_box's margin: the view read is the frame's middle square
    left = (width - height) / 2
    zones = area_zones(width, height, (left + grow, grow, left + height - grow, height - grow))
    still = table_frame(width, height, long_side, laid=0.0)
    laying = [table_frame(width, height, long_side, laid=share) for share in (0.3, 0.6, 0.9)]
    laid = table_frame(width, height, long_side)
    print(f"{label}: the watcher during play, one card laid among seven lying still")
    for name, config in configs.items():
        watcher = TableWatcher(model, zones, live_config=config)
        for i in range(20):
            watcher.process(i / 10, still)
        frames = [still] * 5 + laying + [laid] * 30
        cpu: list[float] = []
        read: list[float] = []
        until = None
        for i, frame in enumerate(frames):
            start, reads = time.thread_time(), watcher.recognised
            events = watcher.process(2.0 + i / 10, frame)
            cpu.append((time.thread_time() - start) * 1000.0)
            if watcher.recognised > reads:
                read.append(cpu[-1])
            if any(e.card == CARDS[LAID] for e in events):
                until = i - 4
                break
        print(f"  {name}: CPU per frame median {statistics.median(cpu):.1f} ms, worst "
              f"{max(cpu):.1f} ms, {sum(cpu):.0f} ms over {len(cpu)} frames "
              f"({len(read)} recognised, median {statistics.median(read or [0.0]):.1f} ms "
              f"each); frames from {CARDS[LAID]}'s first until it is named: "
              f"{until or 'never named'}")


def play_area(frame: np.ndarray, card_length: float) -> tuple[np.ndarray, VisionConfig]:
    """The frame's play-area view (its middle square, the frame's height across) and the
    watcher's settings for it (`vision.live.view_config`, the card length known)."""
    height, width = frame.shape[:2]
    left = (width - height) // 2
    view = np.ascontiguousarray(frame[:, left:left + height])
    return view, replace(view_config(VisionConfig(), LiveConfig()), card_length=card_length)


def report_stages(frame: np.ndarray, model: GlyphModel, runs: int,
                  config: VisionConfig | None = None) -> None:
    """Print each stage's CPU time per frame (thread_time, mean over `runs`) and its calls."""
    clock = StageClock()
    for _ in range(runs):
        recognise(frame, model, config, stages=clock)
    parts = ", ".join(f"{name} {1000 * seconds / runs:.1f}"
                      for name, seconds in clock.seconds.items())
    print(f"  stages, CPU ms per frame: {parts}")


def _peak_rss_mb() -> float:
    """The process's peak resident memory so far (ru_maxrss, in MB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


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


def time_finder(frame: np.ndarray, runs: int) -> float:
    """Median CPU milliseconds of the learned finder's mask on the frame shrunk to 640 px."""
    small = cv2.resize(frame, (640, round(640 * frame.shape[0] / frame.shape[1])),
                       interpolation=cv2.INTER_AREA)
    inside_mask(small, 640)
    times = []
    for _ in range(runs):
        start = time.thread_time()
        inside_mask(small, 640)
        times.append((time.thread_time() - start) * 1000.0)
    return statistics.median(times)


def report_drifting_light(label: str, width: int, height: int, long_side: float,
                          model: GlyphModel) -> None:
    """Print the watcher's CPU per frame (thread_time) over 40 frames at 10 fps of the table
    with a blank card no one can name lying among the eight, as a lamp dims it 1.5 % a frame:
    the view is read again as the light changes, and the blank card is in doubt every time."""
    grow = 0.03 * width
    left = (width - height) / 2
    zones = area_zones(width, height, (left + grow, grow, left + height - grow, height - grow))
    scene = doubt_frame(width, height, long_side).astype(np.float32)
    clock = StageClock()
    watcher = TableWatcher(model, zones, stages=clock)
    cpu: list[float] = []
    for i in range(40):
        frame = np.asarray(np.clip(scene * (1.0 - 0.015 * i), 0, 255), np.uint8)
        start = time.thread_time()
        watcher.process(i / 10, frame)
        cpu.append((time.thread_time() - start) * 1000.0)
    print(f"{label}: CPU per frame median {statistics.median(cpu):.1f} ms, worst "
          f"{max(cpu):.1f} ms, {sum(cpu):.0f} ms over {len(cpu)} frames ({watcher.recognised} "
          f"recognised, {clock.calls.get('second look: masks', 0)} with a second look)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--photos", action="store_true",
                        help="also time every photo of the shared dev set")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    model = GlyphModel.load()
    print(f"{args.runs} runs each on one OpenCV thread")
    frame = eight_card_frame()
    report_frame("benchmark frame, cards 250 px", frame, model, args.runs)
    report_frame("table at 1080p, cards 140 px", table_frame(1920, 1080, 140), model, args.runs)
    report_frame("table at 720p, cards 95 px", table_frame(1280, 720, 95), model, args.runs)
    report_frame("table at 1440p, cards 190 px", table_frame(2560, 1440, 190), model, args.runs)
    # What the watcher itself recognises: the play area cropped from the frame, searched at its
    # own size (vision.live.LiveConfig).
    report_view("the watcher's play-area view of the 1080p table frame",
                table_frame(1920, 1080, 140), model, args.runs, 140.0)
    report_view("the watcher's play-area view of the 720p table frame",
                table_frame(1280, 720, 95), model, args.runs, 95.0)
    report_view("the watcher's play-area view of the 1440p table frame",
                table_frame(2560, 1440, 190), model, args.runs, 190.0)
    report_one_laid("the watcher's view of the 1080p table frame during play",
                    table_frame(1920, 1080, 140), model, args.runs, 140.0)
    report_one_laid("the watcher's view of the 720p table frame during play",
                    table_frame(1280, 720, 95), model, args.runs, 95.0)
    watchers = {"as shipped": LiveConfig(),
                "whole view, no motion wait": LiveConfig(region_share=0.0, motion_wait=0.0)}
    report_watcher("1080p, cards 140 px", 1920, 1080, 140.0, model, watchers)
    report_watcher("720p, cards 95 px", 1280, 720, 95.0, model, watchers)
    report_frame("table at 1080p with a blank card unread (second look), cards 140 px",
                 doubt_frame(1920, 1080, 140), model, args.runs)
    report_drifting_light("1080p, cards 140 px, a blank card unread as a lamp dims: the watcher",
                          1920, 1080, 140.0, model)
    finder_ms = time_finder(table_frame(1920, 1080, 140), args.runs)
    print(f"learned finder alone (the second look's network and mask) on the 1080p table frame "
          f"shrunk to 640x360: CPU median {finder_ms:.1f} ms")
    outlines_only = time_frame(frame, model, args.runs,
                               VisionConfig(finders=("outlines", "sides", "cloth")))
    print(f"benchmark frame without the finders of cards seen in part: median "
          f"{statistics.median(outlines_only):.1f} ms")
    plain = eight_card_frame(artwork=False)
    plain_read = sum(1 for o in recognise(plain, model) if o.name)
    plain_times = time_frame(plain, model, args.runs)
    print(f"benchmark layout with plain drawn cards ({plain_read} of 8 read): "
          f"median {statistics.median(plain_times):.1f} ms")
    profiled = artwork_profile(model)
    if profiled is not None:
        deck_read = sorted(o.name for o in recognise(frame, profiled) if o.name)
        # Run by run in turn, so that the machine's other load weighs on both alike.
        cpu, deck_cpu, clock = [], [], StageClock()
        for _ in range(args.runs):
            cpu += time_frame(frame, model, 1, clock=time.thread_time)
            deck_cpu += time_frame(frame, profiled, 1, clock=time.thread_time)
            recognise(frame, profiled, stages=clock)
        added = statistics.median(deck_cpu) - statistics.median(cpu)
        stage = 1000 * clock.seconds.get("known deck", 0.0) / args.runs
        print(f"with the artwork deck enrolled (known-deck reading): CPU median "
              f"{statistics.median(deck_cpu):.1f} ms, {added / len(CARDS):+.2f} ms per card "
              f"(the frame's median less the plain frame's); the known-deck stage alone "
              f"{stage / len(CARDS):.2f} ms per card; read: {deck_read}")
    print(f"process peak RSS {_peak_rss_mb():.0f} MB (ru_maxrss, over every frame above)")
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
