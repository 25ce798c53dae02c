"""Faults against a real `cardtable run`: a game played on a pty panel, the table killed,
restarted, fed garbage, doubled, given a damaged, full or locked journal; what it acknowledged
is checked.

The whole game is played on the panel's keys (bids, passes, trump, OK, UNDO, moon, Ace No Face
on the claimant's pad, each card by its rank and suit key), so every input travels the real
serial protocol, and the panel itself knows which keys the table acknowledged. A step is the
keys of one table event; its expected journal length comes from playing the same keys on an
in-process referee. The journal is read from a copy of its files, so that a restart always
starts on the WAL the killed table left.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import select
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast
from unittest import mock

from app.controller import TableController
from app.journal import Journal
from app.script import script_from_events
from drivers.clock import ManualClock
from drivers.fake_panel import PtyPanel
from drivers.inputs import Seat as SeatName
from drivers.keys import BID_KEYS, JOKER_KEY, SUIT_KEYS, press_event
from table import Bid, Card, Rules, Seat
from table import simulate as simulator
from table.bids import ASK, MOON
from table.simulate import SimulatedGame, simulate_game

REPO = Path(__file__).resolve().parents[2]
RULES = Rules(ace_no_face=True)
CONFIG = """[game]
dealer = "N"
rules = {{ ace_no_face = true }}

