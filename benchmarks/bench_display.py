"""Display figures: full redraw time per state at 1920x1080 and 800x480, and idle CPU.

Run: `.venv/bin/python benchmarks/bench_display.py [--idle-seconds 10]` (headless).
"""

from __future__ import annotations

import argparse
import os
import queue
import statistics
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from display.loop import ButtonPressed, DisplayLoop
from display.render import render
from display.samples import sample_views
from display.text import Fonts
from display.view import View


def redraw_times(size: tuple[int, int], repeats: int) -> None:
    """Print the first (cold font cache) and the median warm redraw time of each state."""
    surface = pygame.Surface(size)
    fonts = Fonts()
    print(f"full redraw at {size[0]}x{size[1]} (ms): state, first, median of {repeats}")
    medians = []
    for name, view in sample_views().items():
        start = time.perf_counter()
        render(view, surface, fonts=fonts)
        first = (time.perf_counter() - start) * 1000
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            render(view, surface, fonts=fonts)
            times.append((time.perf_counter() - start) * 1000)
        medians.append(statistics.median(times))
        print(f"  {name:16} {first:7.1f} {medians[-1]:7.2f}")
    print(f"  median over states: {statistics.median(medians):.2f} ms, "
          f"worst: {max(medians):.2f} ms")


def idle_cpu(seconds: float, size: tuple[int, int], state: str = "trick") -> None:
    """Run the real loop on one unchanging view and report the CPU time it used."""
    views: queue.Queue[View | None] = queue.Queue()
    presses: queue.Queue[ButtonPressed] = queue.Queue()
    loop = DisplayLoop(views, presses, size=size, alarm_seconds=seconds)
    loop.open()
    views.put(sample_views()[state])
    loop.step()
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    loop.run(max_seconds=seconds)
    cpu = time.process_time() - cpu_start
    wall = time.perf_counter() - wall_start
    print(f"{state} shown at {size[0]}x{size[1]} for {wall:.1f} s: CPU {cpu * 1000:.0f} ms "
          f"({100 * cpu / wall:.2f}% of one core), frames drawn {loop.frames_drawn}")
    pygame.display.quit()


def main() -> None:
    """Print every figure."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--idle-seconds", type=float, default=10.0)
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    pygame.font.init()
    redraw_times((1920, 1080), args.repeats)
    redraw_times((800, 480), args.repeats)
    idle_cpu(args.idle_seconds, (1920, 1080))
    idle_cpu(args.idle_seconds, (1920, 1080), "renege-alarm")


if __name__ == "__main__":
    main()
