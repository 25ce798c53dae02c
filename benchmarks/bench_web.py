"""Live page latency: from the table taking an input to the page's event stream carrying it.

Two paths: inside `cardtable run` (the table's listener feeds the stream) and `cardtable web`
beside a table in another process (the journal is watched). Each input of a simulated game
goes through the real referee and the SQLite journal (synchronous=FULL); an SSE client on
loopback notes when the snapshot with that event arrives.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.config import AppConfig
from app.controller import TableController
from app.journal import Journal
from app.run import TableApp
from app.script import parse_script_line, script_from_events
from app.web.server import WebContext, WebServer
from app.web.sources import JournalWatcher, TableFeed
from table import GameStarted
from table.simulate import simulate_game

WAIT_S = 10.0


class Arrivals:
    """Reads the stream; records when the snapshot of each event count first arrives."""

    def __init__(self, url: str) -> None:
        self.at: dict[int, float] = {}
        self.changed = threading.Condition()
        self.answer = urllib.request.urlopen(url + "api/events", timeout=WAIT_S)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for raw in self.answer:
                line = raw.decode()
                if line.startswith("data: "):
                    seq = int(json.loads(line[6:])["seq"])
                    with self.changed:
                        self.at.setdefault(seq, time.perf_counter())
                        self.changed.notify_all()
        except (OSError, ValueError):
            return

    def wait(self, seq: int) -> float:
        """When the snapshot with `seq` events arrived."""
        with self.changed:
            if not self.changed.wait_for(lambda: seq in self.at, WAIT_S):
                raise RuntimeError(f"the snapshot with {seq} events never arrived")
            return self.at[seq]


def measure(watch_journal: bool, games: int) -> list[float]:
    """Milliseconds from each accepted input to its snapshot on the stream."""
    delays: list[float] = []
    for seed in range(games):
        game = simulate_game(seed=seed)
        start = game.events[0]
        assert isinstance(start, GameStarted)
        with tempfile.TemporaryDirectory() as folder, \
                Journal(Path(folder) / "journal.sqlite") as journal:
            controller = TableController(journal, start.rules, start.dealer)
            app = TableApp(AppConfig(state_dir=Path(folder)), controller)
            context = WebContext(journal.path)
            watcher = None
            if watch_journal:
                watcher = JournalWatcher(journal.path, context.hub).start()
            else:
                app.listeners.append(TableFeed(app, context.hub))
            with WebServer(context, "127.0.0.1", 0) as server:
                arrivals = Arrivals(server.url)
                arrivals.wait(1)
                for number, line in enumerate(script_from_events(game.events), start=1):
                    before = len(controller.state.log)
                    taken = time.perf_counter()
                    app.handle(parse_script_line(number, json.dumps(line)))
                    seq = len(controller.state.log)
                    if seq != before:
                        delays.append((arrivals.wait(seq) - taken) * 1000)
                arrivals.answer.close()
            if watcher is not None:
                watcher.stop()
    return delays


def main() -> None:
    """Print the figures."""
    print(f"{'path':<44} {'events':>6} {'median ms':>9} {'p95 ms':>7} {'p99 ms':>7} "
          f"{'max ms':>7}")
    for label, watch, games in (("cardtable run: the table's listener", False, 3),
                                ("cardtable web beside it: journal watched", True, 1)):
        delays = sorted(measure(watch, games))
        p95 = delays[int(len(delays) * 0.95)]
        p99 = delays[min(int(len(delays) * 0.99), len(delays) - 1)]
        print(f"{label:<44} {len(delays):>6} {statistics.median(delays):>9.2f} "
              f"{p95:>7.2f} {p99:>7.2f} {delays[-1]:>7.2f}")


if __name__ == "__main__":
    main()