[panel]
port = "{port}"
"""
ACK_TIMEOUT_S = 10.0
HEARTBEAT_S = 0.5
STOPPED = "the table stopped acknowledging keys"
SETTLE_S = 0.3  # quiet time after the panel's queue empties before the journal is read


@dataclass(frozen=True)
class Step:
    """The panel keys (labels, `E.ACE_NO_FACE` for a seat's own key) of one table event."""

    keys: tuple[str, ...]
    what: str


@dataclass
class Game:
    """The steps of a game and the journal each step leaves (from an in-process referee)."""

    steps: list[Step]
    counts: list[int]  # events in the journal after each step
    events: list[str]  # the journal's events at the end, as stored

    def resume_at(self, journaled: int) -> tuple[int, bool]:
        """The first step not yet in a journal of `journaled` events; True if one was cut."""
        for index, count in enumerate(self.counts):
            if count > journaled:
                before = self.counts[index - 1] if index else 1
                return (index + 1, True) if before < journaled else (index, False)
        return len(self.steps), False


def keys_of(line: dict[str, object]) -> tuple[str, ...]:
    """The panel keys of one script line made with `script_from_events(by_keys=True)`."""
    press = line.get("press")
    if press == "bid":
        bid = line["bid"]
        return (next(name for name, value in BID_KEYS.items() if value == bid),)
    if press == "pass":
        return ("PASS",)
    if press == "trump":
        return (next(name for name, value in SUIT_KEYS.items() if value == line["suit"]),)
    if press == "ok":
        return ("OK",)
    if press == "undo":
        return ("UNDO",)
    if press == "ace_no_face":
        return (f"{line['seat']}.ACE_NO_FACE",)
    return (str(line["key"]),)


def steps_from_lines(lines: list[dict[str, object]]) -> list[Step]:
    """Group key lines into steps: a card is its rank key and its suit key (or the joker)."""
    steps: list[Step] = []
    pending: list[str] = []
    for line in lines:
        keys = keys_of(line)
        if "key" not in line:
            steps.append(Step(keys, str(line.get("press"))))
            continue
        pending += keys
        if keys[0] in SUIT_KEYS or keys[0] == JOKER_KEY:
            steps.append(Step(("CARD", *pending), "card"))
            pending = []
    return steps


def play_in_process(steps: list[Step], journal_path: Path) -> tuple[list[int], list[str]]:
    """Play the keys on the referee in-process: journal length after each step, final events."""
    counts: list[int] = []
    with Journal(journal_path) as journal, contextlib.closing(sqlite3.connect(journal_path)) as db:
        table = TableController(journal, RULES, Seat.N, clock=ManualClock(0.0))
        for step in steps:
            for label in step.keys:
                seat, _, name = label.rpartition(".")
                table.on_input(press_event(name, cast(SeatName, seat) if seat else None))
            counts.append(int(db.execute("SELECT COUNT(*) FROM events").fetchone()[0]))
    return counts, journal_events(journal_path, copy=False)


def with_undos(steps: list[Step], rng: random.Random, count: int) -> list[Step]:
    """Insert `count` UNDO presses, each followed by the step it took back, again."""
    candidates = [i for i, step in enumerate(steps) if step.what in ("pass", "card", "bid")]
    chosen = set(rng.sample(candidates, min(count, len(candidates))))
    out: list[Step] = []
    for index, step in enumerate(steps):
        out.append(step)
        if index in chosen:
            out += [Step(("UNDO",), "undo"), step]
    return out


def simulate_with_moon(seed: int) -> SimulatedGame:
    """A simulated game whose first bidder shoots the moon and a later one asks for help (with
    the exchange OK'd), which the simulator seldom dares."""
    choose = simulator._choose_bid
    daring = [MOON, ASK]

    def bold(hand: list[Card], legal: tuple[Bid, ...], rules: Rules, rng: random.Random) -> Bid:
        if daring and daring[0] in legal and rng.random() < 0.5:
            return daring.pop(0)
        return choose(hand, legal, rules, rng)

    with mock.patch.object(simulator, "_choose_bid", bold):
        return simulate_game(
            seed=seed, rules=RULES, dealer=Seat.N, renege_rate=0.1, renege_limit=1
        )


def build_game(seed: int, limit: int | None = None, undos: int = 4) -> Game:
    """A simulated game as panel steps, with UNDOs; kept only if its end matches the game's."""
    simulated = simulate_with_moon(seed)
    lines = script_from_events(simulated.events, by_keys=True)
    plain = steps_from_lines(lines)[:limit]
    with tempfile.TemporaryDirectory() as folder:
        counts, events = play_in_process(plain, Path(folder) / "plain.sqlite")
        steps = with_undos(plain, random.Random(seed), undos)
        undone_counts, undone_events = play_in_process(steps, Path(folder) / "undo.sqlite")
    plain_game = [e for e in events if '"undo"' not in e]
    kept = [e for e in undone_events if '"undo"' not in e]
    if limit is None and len(plain_game) != len(simulated.events):
        raise RuntimeError(f"seed {seed}: the panel keys do not replay the simulated game")
    if _without_undone(undone_events) == plain_game and kept:
        return Game(steps, undone_counts, undone_events)
    return Game(plain, counts, events)


def _without_undone(events: list[str]) -> list[str]:
    out: list[str] = []
    for event in events:
        if json.loads(event).get("type") == "undo":
            out.pop()
        else:
            out.append(event)
    return out


def journal_events(path: Path, copy: bool = True) -> list[str]:
    """The latest game's events, read from a copy of the journal's files (the WAL kept)."""
    if not path.exists():
        return []
    with tempfile.TemporaryDirectory() as folder:
        source = path
        if copy:
            source = Path(folder) / path.name
            for suffix in ("", "-wal", "-shm"):
                original = Path(f"{path}{suffix}")
                if original.exists():
                    shutil.copyfile(original, f"{source}{suffix}")
        db = sqlite3.connect(source)
        try:
            row = db.execute("SELECT MAX(id) FROM games").fetchone()
            if row is None or row[0] is None:
                return []
            return [
                text
                for (text,) in db.execute(
                    "SELECT event FROM events WHERE game_id = ? ORDER BY seq", (row[0],)
                )
            ]
        except sqlite3.DatabaseError:
            return []
        finally:
            db.close()


class Panel:
    """The fake panel on a pty, serviced in real time (heartbeats, answers to the table)."""

    def __init__(self, folder: Path) -> None:
        self.fake = PtyPanel(folder / "usb-MicroPython_Board_in_FS_mode_fault-if00")
        self.started = time.monotonic()
        self.beat = 0.0
        self.hellos = 0
        self.trace = (folder / "panel.trace").open("a")  # every line each way, for a post-mortem
        self.deaf = False  # ACKs do not reach the panel (the table dies before writing them)
        self._watch()

    def reboot(self, boot: str) -> None:
        """The board restarts with the cable in; its power-up HELLO counts as an answer."""
        self.fake.reboot(boot)
        self._watch()
        self.hellos += 1

    def _watch(self) -> None:
        answer = self.fake.core.hello

        def hello() -> None:
            self.hellos += 1
            answer()

        self.fake.core.hello = hello
        receive, write = self.fake.core.receive, self.fake.core.write

        def traced_receive(line: str) -> None:
            if self.deaf and line.startswith("ACK"):
                self.trace.write(f"{self.fake.ms} <- (not heard) {line}\n")
                return
            self.trace.write(f"{self.fake.ms} <- {line}\n")
            receive(line)

        def traced_write(line: str) -> None:
            self.trace.write(f"{self.fake.ms} -> {line}\n")
            write(line)

        self.fake.core.receive = traced_receive
        self.fake.core.write = traced_write

    @property
    def path(self) -> Path:
        return self.fake.link_path

    def pump(self, seconds: float) -> None:
        """Answer the table and send heartbeats for `seconds` of real time."""
        end = time.monotonic() + seconds
        while True:
            self._clock()
            if time.monotonic() - self.beat >= HEARTBEAT_S:  # on real time: the panel's own
                self.beat = time.monotonic()  # clock runs ahead with every press
                self.fake.core.last_heartbeat = None
                self.fake.advance(0)
            master = self.fake._master
            left = end - time.monotonic()
            if master is not None:
                select.select([master], [], [], max(0.0, min(left, 0.05)))
                self.fake.service()
            if left <= 0:
                return

    def press(self, label: str) -> list[int]:
        """Press and release a key; the numbers of its two lines."""
        self._clock()
        self.fake.press(label)
        return [self.fake.core.seq - 1, self.fake.core.seq]

    def unacked(self) -> set[int]:
        return {seq for seq, _ in self.fake.core.unacked}

    def _clock(self) -> None:
        self.fake.ms = max(self.fake.ms, int((time.monotonic() - self.started) * 1000))

    def close(self) -> None:
        self.trace.close()
        self.fake.close()


class Table:
    """One `cardtable run` process on the panel and a state directory; with `camera_fault`
    (tests/harness/camera_fault.py) its recorded camera fails as that says."""

    def __init__(
        self,
        config: Path,
        state_dir: Path,
        log: Path,
        env: dict[str, str] | None = None,
        extra: tuple[str, ...] = (),
        camera_fault: str | None = None,
    ) -> None:
        self.log = log
        self.handle = log.open("a")
        command = ["-m", "app"]
        if camera_fault is not None:
            command = ["-m", "tests.harness.camera_fault", camera_fault]
            paths = [str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])]
            env = {**(env or {}), "PYTHONPATH": os.pathsep.join(paths)}
        self.process = subprocess.Popen(
            [sys.executable, *command, "run", "--config", str(config), "--no-display",
             "--state-dir", str(state_dir), "--verbose", *extra],
            stdout=self.handle, stderr=self.handle, text=True,
            env=None if env is None else {**os.environ, **env},
        )  # fmt: skip

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        if self.alive:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)
        self.handle.close()

    def stop(self) -> int:
        if self.alive:
            self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(timeout=60)
        self.handle.close()
        return code


