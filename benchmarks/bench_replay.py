"""Replay speed: events per second on long simulated games, and the time to rebuild a game."""

from __future__ import annotations

import statistics
import time
import tracemalloc

from table import Rules
from table.log import dump_events, replay_lines
from table.simulate import simulate_game

REPEATS = 30


def time_replay(lines: list[str]) -> list[float]:
    """Seconds for each of REPEATS replays of the same log lines."""
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        replay_lines(lines)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    """Print the figures."""
    print(f"{'game':<34} {'events':>7} {'median ms':>10} {'events/s':>10}")
    for label, rules in (("32-point game, default rules", Rules()),
                         ("double deck, target 48", Rules(double_deck=True, target=48))):
        games = [simulate_game(seed=seed, rules=rules) for seed in range(20)]
        longest = max(games, key=lambda game: len(game.events))
        typical = sorted(games, key=lambda game: len(game.events))[len(games) // 2]
        for name, game in (("median-length", typical), ("longest of 20", longest)):
            lines = dump_events(game.events).splitlines()
            median = statistics.median(time_replay(lines))
            print(f"{label + ', ' + name:<34.34} {len(lines):>7} {median * 1000:>10.2f} "
                  f"{len(lines) / median:>10.0f}")
    lines = dump_events(simulate_game(seed=1).events).splitlines()
    tracemalloc.start()
    replay_lines(lines)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"peak memory while replaying a {len(lines)}-event game: {peak / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
