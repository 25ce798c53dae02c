"""A power cut at random moments loses nothing acknowledged; the panel hears ACK after commit."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from app.config import AppConfig
from app.controller import TableController
from app.crashcheck import crash_check
from app.journal import Journal
from app.run import TableApp, current_view
from display.view import Problem, ProblemKind, SeatNames
from display.wording import problem_headline
from drivers.clock import ManualClock
from drivers.fake_panel import LoopPanel
from drivers.panel_link import RECONNECT_MAX_S, PanelLink
from table import Rules, Seat


def test_sigkill_and_restart_resume_the_same_game() -> None:
    report = crash_check(kills=4, seed=5)
    assert report.kills == 4 and report.restarts == 4
    assert report.acked_events_missing == 0
    assert report.mismatches == []


@dataclass
class PanelTable:
    """A referee on a journal in tmp_path, fed by the real PanelLink from the fake panel."""

    app: TableApp
    journal: Journal
    panel: LoopPanel
    link: PanelLink
    clock: ManualClock

    def drain(self) -> None:
        self.app.drain([self.link.poll])

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
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        rig.drain()
    for _ in range(3):
        rig.drain()
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
