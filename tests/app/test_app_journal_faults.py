"""A journal that cannot write: the press is not acknowledged, nothing changes, input waits.

Real faults on a real SQLite journal: a full database (`PRAGMA max_page_count`, which makes
SQLite answer SQLITE_FULL, and a tiny tmpfs filled to the last byte when the machine lets
the tests mount one), a read-only connection (`PRAGMA query_only`: chmod does not stop an
open file, nor root), and another connection holding the write lock (`BEGIN EXCLUSIVE`).
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import pytest

from app.config import AppConfig
from app.controller import NoticeKind, TableController
from app.journal import Journal, JournalUnavailable
from app.run import TableApp, current_view
from app.sightings import Sighting, SightingKind
from display.view import ProblemKind
from drivers import inputs
from drivers.clock import ManualClock
from drivers.outputs import NullOutputs
from table import Card, Event, Rules, Seat, replay
from tests.app.tablerig import bid_hand, button_table
from tests.harness.faultcheck import fill_disk


class CountingOutputs(NullOutputs):
    """The table's outputs, counting accept ticks."""

    def __init__(self) -> None:
        self.ticks = 0

    def accept_tick(self) -> None:
        self.ticks += 1


class Table:
    """A TableApp on a journal in tmp_path, a hand-moved clock, and what it acknowledged."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self.clock = ManualClock(100.0)
        self.outputs = CountingOutputs()
        controller = TableController(journal, Rules(), clock=self.clock)
        self.app = TableApp(AppConfig(state_dir=journal.path.parent), controller,
                            outputs=self.outputs, clock=self.clock)
        self.acknowledged: list[str] = []

    def press(self, pressed: inputs.PlayerInput) -> NoticeKind:
        """Hand a press to the table carrying an acknowledgement; the first notice's kind."""
        label = repr(pressed)
        acked = replace(pressed, acknowledge=lambda: self.acknowledged.append(label))
        return self.app.handle(acked)[0].kind

    def committed(self) -> list[Event]:
        """The events of the game as another reader of the file sees them."""
        with Journal(self.journal.path) as reader:
            return reader.events(self.app.controller.game_id)


@contextmanager
def table_on(path: Path, busy_timeout_s: float = 0.0) -> Iterator[Table]:
    with Journal(path, busy_timeout_s=busy_timeout_s) as journal:
        yield Table(journal)


def bid_and_undo() -> Iterator[inputs.PlayerInput]:
    """E bids 3, UNDO, again and again: each press one more event in the journal."""
    while True:
        yield inputs.BidPressed("E", 3)
        yield inputs.UndoPressed(None)


def press_until_fault(table: Table, presses: Iterator[inputs.PlayerInput],
                      limit: int = 2000) -> inputs.PlayerInput:
    """Press until the journal refuses one; that press."""
    for _ in range(limit):
        pressed = next(presses)
        before = (list(table.app.controller.events), len(table.acknowledged))
        kind = table.press(pressed)
        if kind is NoticeKind.FAULT:
            assert (table.app.controller.events, len(table.acknowledged)) == before
            return pressed
        assert kind is NoticeKind.ACCEPTED
    raise AssertionError("the journal never refused a write")


def assert_paused(table: Table, reason: str) -> None:
    """Input refused with the reason, shown on the screen as a standing problem."""
    message = f"journal cannot write: {reason} — input paused"
    notices = table.app.handle(inputs.PassPressed("E"))
    assert [(n.kind, n.message) for n in notices] == [(NoticeKind.REFUSED, message)]
    problems = current_view(table.app).problems
    assert [(p.kind, p.device, p.detail) for p in problems] == [
        (ProblemKind.FAULT, "journal", message)
    ]


def resume(table: Table) -> None:
    """Let the backoff run out; the next tick's probe resumes input."""
    assert table.app.tick() == []  # too early: no probe yet
    table.clock.advance(10.0)
    notices = table.app.tick()
    assert [n.kind for n in notices] == [NoticeKind.RECOVERED]
    assert not table.app.journal_pause.paused
    assert current_view(table.app).problems == ()


