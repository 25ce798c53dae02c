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

from app.script import script_from_events
from table.log import replay_lines
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


CONFIG = """[game]
dealer = "N"
rules = { ace_no_face = true }
"""


def write_script(path: Path, seed: int, undos: int = 4) -> Path:
    """A scripted whole game: a moon, an ask with its exchange OK'd, Ace No Face claims, one
    renege, and UNDOs each followed by the press they took back, again."""
    from tests.harness.faultcheck import simulate_with_moon

    game = simulate_with_moon(seed)
    lines = script_from_events(game.events)
    rng = random.Random(seed)
    presses = [i for i, line in enumerate(lines) if line.get("press") in ("pass", "bid")
               and line.get("bid") != "moon"]
    chosen = set(rng.sample(presses, min(undos, len(presses))))
    script: list[dict[str, object]] = []
    for index, line in enumerate(lines):
        script.append(line)
        if index in chosen:
            script += [{"press": "undo"}, line]
    path.write_text("".join(json.dumps(line) + "\n" for line in script))
    path.with_suffix(".toml").write_text(CONFIG)
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
            "--config",
            str(script.with_suffix(".toml")),
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
    """The game in the journal, as the replay summary, and its number of events (the state's
    log, as `ack` lines count it), read from a copy so that the WAL stays for the restart."""
    from tests.harness.faultcheck import journal_events

    lines = journal_events(state_dir / "journal.sqlite")
    if not lines:
        return {}, 0
    state = replay_lines(lines)
    return summary(state), len(state.log)


def crash_check(kills: int = 20, seed: int = 1) -> CrashReport:
    """Play the script once cleanly, then again killing the app at `kills` moments spread
    over the whole script (and sometimes again while it starts)."""
    rng = random.Random(seed)
    report = CrashReport()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        script = write_script(root / "game.jsonl", seed)
        clean = root / "clean"
        run_app(script, clean, 1).communicate(timeout=300)
        expected, _ = journal_summary(clean)
        crashed = root / "crashed"
        total_lines = sum(1 for _ in script.open())
        moments = sorted(rng.sample(range(1, total_lines + 1), min(kills, total_lines)))
        next_line, acked_events, at_start = 1, 0, False
        while True:
            start = next_line
            process = run_app(script, crashed, next_line)
            assert process.stdout is not None
            killed = False
            if at_start:  # during the start-up replay, before any line is played
                at_start = False
                time.sleep(rng.uniform(0, 0.5))
                process.send_signal(signal.SIGKILL)
                killed = True
            target = moments.pop(0) if moments and not killed else None
            acks: list[str] = []
            if not killed:
                for line in process.stdout:
                    acks.append(line)
                    if target is not None and int(line.split()[1]) >= target:
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
                report.kill_after_acks.append(next_line - 1)
                at_start = rng.random() < 0.2
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
        "killed after script line: "
        + ", ".join(map(str, report.kill_after_acks))
    )
    sys.exit(0 if report.ok else 1)


if __name__ == "__main__":
    main()