class Stuck(Exception):
    """The table stopped acknowledging keys; the scenario ends there."""


@dataclass
class Row:
    """One line of the fault table."""

    fault: str
    did: str
    acknowledged: int
    lost: int
    ok: bool


@dataclass
class Rig:
    """A state directory, a panel and the game, for one fault."""

    folder: Path
    game: Game
    panel: Panel
    state_dir: Path
    config: Path
    acknowledged: int = 0  # journal events behind the keys the panel heard ACK for
    lost: int = 0
    cut_steps: int = 0
    runs: int = 0
    notes: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)

    @property
    def journal(self) -> Path:
        return self.state_dir / "journal.sqlite"

    @property
    def log(self) -> Path:
        return self.folder / "table.log"

    def start(
        self,
        env: dict[str, str] | None = None,
        extra: tuple[str, ...] = (),
        camera_fault: str | None = None,
    ) -> Table:
        self.runs += 1
        with self.log.open("a") as log:
            log.write(f"--- run {self.runs}\n")
        table = Table(self.config, self.state_dir, self.log, env, extra, camera_fault)
        self.tables.append(table)
        return table

    def settle(self, table: Table, hellos: int | None = None, timeout: float = 30.0) -> bool:
        """Wait for the table's handshake and for every held key to be taken; False if it died."""
        hellos = self.panel.hellos if hellos is None else hellos
        end = time.monotonic() + timeout
        quiet_since: float | None = None
        while time.monotonic() < end:
            self.panel.pump(0.05)
            if not table.alive:
                return False
            if self.panel.hellos > hellos and not self.panel.unacked():
                quiet_since = quiet_since or time.monotonic()
                if time.monotonic() - quiet_since >= SETTLE_S:
                    return True
            else:
                quiet_since = None
        raise RuntimeError("the table did not take the panel's keys in time")

    def check_journal(self) -> int:
        """Compare the journal with the expected game; count what acknowledged is missing."""
        events = journal_events(self.journal)
        if events != self.game.events[: len(events)]:
            self.notes.append(f"journal differs from the game after {len(events)} events")
        self.lost += max(0, self.acknowledged - len(events))
        return len(events)

    def play(self, table: Table, start: int, stop: int) -> int:
        """Press steps `start`..`stop-1`, each once the last was acknowledged; the next step."""
        for index in range(start, stop):
            if not self.press_step(table, index):
                return index
        return stop

    def press_step(self, table: Table, index: int, *, wait: bool = True) -> bool:
        """One step's keys; True once all are acknowledged (False: the table died first)."""
        seqs: list[int] = []
        for label in self.game.steps[index].keys:
            seqs += self.press_key(label)
        if not wait:
            return True
        end = time.monotonic() + ACK_TIMEOUT_S
        while time.monotonic() < end:
            if not set(seqs) & self.panel.unacked():
                self.acknowledged = max(self.acknowledged, self.game.counts[index])
                return True
            if not table.alive:
                return False
            self.panel.pump(0.01)
        self.notes.append(f"step {index} {self.game.steps[index].keys} never acknowledged")
        self.check_journal()
        raise Stuck(index)

    def wait_for_journal(self, table: Table, count: int) -> bool:
        """Serve the panel until the journal holds `count` events; False (noted) if never."""
        end = time.monotonic() + ACK_TIMEOUT_S
        while time.monotonic() < end:
            if len(journal_events(self.journal)) >= count:
                return True
            if not table.alive:
                break
            self.panel.pump(0.02)
        self.notes.append(f"the journal never reached {count} events")
        return False

    def press_key(self, label: str) -> list[int]:
        return self.panel.press(label)

    def finish(self, table: Table) -> tuple[int, bool]:
        """Stop the table cleanly; (exit code, whether the journal holds exactly the game)."""
        code = table.stop()
        events = journal_events(self.journal)
        self.lost += max(0, self.acknowledged - len(events))
        return code, events == self.game.events