def test_a_full_database_pauses_input_and_resumes_with_nothing_lost(tmp_path: Path) -> None:
    with table_on(tmp_path / "journal.sqlite") as table:
        pages = table.journal._db.execute("PRAGMA page_count").fetchone()[0]
        table.journal._db.execute(f"PRAGMA max_page_count = {pages}")
        faulted = press_until_fault(table, bid_and_undo())
        assert table.app.journal_pause.reason == "disk full"
        assert_paused(table, "disk full")
        table.clock.advance(10.0)
        assert table.app.tick() == []  # the probe fails: still full, still paused
        assert table.app.journal_pause.paused
        table.journal._db.execute(f"PRAGMA max_page_count = {pages * 100}")
        resume(table)
        assert table.press(faulted) is NoticeKind.ACCEPTED  # pressed again, taken now
        assert table.committed() == table.app.controller.events
        assert len(table.acknowledged) == len(table.committed()) - 1


def test_a_card_the_journal_cannot_take_gets_no_tick_and_is_not_on_the_table(
    tmp_path: Path,
) -> None:
    with table_on(tmp_path / "journal.sqlite") as table:
        bid_hand(table.app.controller)
        pages = table.journal._db.execute("PRAGMA page_count").fetchone()[0]
        table.journal._db.execute(f"PRAGMA max_page_count = {pages}")
        controller = table.app.controller
        for _ in range(2000):
            seat = controller.state.turn
            assert seat is not None
            ticks, on_table = table.outputs.ticks, set(controller.on_table)
            sighting = Sighting(SightingKind.PLACED, 0.0, seat, Card.parse("AH"), 0.9)
            kind = table.app.handle(sighting)[0].kind
            if kind is NoticeKind.FAULT:
                break
            assert table.outputs.ticks == ticks + 1
            assert table.press(inputs.UndoPressed(None)) is NoticeKind.ACCEPTED
        assert kind is NoticeKind.FAULT
        assert table.outputs.ticks == ticks
        assert controller.on_table == on_table
        assert controller.state.turn is seat and not controller.state.hand.tricks
        assert table.committed() == controller.events


def test_moon_with_its_forced_passes_commits_whole_or_not_at_all(tmp_path: Path) -> None:
    """A moon records the others' passes too: one transaction, never half of it."""
    with table_on(tmp_path / "journal.sqlite") as table:
        pages = table.journal._db.execute("PRAGMA page_count").fetchone()[0]
        table.journal._db.execute(f"PRAGMA max_page_count = {pages}")
        undo: inputs.PlayerInput = inputs.UndoPressed(None)
        moon: inputs.PlayerInput = inputs.BidPressed("E", "moon")
        moons = iter([moon, undo, undo, undo, undo] * 1000)
        faulted = press_until_fault(table, moons)
        committed = table.committed()
        assert committed == table.app.controller.events
        assert replay(committed).log == table.app.controller.state.log
        if isinstance(faulted, inputs.BidPressed):
            assert table.app.controller.state.turn is Seat.E  # no pass of the moon is kept


def test_a_read_only_journal_pauses_input_until_it_writes_again(tmp_path: Path) -> None:
    with table_on(tmp_path / "journal.sqlite") as table:
        assert table.press(inputs.BidPressed("E", 3)) is NoticeKind.ACCEPTED
        table.journal._db.execute("PRAGMA query_only = ON")
        before = list(table.app.controller.events)
        assert table.press(inputs.PassPressed("S")) is NoticeKind.FAULT
        assert table.app.controller.events == before == table.committed()
        assert table.acknowledged == [repr(inputs.BidPressed("E", 3))]
        assert_paused(table, "read-only")
        table.journal._db.execute("PRAGMA query_only = OFF")
        resume(table)
        assert table.press(inputs.PassPressed("S")) is NoticeKind.ACCEPTED
        assert table.committed() == table.app.controller.events


