"""A power cut at random moments loses nothing acknowledged; the panel hears ACK after commit."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from app.config import AppConfig
from app.controller import Notice, TableController
from app.journal import Journal
from app.run import TableApp, current_view
from display.view import Problem, ProblemKind, SeatNames
from display.wording import problem_headline
from drivers.clock import ManualClock
from drivers.fake_panel import LoopPanel
from drivers.panel_link import RECONNECT_MAX_S, PanelLink
from table import Rules, Seat
from tests.harness.crashcheck import crash_check
from tests.harness.powercut import Disk, Op, build_shim, power_cut_check, read_log


def test_sigkill_and_restart_resume_the_same_game() -> None:
    report = crash_check(kills=4, seed=5)
    assert report.kills >= 4 and report.restarts == report.kills  # some kills hit the start-up
    assert report.acked_events_missing == 0
    assert report.mismatches == []
    assert not any("Traceback" in run for run in report.transcript)
    assert max(report.kill_after_acks) > 2 * min(report.kill_after_acks)  # not all early on


def test_power_cuts_lose_nothing_acknowledged_and_a_lying_disk_is_caught(tmp_path: Path) -> None:
    report = power_cut_check(cuts=3, seed=3, limit=30, keep=tmp_path / "honest")
    assert report.cuts >= 3 and report.syncs > 0
    assert report.acknowledged > 0
    assert report.acknowledged_missing == 0 and report.differs == [] and report.tracebacks == 0
    lying = power_cut_check(cuts=3, seed=3, limit=30, keep=tmp_path / "lying", lying_disk=True)
    assert not lying.ok  # fsync that does nothing: the cut takes acknowledged events with it
    assert lying.acknowledged_missing > 0 or lying.differs


def test_power_cut_keeps_what_was_synced_and_any_part_of_the_rest() -> None:
    path = "/state/journal.sqlite-wal"
    disk = Disk.of({path: b"A" * 1024})
    disk.replay([
        Op("W", path, 1024, b"B" * 1024), Op("S", path, 0),  # a commit, synced
        Op("W", path, 2048, b"C" * 2048), Op("W", path, 0, b"D" * 16),  # not synced yet
        Op("W", "/state/journal.sqlite-shm", 0, b"x" * 8),
    ])  # fmt: skip
    seen: set[bytes] = set()
    for seed in range(200):
        files, _ = disk.after_cut(random.Random(seed))
        assert "/state/journal.sqlite-shm" not in files  # never synced: rebuilt by SQLite
        image = files[path]
        assert image[16:2048] == b"A" * 1008 + b"B" * 1024  # the synced commit always survives
        seen.add(image)
    tails = {image[2048:] for image in seen}
    assert b"" in tails and b"C" * 2048 in tails  # lost, or whole
    assert any(0 < len(tail) < 2048 and len(tail) % 512 == 0 for tail in tails)  # or torn
    assert {image[:16] for image in seen} == {b"A" * 16, b"D" * 16}


def test_shim_log_is_read_back_in_order(tmp_path: Path) -> None:
    shim = build_shim(tmp_path)
    log = tmp_path / "io.log"
    code = (
        "import sqlite3, sys\n"
        "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "db.execute('PRAGMA journal_mode=WAL'); db.execute('PRAGMA synchronous=FULL')\n"
        "db.execute('CREATE TABLE t(x)'); db.execute('INSERT INTO t VALUES (1)')\n"
    )
    env = {**os.environ, "LD_PRELOAD": str(shim), "CARDTABLE_IOLOG": str(log),
           "CARDTABLE_IOLOG_WATCH": "journal.sqlite"}  # fmt: skip
    subprocess.run([sys.executable, "-c", code, str(tmp_path / "journal.sqlite")], env=env,
                   check=True, timeout=60)  # fmt: skip
    ops = read_log(log)
    wal = [op for op in ops if op.path.endswith("journal.sqlite-wal")]
    assert [op.kind for op in wal][:1] == ["O"]
    assert "S" in {op.kind for op in wal} and "W" in {op.kind for op in wal}
    assert all(op.path.startswith(str(tmp_path.resolve())) for op in ops)


@dataclass
class PanelTable:
    """A referee on a journal in tmp_path, fed by the real PanelLink from the fake panel."""

    app: TableApp
    journal: Journal
    panel: LoopPanel
    link: PanelLink
    clock: ManualClock

    def drain(self) -> list[Notice]:
        return self.app.drain([self.link.poll])

    def committed(self) -> int:
        """Events in the journal, as another connection reads them."""
        with sqlite3.connect(self.journal.path) as other:
            return int(other.execute("SELECT count(*) FROM events").fetchone()[0])


@pytest.fixture
def panel_table(tmp_path: Path) -> Iterator[PanelTable]:
    clock = ManualClock(100.0)
    journal = Journal(tmp_path / "journal.sqlite")
    controller = TableController(journal, Rules(), Seat.N, clock=clock)
    app = TableApp(AppConfig(state_dir=tmp_path), controller, clock=clock)
    panel = LoopPanel()
    link = PanelLink("loop://", open_port=panel.open, clock=clock)
    rig = PanelTable(app, journal, panel, link, clock)
    rig.drain()  # opens the port and says HELLO
    rig.drain()  # reads the answer
    assert link.connected
    yield rig
    journal.close()


def test_panel_hears_ack_only_after_the_journal_committed(panel_table: PanelTable) -> None:
    rig = panel_table
    acks: list[tuple[str, int]] = []  # (line, events committed when the panel heard it)
    receive = rig.panel.core.receive

    def spy(line: str) -> None:
        if line.startswith("ACK"):
            acks.append((line.split("*")[0], rig.committed()))
        receive(line)

    rig.panel.core.receive = spy
    before = rig.committed()
    for label in ("4", "PASS", "PASS", "PASS", "HEARTS"):  # E bids 4, the rest pass, hearts
        rig.panel.press(label)
        rig.drain()
    rig.drain()
    presses = [(line, count) for line, count in acks if int(line.split()[2]) % 2 == 1]
    assert [line for line, _ in presses] == [f"ACK 100p0001 {seq}" for seq in (1, 3, 5, 7, 9)]
    assert [count for _, count in presses] == [before + n for n in range(1, 6)]
    assert rig.panel.core.unacked == []


def test_press_the_journal_cannot_take_is_not_acknowledged(panel_table: PanelTable) -> None:
    rig = panel_table
    rig.panel.press("4")
    rig.drain()
    rig.drain()
    assert rig.panel.core.unacked == []
    committed = rig.committed()
    rig.journal._db.execute("PRAGMA query_only = ON")  # the journal refuses every write now
    rig.panel.press("PASS")
    notices = rig.drain()
    for _ in range(3):
        notices += rig.drain()
    assert any("journal cannot write" in notice.message for notice in notices)
    assert [line.split()[:2] for _, line in rig.panel.core.unacked] == [["DOWN", "3"]]
    assert rig.committed() == committed


def test_panel_disconnected_reaches_the_view(panel_table: PanelTable) -> None:
    rig = panel_table
    rig.panel.unplug()
    rig.drain()
    problems = current_view(rig.app).problems
    assert problems == (Problem(ProblemKind.DISCONNECTED, device="panel"),)
    assert problem_headline(problems[0], SeatNames()) == "Panel disconnected"
    rig.panel.plug()
    rig.clock.advance(RECONNECT_MAX_S)
    rig.drain()
    rig.drain()
    assert rig.link.connected
    assert current_view(rig.app).problems == ()


def test_keys_of_a_half_keyed_card_are_acknowledged_with_the_card(
    panel_table: PanelTable,
) -> None:
    rig = panel_table
    for label in ("4", "PASS", "PASS", "PASS", "HEARTS"):  # E bids 4 and names hearts
        rig.panel.press(label)
        rig.drain()
    rig.drain()
    committed = rig.committed()
    for label in ("CARD", "MOON"):  # E: the ace of ... (the suit still to come)
        rig.panel.press(label)
        rig.drain()
    rig.drain()
    held = [line.split()[3] for _, line in rig.panel.core.unacked]
    assert held == ["CARD", "MOON"]  # a table stopping now would be sent them again
    assert rig.committed() == committed
    rig.panel.press("SPADES")
    rig.drain()
    rig.drain()
    assert rig.committed() == committed + 1
    assert rig.panel.core.unacked == []