@contextmanager
def rig_for(game: Game, name: str, root: Path) -> Iterator[Rig]:
    folder = root / name
    folder.mkdir()
    panel = Panel(folder)
    config = folder / "table.toml"
    config.write_text(CONFIG.format(port=panel.path))
    rig = Rig(folder, game, panel, folder / "state", config)
    try:
        yield rig
    except Stuck:
        pass  # noted in the rig; the caller makes its row after the block
    finally:
        for table in rig.tables:  # none is left running, whatever happened
            if table.alive:
                table.kill()
        panel.close()


def tracebacks(log: Path) -> int:
    """Tracebacks the table printed."""
    return log.read_text(errors="replace").count("Traceback") if log.exists() else 0


def fault_kills(game: Game, root: Path, kills: int, rng: random.Random) -> Row:
    """SIGKILL at random moments across the whole game, some during start-up replay."""
    with rig_for(game, "kills", root) as rig:
        moments = sorted(rng.sample(range(len(game.steps)), min(kills, len(game.steps))))
        step, killed, in_replay, replay_next, same = 0, 0, 0, False, False
        while True:
            table = rig.start()
            if replay_next:  # killed again while it replays the journal and greets the panel
                replay_next = False
                rig.panel.pump(rng.uniform(0.0, 1.0))
                table.kill()
                in_replay += 1
                rig.check_journal()
                continue
            if not rig.settle(table):
                rig.notes.append("the table died on its own at start")
                break
            step, cut = game.resume_at(rig.check_journal())
            rig.cut_steps += cut
            target = moments.pop(0) if moments else len(game.steps)
            target = max(target, step)
            step = rig.play(table, step, target)
            if step >= len(game.steps):
                code, same = rig.finish(table)
                if code != 0 or not same:
                    rig.notes.append(f"exit {code}")
                break
            rig.press_step(table, step, wait=False)
            rig.panel.pump(rng.uniform(0.0, 0.04))
            table.kill()
            killed += 1
            replay_next = rng.random() < 0.3
            rig.check_journal()
        did = (f"{killed} kills in play and {in_replay} during start-up, {rig.runs - 1} "
               f"restarts on the leftover WAL, final game {'the same' if same else 'DIFFERS'}")
        if rig.cut_steps:
            did += f"; {rig.cut_steps} kills fell inside a step's events"
        return _row(rig, f"SIGKILL at random moments ({kills})", did)

    return _row(rig, f"SIGKILL at random moments ({kills})", STOPPED)


def fault_ack_lost(game: Game, root: Path, kills: int, rng: random.Random) -> Row:
    """The table killed after it committed a step and before the panel heard the step's ACKs:
    the panel sends those keys again to the next table, which must not apply them twice."""
    with rig_for(game, "ack", root) as rig:
        moments = sorted(rng.sample(range(len(game.steps)), min(kills, len(game.steps))))
        step, killed, same = 0, 0, False
        while True:
            table = rig.start()
            if not rig.settle(table):  # the resent keys answered
                rig.notes.append("the table died on its own at start")
                break
            step, _ = game.resume_at(rig.check_journal())
            target = max(moments.pop(0) if moments else len(game.steps), step)
            step = rig.play(table, step, target)
            if step >= len(game.steps):
                code, same = rig.finish(table)
                if code != 0 or not same:
                    rig.notes.append(f"exit {code}")
                break
            rig.panel.deaf = True
            rig.press_step(table, step, wait=False)
            if not rig.wait_for_journal(table, game.counts[step]):
                break
            table.kill()
            rig.panel.deaf = False
            killed += 1
        twice = any("journal differs" in note for note in rig.notes)
        resent = "some resent keys APPLIED AGAIN" if twice else (
            "the resent keys answered without a second event")
        did = (f"{killed} kills after a step's commit, before its ACK; {resent}, final game "
               f"{'the same' if same else 'DIFFERS'}")
        return _row(rig, f"SIGKILL between a commit and its ACK ({kills})", did)

    return _row(rig, f"SIGKILL between a commit and its ACK ({kills})", STOPPED)