def test_another_connection_holding_the_lock_pauses_input(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with table_on(path) as table:
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        assert table.press(inputs.BidPressed("E", 4)) is NoticeKind.FAULT
        assert table.acknowledged == []
        assert table.app.controller.state.turn is Seat.E
        assert_paused(table, "locked by another program")
        table.clock.advance(10.0)
        assert table.app.tick() == []  # still locked
        other.execute("ROLLBACK")
        other.close()
        resume(table)
        assert table.press(inputs.BidPressed("E", 4)) is NoticeKind.ACCEPTED
        assert len(table.committed()) == 2


def test_the_retry_backs_off_while_the_journal_stays_full(tmp_path: Path) -> None:
    with table_on(tmp_path / "journal.sqlite") as table:
        table.journal._db.execute("PRAGMA query_only = ON")
        assert table.press(inputs.BidPressed("E", 3)) is NoticeKind.FAULT
        pause = table.app.journal_pause
        waits = []
        for _ in range(6):
            waits.append(pause.retry_at - table.clock())
            table.clock.advance(waits[-1])
            table.app.tick()
        assert waits == sorted(waits) and waits[0] < waits[-1] <= 5.0
        assert pause.failures == 7


def test_a_rules_refusal_is_acknowledged_a_journal_failure_is_not(tmp_path: Path) -> None:
    with table_on(tmp_path / "journal.sqlite") as table:
        assert table.press(inputs.BidPressed("S", 3)) is NoticeKind.REFUSED  # not S's turn
        assert len(table.acknowledged) == 1
        table.journal._db.execute("PRAGMA query_only = ON")
        assert table.press(inputs.BidPressed("E", 3)) is NoticeKind.FAULT
        assert table.press(inputs.BidPressed("E", 3)) is NoticeKind.REFUSED  # paused
        assert len(table.acknowledged) == 1


def test_a_restart_after_a_fault_shows_exactly_what_was_acknowledged(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with table_on(path) as table:
        pages = table.journal._db.execute("PRAGMA page_count").fetchone()[0]
        table.journal._db.execute(f"PRAGMA max_page_count = {pages}")
        press_until_fault(table, bid_and_undo())
        acknowledged = len(table.acknowledged)
        log = table.app.controller.state.log
    with Journal(path) as journal:
        again = TableController(journal, Rules())
        assert again.state.log == log
        assert len(again.events) == acknowledged + 1


def test_the_buttons_wait_while_the_journal_cannot_write(tmp_path: Path) -> None:
    with button_table(tmp_path) as rig:
        controller = rig.app.controller
        assert rig.press("3")[0].kind is NoticeKind.ACCEPTED
        controller.journal._db.execute("PRAGMA query_only = ON")
        assert [n.kind for n in rig.press("PASS")] == [NoticeKind.FAULT]
        assert [n.kind for n in rig.press("PASS")] == [NoticeKind.REFUSED]
        assert controller.state.turn is Seat.S
        controller.journal._db.execute("PRAGMA query_only = OFF")
        assert [n.kind for n in rig.wait(10.0)] == [NoticeKind.RECOVERED]
        assert rig.press("PASS")[0].message == "S passes"


def test_unavailable_is_told_apart_from_a_bug_in_the_sql(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        with pytest.raises(sqlite3.OperationalError), journal.atomic():
            journal._db.execute("INSERT INTO no_such_table VALUES (1)")
        journal._db.execute("PRAGMA query_only = ON")
        with pytest.raises(JournalUnavailable, match="read-only"):
            journal.probe()


# ---- a real full disk: a tiny tmpfs, filled ----------------------------------------------


@contextmanager
def tiny_tmpfs(where: Path, size_kb: int) -> Iterator[Path]:
    """A tmpfs of `size_kb` mounted at `where`; skips the test where mounting is not allowed."""
    where.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs", str(where)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=True)


def test_a_real_full_disk_pauses_input_and_resumes_when_space_returns(tmp_path: Path) -> None:
    with tiny_tmpfs(tmp_path / "disk", 512) as disk, table_on(disk / "journal.sqlite") as table:
        assert table.press(inputs.BidPressed("E", 3)) is NoticeKind.ACCEPTED
        free = fill_disk(disk)
        undo: inputs.PlayerInput = inputs.UndoPressed(None)
        bid: inputs.PlayerInput = inputs.BidPressed("E", 3)
        faulted = press_until_fault(table, iter([undo, bid] * 1000))
        assert_paused(table, "disk full")
        table.clock.advance(10.0)
        assert table.app.tick() == []
        free()
        resume(table)
        before = len(table.app.controller.events)
        assert table.press(faulted) is NoticeKind.ACCEPTED
        assert len(table.committed()) == before + 1 == len(table.app.controller.events)


def test_cardtable_run_takes_nothing_while_another_program_holds_the_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.cli import main

    monkeypatch.delenv("CARDTABLE_STATE_DIR", raising=False)
    script = tmp_path / "bids.jsonl"
    script.write_text('{"press": "bid", "seat": "E", "bid": 3}\n{"press": "pass", "seat": "S"}\n')
    state = tmp_path / "state"
    with Journal(state / "journal.sqlite") as journal:
        TableController(journal, Rules())  # game 1, as a table that ran before would leave it
    other = sqlite3.connect(state / "journal.sqlite", isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        assert main(["run", "--script", str(script), "--state-dir", str(state),
                     "--no-display"]) == 1
    finally:
        other.execute("ROLLBACK")
        other.close()
    out, err = capsys.readouterr()
    assert out == ""  # no line acknowledged
    assert "script line 1 not taken: journal cannot write: locked by another program" in err
    assert "the journal could not write 1 time(s)" in err
    with Journal(state / "journal.sqlite") as journal:
        assert len(journal.events(1)) == 1
    assert main(["run", "--script", str(script), "--state-dir", str(state),
                 "--no-display"]) == 0
    assert capsys.readouterr().out == "ack 1 2\nack 2 3\n"


def test_the_screen_draws_the_journal_problem_in_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    from app.run import headless_writer
    from display.view import SeatNames
    from display.wording import problem_advice, problem_headline

    with table_on(tmp_path / "journal.sqlite") as table:
        table.journal._db.execute("PRAGMA query_only = ON")
        assert table.press(inputs.BidPressed("E", 3)) is NoticeKind.FAULT
        problem = current_view(table.app).problems[0]
        assert problem_headline(problem, SeatNames()) == (
            "Journal cannot write: read-only — input paused"
        )
        assert "Nothing is recorded" in problem_advice(problem, None)
        shot = headless_writer(tmp_path / "shots", (800, 480))(table.app, "paused")
        assert shot.stat().st_size > 0


def test_a_held_card_stays_held_when_the_play_that_frees_it_cannot_be_written(
    tmp_path: Path,
) -> None:
    with table_on(tmp_path / "journal.sqlite") as table:
        controller = table.app.controller
        bid_hand(controller)
        assert table.app.handle(Sighting(SightingKind.PLACED, 0.0, Seat.S, Card.parse("9H"),
                                         0.9))[0].kind is NoticeKind.HELD
        table.journal._db.execute("PRAGMA query_only = ON")
        played = Sighting(SightingKind.PLACED, 0.0, Seat.E, Card.parse("JH"), 0.9)
        assert [n.kind for n in table.app.handle(played)] == [NoticeKind.FAULT]
        assert controller.held == {Seat.S: Card.parse("9H")}
        assert not controller.state.hand.tricks and controller.on_table == set()
        table.journal._db.execute("PRAGMA query_only = OFF")
        table.clock.advance(10.0)
        table.app.tick()
        notices = table.app.handle(played)
        assert [n.message for n in notices] == ["E plays J♥", "S plays 9♥"]
        assert table.committed() == controller.events
