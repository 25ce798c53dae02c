"""Power-cut check: SIGKILL `cardtable run` at random moments and compare the resumed game."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from app.journal import Journal
from app.script import script_from_events
from table import Seat
from table.log import replay_lines
from table.simulate import simulate_game
from table.summary import summary


@dataclass
class CrashReport:
    """What the check saw."""

    kills: int = 0
    restarts: int = 0
    acked_events_missing: int = 0
    mismatches: list[str] = field(default_factory=list)
    kill_after_acks: list[int] = field(default_factory=list)
    transcript: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when nothing acknowledged was lost and the final game matched."""
        return not self.acked_events_missing and not self.mismatches


def write_script(path: Path, seed: int) -> Path:
    """A scripted whole game (with one renege) for the check."""
    game = simulate_game(seed=seed, renege_rate=0.2, renege_limit=1, dealer=Seat.N)
    path.write_text("".join(json.dumps(line) + "\n" for line in script_from_events(game.events)))
    return path


def run_app(script: Path, state_dir: Path, start_line: int) -> subprocess.Popen[str]:
    """Start the table on a script, without a screen."""
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "app",
            "run",
            "--no-display",
            "--script",
            str(script),
            "--script-from",
            str(start_line),
            "--state-dir",
            str(state_dir),
            "--verbose",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def journal_summary(state_dir: Path) -> tuple[dict[str, object], int]:
    """The game in the journal, as the replay summary, and its number of events."""
    with Journal(state_dir / "journal.sqlite") as journal:
        games = journal.games()
        text = journal.export(games[-1].id) if games else ""
    lines = text.splitlines()
    if not lines:
        return {}, 0
    return summary(replay_lines(lines)), len(lines)


def crash_check(kills: int = 20, seed: int = 1) -> CrashReport:
    """Play the script once cleanly, then again killing the app `kills` times."""
    rng = random.Random(seed)
    report = CrashReport()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        script = write_script(root / "game.jsonl", seed)
        clean = root / "clean"
        run_app(script, clean, 1).communicate(timeout=300)
        expected, _ = journal_summary(clean)
        crashed = root / "crashed"
        next_line, acked_events = 1, 0
        total_lines = sum(1 for _ in script.open())
        while True:
            start = next_line
            process = run_app(script, crashed, next_line)
            assert process.stdout is not None
            remaining = total_lines - next_line
            may_kill = report.kills < kills and remaining > 0
            spacing = max(1, total_lines // (kills + 5))
            kill_at = rng.randint(0, min(remaining, spacing)) if may_kill else -1
            killed = kill_at == 0
            if killed:
                process.send_signal(signal.SIGKILL)
            acks: list[str] = []
            for line in process.stdout:
                acks.append(line)
                if len(acks) == kill_at:
                    time.sleep(rng.uniform(0, 0.005))
                    process.send_signal(signal.SIGKILL)
                    killed = True
                    break
            rest, errors = process.communicate(timeout=300)
            report.transcript.append(f"-- run from line {start}:\n{errors}")
            for line in [*acks, *rest.splitlines()]:
                _, number, events = line.split()
                next_line, acked_events = int(number) + 1, int(events)
            if killed:
                report.kills += 1
                report.kill_after_acks.append(kill_at)
            _, journaled = journal_summary(crashed)
            report.acked_events_missing += max(0, acked_events - journaled)
            if not killed and process.returncode == 0:
                break
            report.restarts += 1
        actual, _ = journal_summary(crashed)
        for key in ("score", "winner", "hands"):
            if actual.get(key) != expected.get(key):
                report.mismatches.append(key)
    return report


def main() -> None:
    """Print the figures of a full check."""
    kills = int(sys.argv[1]) if len(sys.argv) > 1 else 25
    report = crash_check(kills=kills)
    print(
        f"kills: {report.kills}, restarts: {report.restarts}, "
        f"acknowledged events missing after restart: {report.acked_events_missing}, "
        f"final game differs in: {report.mismatches or 'nothing'}"
    )
    print(
        "killed after this many acknowledged inputs of each run: "
        + ", ".join(map(str, report.kill_after_acks))
    )
    sys.exit(0 if report.ok else 1)


if __name__ == "__main__":
    main()
