"""The club page under a full room: many tables, one event a second each, through a broker.

Each table is a real referee on its own SQLite journal with its MQTT publisher; the broker is
Mosquitto where installed, else amqtt; `cardtable club` runs as its own process, and a client
reads its event stream. Printed: the time from a table accepting an event to the club's stream
carrying it (median, p99) and the club process's CPU.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.config import MqttConfig
from app.mqtt import MqttPublisher
from tests.app.mqttrig import Broker, free_port
from tests.app.test_app_mqtt import Game

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User and system CPU of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


class ClubReader:
    """Reads the club's stream; notes when each (table, seq) first shows."""

    def __init__(self, url: str) -> None:
        self.seen: dict[tuple[str, int], float] = {}
        self.lock = threading.Lock()
        self.answer = urllib.request.urlopen(url + "api/events", timeout=30)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for raw in self.answer:
                if not raw.startswith(b"data: "):
                    continue
                now = time.perf_counter()
                room = json.loads(raw[6:])
                with self.lock:
                    for name, entry in room["tables"].items():
                        state = entry.get("state") or {}
                        if "seq" in state:
                            self.seen.setdefault((name, int(state["seq"])), now)
        except (OSError, ValueError):
            return


def main() -> None:
    """Run the room and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        broker = Broker(root).start()
        port = free_port()
        club = subprocess.Popen(
            [sys.executable, "-m", "app", "club", "--broker", "127.0.0.1", "--broker-port",
             str(broker.port), "--host", "127.0.0.1", "--port", str(port)],
            stdout=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parents[1])
        assert club.stdout is not None
        club.stdout.readline()
        reader = ClubReader(f"http://127.0.0.1:{port}/")
        games, publishers = [], []
        for number in range(args.tables):
            game = Game(root / f"t{number}", seed=number)
            publisher = MqttPublisher(MqttConfig("127.0.0.1", broker.port, table=f"t{number}"),
                                      game.journal.path)
            game.app.listeners.append(publisher.notify)
            publishers.append(publisher.start())
            games.append(game)
        taken: dict[tuple[str, int], float] = {}
        cpu_before = cpu_seconds(club.pid)
        started = time.perf_counter()
        step = 1.0 / args.tables
        tick = 0
        while time.perf_counter() - started < args.seconds:
            game = games[tick % args.tables]
            before = game.seq
            while game.seq == before and game.played < len(game.lines):
                moment = time.perf_counter()
                game.play(1)
            if game.seq != before:
                taken[(f"t{tick % args.tables}", game.seq)] = moment
            tick += 1
            time.sleep(max(0.0, started + tick * step - time.perf_counter()))
        time.sleep(2.0)
        elapsed = time.perf_counter() - started
        cpu = cpu_seconds(club.pid) - cpu_before
        with reader.lock:
            delays = sorted((reader.seen[key] - at) * 1000 for key, at in taken.items()
                            if key in reader.seen)
        for publisher in publishers:
            publisher.close(drain_s=0)
        club.terminate()
        club.wait()
        broker.stop()
    shown = len(delays)
    print(f"{args.tables} tables, {len(taken)} events in {args.seconds:.0f} s, broker "
          f"{broker.kind}: {shown} shown on the club's stream")
    if delays:
        p99 = delays[min(len(delays) - 1, int(len(delays) * 0.99))]
        print(f"table accepts -> club stream: median {statistics.median(delays):.1f} ms, "
              f"p99 {p99:.1f} ms, max {delays[-1]:.1f} ms")
    print(f"club process CPU: {cpu / elapsed * 100:.1f} % of one core")


if __name__ == "__main__":
    main()
