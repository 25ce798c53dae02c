"""The page under a crowd: many clients asking at once, on loopback.

`cardtable web` runs as its own process on a journal of ten simulated games; N clients (200 by
default), each on its own connection, ask at the same moment for a game's page or the live view.
Printed: how many were answered within 5 s and 30 s, and the median and slowest answer.
"""

from __future__ import annotations

import argparse
import http.client
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from table.log import dump_events
from table.simulate import simulate_game
from tests.app.mqttrig import free_port

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT_S = 30.0


def crowd(port: int, clients: int, games: int) -> list[float | None]:
    """Seconds each client waited for its answer (None: none within TIMEOUT_S)."""
    start = threading.Barrier(clients)
    waited: list[float | None] = [None] * clients

    def client(number: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT_S)
        path = f"/api/games/{number % games + 1}" if number % 2 else "/api/live"
        try:
            start.wait(TIMEOUT_S)
            began = time.perf_counter()
            connection.request("GET", path)
            answer = connection.getresponse()
            answer.read()
            if answer.status == 200:
                waited[number] = time.perf_counter() - began
        except OSError:
            pass
        finally:
            connection.close()

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT_S * 2)
    return waited


def main() -> None:
    """Run the crowd and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        state = Path(folder) / "s"
        for seed in range(args.games):
            log = Path(folder) / f"g{seed}.jsonl"
            log.write_text(dump_events(simulate_game(seed=seed).events))
            subprocess.run([sys.executable, "-m", "app", "import", str(log), "--state-dir",
                            str(state)], cwd=ROOT, check=True, capture_output=True)
        port = free_port()
        web = subprocess.Popen([sys.executable, "-m", "app", "web", "--state-dir", str(state),
                                "--host", "127.0.0.1", "--port", str(port)],
                               cwd=ROOT, stdout=subprocess.PIPE, text=True)
        assert web.stdout is not None
        web.stdout.readline()
        try:
            waited = crowd(port, args.clients, args.games)
        finally:
            web.terminate()
            web.wait()
    answered = sorted(w for w in waited if w is not None)
    within_5 = sum(1 for w in answered if w <= 5.0)
    print(f"{args.clients} clients at once, {args.games} games in the journal: "
          f"{within_5} answered within 5 s, {len(answered)} within {TIMEOUT_S:.0f} s")
    if answered:
        print(f"answer: median {statistics.median(answered) * 1000:.0f} ms, "
              f"slowest {answered[-1] * 1000:.0f} ms")


if __name__ == "__main__":
    main()