def fault_garbage(game: Game, root: Path, rng: random.Random, count: int = 12) -> Row:
    """Junk lines, junk glued to key lines, half frames and bad checksums on the serial line."""
    with rig_for(game, "garbage", root) as rig:
        harms: list[Callable[[bytes], bytes]] = [
            lambda data: b"\x00\xff\xfe" + bytes(rng.randrange(256) for _ in range(300)) + data,
            lambda data: data[: len(data) // 2],  # half a frame, its LF lost too
            lambda data: data.replace(b"*", b"*0", 1)[:-1] + b"\n",  # a wrong checksum
            lambda data: b"",  # the line lost altogether
        ]
        at = set(rng.sample(range(len(game.steps)), min(count, len(game.steps))))
        original = rig.press_key

        def harmed(label: str) -> list[int]:
            rig.panel.fake.send_raw(b"REPL junk >>> \x03\x04 garbage\r\n")
            rig.panel.fake.tampers.append(rng.choice(harms))
            return original(label)

        table = rig.start()
        rig.settle(table)
        for index in range(len(game.steps)):
            rig.press_key = harmed if index in at else original  # type: ignore[method-assign]
            if not rig.press_step(table, index):
                rig.notes.append("the table died")
                break
        code, same = rig.finish(table)
        asked = rig.log.read_text(errors="replace").count("asking again")
        did = (f"read every key once, asked {asked} times for a missing line, "
               f"final game {'the same' if same else 'DIFFERS'}")
        if code != 0 or not same:
            rig.notes.append(f"exit {code}")
        return _row(rig, f"garbage on the serial line ({len(at)} times)", did)

    return _row(rig, "garbage on the serial line", STOPPED)


def fault_unplug_and_reboot(game: Game, root: Path, rng: random.Random) -> Row:
    """The cable pulled (keys pressed meanwhile) and the panel restarted with the cable in."""
    with rig_for(game, "panel", root) as rig:
        table = rig.start()
        rig.settle(table)
        third = len(game.steps) // 3
        step = rig.play(table, 0, third)
        rig.panel.fake.unplug()
        rig.panel.pump(0.5)
        held = [rig.press_step(table, i, wait=False) for i in range(step, step + 3)]
        rig.panel.pump(rng.uniform(0.2, 1.0))
        rig.panel.fake.plug()
        step = rig.play(table, step + len(held), 2 * third) if rig.settle(table) else step
        rig.acknowledged = max(rig.acknowledged, game.counts[step - 1])
        hellos = rig.panel.hellos
        rig.panel.reboot("feedbeef")
        rig.settle(table, hellos)
        step = rig.play(table, step, len(game.steps))
        code, same = rig.finish(table)
        if code != 0 or not same:
            rig.notes.append(f"exit {code}, final game {'same' if same else 'differs'}")
        did = (f"3 presses made while unplugged read after the replug; the reboot's keys read "
               f"from 1; final game {'the same' if same else 'DIFFERS'}")
        return _row(rig, "panel unplugged, then rebooted without a USB drop", did)

    return _row(rig, "panel unplugged, then rebooted without a USB drop", STOPPED)


def fault_second_instance(game: Game, root: Path) -> Row:
    """A second table and `new-game` on the same state directory while the table runs."""
    with rig_for(game, "second", root) as rig:
        table = rig.start()
        rig.settle(table)
        half = len(game.steps) // 2
        step = rig.play(table, 0, half)
        second = subprocess.run(
            [sys.executable, "-m", "app", "run", "--config", str(rig.config), "--no-display",
             "--state-dir", str(rig.state_dir)],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        new_game = subprocess.run(
            [sys.executable, "-m", "app", "new-game", "--state-dir", str(rig.state_dir)],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        for result in (second, new_game):
            with rig.log.open("a") as log:
                log.write(result.stdout + result.stderr)
        refused = [r.returncode == 2 and "already running" in r.stderr for r in (second, new_game)]
        step = rig.play(table, step, len(game.steps))
        code, same = rig.finish(table)
        if not all(refused):
            rig.notes.append(f"second table exit {second.returncode}, new-game exit "
                             f"{new_game.returncode}")
        if code != 0 or not same:
            rig.notes.append(f"exit {code}, final game {'same' if same else 'differs'}")
        did = ("second table and new-game refused (exit 2, 'already running'), game went on"
               if all(refused) else "a second writer was let in")
        return _row(rig, "a second instance and new-game meanwhile", did)

    return _row(rig, "a second instance and new-game meanwhile", STOPPED)


def fault_damaged_journal(game: Game, root: Path, rng: random.Random) -> list[Row]:
    """A journal with changed bytes, emptied, or deleted: the table must refuse and keep it."""
    rows: list[Row] = []
    with rig_for(game, "damaged", root) as rig:
        table = rig.start()
        rig.settle(table)
        rig.play(table, 0, len(game.steps) // 2)
        rig.finish(table)
        good = rig.journal.read_bytes()
        acknowledged = rig.acknowledged

        def damage_bytes(path: Path) -> None:
            """Change a few bytes inside stored events (random bytes could miss the data)."""
            data = bytearray(good)
            texts = [text.encode() for text in journal_events(rig.journal)]
            for text in rng.sample(texts, min(3, len(texts))):
                at = data.find(text)
                if at >= 0:
                    spot = at + rng.randrange(len(text))
                    data[spot] = ord("#") if data[spot] != ord("#") else ord("!")
            path.write_bytes(bytes(data))

        damages: list[tuple[str, Callable[[Path], None]]] = [
            ("journal with changed bytes", damage_bytes),
            ("journal truncated to 0 bytes", lambda path: path.open("w").close()),
            ("journal deleted", lambda path: path.unlink()),
        ]
        for name, damage in damages:
            for suffix in ("-wal", "-shm"):
                Path(f"{rig.journal}{suffix}").unlink(missing_ok=True)
            rig.journal.write_bytes(good)
            damage(rig.journal)
            before = rig.journal.read_bytes() if rig.journal.exists() else None
            result = subprocess.run(
                [sys.executable, "-m", "app", "run", "--config", str(rig.config), "--no-display",
                 "--state-dir", str(rig.state_dir), "--max-seconds", "3"],
                capture_output=True, text=True, timeout=60, check=False,
            )  # fmt: skip
            with rig.log.open("a") as log:
                log.write(result.stdout + result.stderr)
            after = rig.journal.read_bytes() if rig.journal.exists() else None
            kept = before == after
            named = str(rig.journal) in result.stderr
            refused = result.returncode == 2 and named and kept
            events = journal_events(rig.journal)
            if refused:
                did = "refused to start (exit 2), named the file, kept it as it was"
                lost = 0
            else:
                did = f"exit {result.returncode}, file {'kept' if kept else 'CHANGED'}"
                lost = max(0, acknowledged - len(events))
            trace = "Traceback" in result.stderr
            if trace:
                did += ", TRACEBACK"
            rows.append(Row(name, did, acknowledged, lost, refused and not trace))
        rig.journal.write_bytes(good)
    return rows


PAUSED = "input paused"
RESUME_TIMEOUT_S = 20.0  # the journal is probed on a backoff of 0.5 s up to 5 s
TMPFS_SIZE = "16m"  # the journal and a WAL of up to 1000 pages
LOCK_HOLD_S = 4.0  # longer than the table's 1 s wait for a lock, so the write is refused


@contextmanager
def state_on_tmpfs(rig: Rig) -> Iterator[bool]:
    """The rig's state directory on a small tmpfs; False where one cannot be mounted. Any table
    still running is killed before the tmpfs is unmounted, whatever happened."""
    rig.state_dir.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={TMPFS_SIZE}", "tmpfs", str(rig.state_dir)],
        capture_output=True, check=False,
    ) if os.geteuid() == 0 else None  # fmt: skip
    if done is None or done.returncode != 0:
        yield False
        return
    try:
        yield True
    finally:
        for table in rig.tables:
            if table.alive:
                table.kill()
        subprocess.run(["umount", "-l", str(rig.state_dir)], capture_output=True, check=False)


def fill_disk(folder: Path) -> Callable[[], None]:
    """Fill the file system of `folder` to the last byte; returns what frees the space again."""
    filler = folder / "filler"
    with filler.open("wb", buffering=0) as out:
        for size in (65536, 4096, 512, 1):
            try:
                while out.write(b"\0" * size):
                    pass
            except OSError:
                continue
    return filler.unlink


def single_key_step(game: Game, start: int) -> int:
    """The first step from `start` made of one key (a bid, pass, trump, OK, UNDO...)."""
    return next(i for i in range(start, len(game.steps)) if len(game.steps[i].keys) == 1)


def press_refused(rig: Rig, table: Table, index: int) -> tuple[list[int], bool]:
    """Press a step's keys; (their line numbers, True if the table paused input on them rather
    than acknowledging them); a press taken counts as acknowledged, a refused one does not."""
    paused_before = rig.log.read_text(errors="replace").count(PAUSED)
    seqs: list[int] = []
    for label in rig.game.steps[index].keys:
        seqs += rig.press_key(label)
    end = time.monotonic() + ACK_TIMEOUT_S
    while time.monotonic() < end and table.alive:
        if rig.log.read_text(errors="replace").count(PAUSED) > paused_before:
            return seqs, True
        if not set(seqs) & rig.panel.unacked():
            rig.acknowledged = max(rig.acknowledged, rig.game.counts[index])
            return seqs, False
        rig.panel.pump(0.02)
    if table.alive:
        rig.notes.append(f"step {index} neither acknowledged nor refused")
        raise Stuck(index)
    return seqs, False


def wait_acked(rig: Rig, table: Table, seqs: list[int]) -> float | None:
    """Serve the panel until keys `seqs` are acknowledged; the seconds it took, None if never."""
    started = time.monotonic()
    while time.monotonic() - started < RESUME_TIMEOUT_S and table.alive:
        if not set(seqs) & rig.panel.unacked():
            return time.monotonic() - started
        rig.panel.pump(0.02)
    return None


def refuse_and_resume(
    rig: Rig, table: Table, at: int, fault: Callable[[], Callable[[], None]]
) -> tuple[int, str]:
    """Play up to step `at`, bring on `fault` (it returns what ends it) and press a one-key
    step until the table refuses one; check that it was not taken, end the fault, wait for the
    refusal's ACK, press the step again. The next step to play and what happened."""
    start = 0
    for _ in range(3):
        index = single_key_step(rig.game, max(at, start))
        start = rig.play(table, start, index)
        end_fault = fault()
        refused = False
        try:
            seqs, refused = press_refused(rig, table, index)
        finally:
            if not refused:
                end_fault()
        if not table.alive:
            rig.notes.append("the table died under the fault")
            return index, "died"
        if refused:
            break
        start = index + 1  # the journal still had room: the press was taken, and counted
    else:
        rig.notes.append("3 presses taken under the fault: none refused")
        return start, "never refused"
    journaled = rig.check_journal()
    if journaled != (rig.game.counts[index - 1] if index else 1):
        rig.notes.append(f"the refused press left {journaled} events in the journal")
    end_fault()
    took = wait_acked(rig, table, seqs)
    if took is None:
        rig.notes.append("the refused press was never acknowledged after the fault ended")
        return index, "did not resume"
    if rig.check_journal() != journaled:
        rig.notes.append("the refusal's acknowledgement came with events")
    if not rig.press_step(table, index):
        rig.notes.append("the table died")
        return index, "died"
    return index + 1, (f"step {index} ({rig.game.steps[index].what}) refused, not acknowledged "
                       f"as taken, its events not journaled; the refusal acknowledged {took:.1f} s "
                       f"after the fault ended; pressed again and taken")


def finish_after_pause(rig: Rig, table: Table, step: int, did: str) -> str:
    """Play the rest of the game and stop the table, which exits 1 naming its failed writes."""
    step = rig.play(table, step, len(rig.game.steps))
    code, same = rig.finish(table)
    named = "the journal could not write" in rig.log.read_text(errors="replace")
    if code != 1 or not named or not same:
        rig.notes.append(f"exit {code}, final game {'same' if same else 'differs'}")
    return f"{did}; final game {'the same' if same else 'DIFFERS'}, exit 1 naming the failed writes"


def fault_full_disk(game: Game, root: Path) -> Row:
    """The state directory on a small tmpfs, filled: a press refused, then taken once space
    returns."""
    name = f"disk full (a {TMPFS_SIZE[:-1]} MB tmpfs filled)"
    with rig_for(game, "full", root) as rig, state_on_tmpfs(rig) as mounted:
        if not mounted:
            return Row(name, "skipped: cannot mount a tmpfs here", 0, 0, True)
        table = rig.start()
        rig.settle(table)
        step, did = refuse_and_resume(
            rig, table, len(game.steps) // 3, lambda: fill_disk(rig.state_dir)
        )
        return _row(rig, name, finish_after_pause(rig, table, step, did))

    return _row(rig, name, STOPPED)


def fault_read_only_journal(game: Game, root: Path) -> Row:
    """The journal, its WAL and its folder made immutable while a step is pressed: writes fail
    for root too, through the files the table holds open (chmod would stop neither)."""
    from tests.harness.read_only import immutable_unsupported, refuse_writes

    name = "journal made read-only mid-game (chattr +i: journal, WAL, folder)"
    with rig_for(game, "readonly", root) as rig:
        why = immutable_unsupported(rig.folder)
        if why is not None:
            return Row(name, f"skipped: {why}", 0, 0, True)
        allowed: list[Callable[[], None]] = []

        def read_only() -> Callable[[], None]:
            allowed.append(refuse_writes(
                [rig.journal, Path(f"{rig.journal}-wal"), rig.state_dir]))
            return allowed[-1]

        try:
            table = rig.start()
            rig.settle(table)
            step, did = refuse_and_resume(rig, table, 2 * len(game.steps) // 5, read_only)
        finally:
            for allow in allowed:  # never leave a file root cannot delete
                allow()
        if f"{READ_ONLY_SAID} — {PAUSED}" not in rig.log.read_text(errors="replace"):
            rig.notes.append(f"the pause did not say '{READ_ONLY_SAID}'")
        return _row(rig, name, finish_after_pause(rig, table, step, did))

    return _row(rig, name, STOPPED)


READ_ONLY_SAID = "journal cannot write: read-only"


def hold_journal_lock(journal: Path, seconds: float, panel: Panel) -> Callable[[], None]:
    """Another program holds `BEGIN EXCLUSIVE` on the journal for `seconds`; returns what serves
    the panel until it lets go."""
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sqlite3, sys, time\n"
         "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
         "db.execute('BEGIN EXCLUSIVE')\n"
         "print('locked', flush=True)\n"
         "time.sleep(float(sys.argv[2]))\n"
         "db.execute('ROLLBACK')\n",
         str(journal), str(seconds)],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert holder.stdout is not None
    holder.stdout.readline()  # the lock is held from here

    def let_go() -> None:
        end = time.monotonic() + seconds + 30
        while holder.poll() is None and time.monotonic() < end:
            panel.pump(0.05)
        if holder.poll() is None:
            holder.kill()
        holder.wait()

    return let_go


def fault_locked_journal(game: Game, root: Path) -> Row:
    """Another program holds the journal's write lock while a step is pressed."""
    name = f"journal locked by another program ({LOCK_HOLD_S:.0f} s)"
    with rig_for(game, "locked", root) as rig:
        table = rig.start()
        rig.settle(table)
        step, did = refuse_and_resume(
            rig, table, len(game.steps) // 2,
            lambda: hold_journal_lock(rig.journal, LOCK_HOLD_S, rig.panel),
        )  # fmt: skip
        return _row(rig, name, finish_after_pause(rig, table, step, did))

    return _row(rig, name, STOPPED)


CAMERA_FRAMES = 40  # 4 s of felt at 10 fps, looped by the table
BAD_FRAMES = {7: b"", 23: b"\x89PNG\r\n\x1a\n garbage"}


CAMERA_CONFIG = ('\n[camera]\nkind = "recorded"\npath = "frames"\nwidth = 160\nheight = 120\n'
                 'fps = 10\n\n[vision]\ncalibration = "zones.json"\n\n[signals]\nvia = "none"\n')


def write_camera(
    folder: Path, count: int = CAMERA_FRAMES, bad: dict[int, bytes] | None = None
) -> Path:
    """A recorded camera of empty felt (`count` frames, `bad` ones with the bytes given) and
    its calibration, beside the rig's config; the folder of frames."""
    import cv2
    import numpy as np

    from vision.zones import default_zones, save_zones

    bad = BAD_FRAMES if bad is None else bad
    frames = folder / "frames"
    frames.mkdir()
    felt = np.zeros((120, 160, 3), np.uint8)
    felt[:] = (40, 110, 30)
    for index in range(count):
        path = frames / f"frame_{index:04d}.png"
        if index in bad:
            path.write_bytes(bad[index])
        else:
            cv2.imwrite(str(path), felt)
    save_zones(default_zones(160, 120), folder / "zones.json")
    return frames


def fault_camera(game: Game, root: Path) -> Row:
    """A recorded camera with a zero-byte and a garbage frame while the game is played."""
    name = "zero-byte and garbage frame from the camera"
    with rig_for(game, "camera", root) as rig:
        frames = write_camera(rig.folder)
        with rig.config.open("a") as config:
            config.write(CAMERA_CONFIG)
        table = rig.start()
        rig.settle(table)
        step = rig.play(table, 0, len(game.steps) // 3)
        bad = [frames / f"frame_{index:04d}.png" for index in sorted(BAD_FRAMES)]
        end = time.monotonic() + 3 * CAMERA_FRAMES / 10
        while time.monotonic() < end and table.alive:
            text = rig.log.read_text(errors="replace")
            if all(f"skipped {path}" in text for path in bad):
                break
            rig.panel.pump(0.1)
        text = rig.log.read_text(errors="replace")
        named = [path.name for path in bad if f"skipped {path}" in text]
        if len(named) < len(bad):
            rig.notes.append(f"named only {named or 'no frame'} of the bad frames")
        step = rig.play(table, step, len(game.steps))
        code, same = rig.finish(table)
        if not same:
            rig.notes.append(f"exit {code}, final game differs")
        back = text.count("camera delivers frames again")
        did = (f"named {' and '.join(named)} in its log ('skipped ...: an empty file', 'not an "
               f"image'), took the next frames ({back} times 'camera delivers frames again'), "
               f"played on; exit {code}, final game {'the same' if same else 'DIFFERS'}")
        return _row(rig, name, did)

    return _row(rig, name, STOPPED)


def _row(rig: Rig, fault: str, did: str) -> Row:
    traces = tracebacks(rig.log)
    if traces:
        did += f"; {traces} TRACEBACKS"
    if rig.notes:
        did += "; " + "; ".join(rig.notes)
    ok = not traces and not rig.notes and not rig.lost
    return Row(fault, did, rig.acknowledged, rig.lost, ok)
