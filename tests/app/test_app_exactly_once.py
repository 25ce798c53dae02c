"""Panel keys take effect exactly once: a key resent after a restart is only acknowledged.

A kill between the journal's commit and the ACK write leaves the key in the panel, which sends
it again to the next table. The journal records each key with the events it made, in the same
transaction, so the next table knows the key and does not apply it again.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from app.config import AppConfig
from app.controller import NoticeKind, TableController
from app.journal import MIGRATIONS, SCHEMA, SCHEMA_VERSION, Journal
from app.run import TableApp
from drivers import inputs
from drivers.clock import ManualClock
from drivers.fake_panel import LoopPanel
from drivers.inputs import PanelKey
from drivers.panel_link import PanelLink
from table import Rules, Seat

BIDDING = ("4", "PASS", "PASS", "PASS")  # E bids 4, the others pass
HAND_TO_PLAY = (*BIDDING, "HEARTS")  # then E names hearts


def events_in(path: Path) -> list[str]:
    """The journal's events as another connection reads them, oldest first."""
    with sqlite3.connect(path) as other:
        return [row[0] for row in other.execute("SELECT event FROM events ORDER BY rowid")]


def table_on(journal: Journal, clock: ManualClock) -> TableApp:
    controller = TableController(journal, Rules(), Seat.N, clock=clock)
    return TableApp(AppConfig(state_dir=journal.path.parent), controller, clock=clock)


# ---- the same key item twice, in one process ------------------------------------------------


@pytest.mark.parametrize(
    "pressed",
    [inputs.BidPressed(None, 4), inputs.BidPressed(None, "moon"), inputs.PassPressed(None)],
    ids=repr,
)
def test_the_same_key_handled_twice_makes_one_event(
    tmp_path: Path, pressed: inputs.PlayerInput
) -> None:
    acks: list[str] = []
    with Journal(tmp_path / "journal.sqlite") as journal:
        app = table_on(journal, ManualClock(100.0))
        key = replace(pressed, key=PanelKey("b00t", (1, 2)), acknowledge=lambda: acks.append("1"))
        first = app.handle(key)
        assert first and {n.kind for n in first} == {NoticeKind.ACCEPTED}
        count = len(events_in(journal.path))
        assert count == 1 + len(first)  # the start, the bid (and a moon's forced passes)
        assert app.handle(key) == []
        assert len(events_in(journal.path)) == count
        assert acks == ["1", "1"]  # the resend hears its ACK again


def test_a_key_sharing_a_line_with_a_recorded_one_is_a_resend(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        app = table_on(journal, ManualClock(100.0))
        app.handle(inputs.BidPressed(None, 4, key=PanelKey("b00t", (1, 2))))
        assert journal.holds_key(PanelKey("b00t", (2, 3)))
        assert not journal.holds_key(PanelKey("b00t", (3, 4)))
        assert not journal.holds_key(PanelKey("other", (1, 2)))  # another boot's numbers


def test_a_restarted_panel_starts_afresh_and_earlier_boots_are_forgotten(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        app = table_on(journal, ManualClock(100.0))
        app.handle(inputs.BidPressed(None, 4, key=PanelKey("b00t", (1, 2))))
        assert app.handle(inputs.PassPressed(None, key=PanelKey("fresh", (1, 2))))
        assert len(events_in(journal.path)) == 3
        assert journal.holds_key(PanelKey("fresh", (1,)))
        assert not journal.holds_key(PanelKey("b00t", (1,)))  # its queue died with it


def test_inputs_without_a_key_are_never_taken_for_a_resend(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        app = table_on(journal, ManualClock(100.0))
        for _ in range(2):  # GPIO buttons and the screen carry no key identity
            app.handle(inputs.BidPressed(None, 4))
            app.handle(inputs.UndoPressed(None))
        assert len(events_in(journal.path)) == 5


def test_the_key_is_recorded_in_the_transaction_of_its_events(tmp_path: Path) -> None:
    clock = ManualClock(100.0)
    pressed = inputs.BidPressed(None, 4, key=PanelKey("b00t", (1,)))
    with Journal(tmp_path / "journal.sqlite") as journal:
        app = table_on(journal, clock)
        journal._db.execute("PRAGMA query_only = ON")  # the journal refuses every write now
        assert [n.kind for n in app.handle(pressed)] == [NoticeKind.FAULT]
        journal._db.execute("PRAGMA query_only = OFF")
        assert not journal.holds_key(pressed.key)  # type: ignore[arg-type]
        assert len(events_in(journal.path)) == 1  # neither the bid nor its key
        clock.advance(10.0)
        app.tick()  # the journal writes again: the refused key is final now, recorded alone
        assert journal.holds_key(pressed.key)  # type: ignore[arg-type]
        assert len(events_in(journal.path)) == 1
        again = inputs.BidPressed(None, 4, key=PanelKey("b00t", (2,)))  # the player presses again
        assert [n.kind for n in app.handle(again)] == [NoticeKind.ACCEPTED]
        assert journal.holds_key(again.key)  # type: ignore[arg-type]
        assert len(events_in(journal.path)) == 2


def test_a_resend_is_logged_at_debug_level(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        app = table_on(journal, ManualClock(100.0))
        pressed = inputs.PassPressed(None, key=PanelKey("b00t", (7, 8)))
        app.handle(pressed)
        with caplog.at_level(logging.DEBUG, logger="app.run"):
            app.handle(pressed)
        assert [r.levelno for r in caplog.records] == [logging.DEBUG]
        assert "b00t 7,8" in caplog.records[0].getMessage()


# ---- a kill between the commit and the ACK, through the real serial link ----------------------


@dataclass
class Session:
    """One table process on the panel: journal, referee, serial link."""

    journal: Journal
    app: TableApp
    link: PanelLink

    def drain(self) -> None:
        self.app.drain([self.link.poll])


@contextmanager
def session_on(path: Path, panel: LoopPanel, clock: ManualClock) -> Iterator[Session]:
    """A table on the journal at `path` that says HELLO to `panel` and reads its answer."""
    journal = Journal(path)
    link = PanelLink("loop://", open_port=panel.open, clock=clock)
    session = Session(journal, table_on(journal, clock), link)
    try:
        session.drain()  # opens the port and says HELLO
        session.drain()  # reads the answer and every key the panel still holds
        assert link.connected
        yield session
    finally:
        link.close()
        journal.close()


@contextmanager
def acks_lost(panel: LoopPanel) -> Iterator[list[str]]:
    """The ACK lines never reach the panel (the table dies right after its commit)."""
    receive = panel.core.receive
    dropped: list[str] = []

    def drop_acks(line: str) -> None:
        if line.startswith("ACK"):
            dropped.append(line.split("*")[0])
        else:
            receive(line)

    panel.core.receive = drop_acks
    try:
        yield dropped
    finally:
        panel.core.receive = receive


@pytest.mark.parametrize(
    "keys",
    [BIDDING[:2], BIDDING[:3], HAND_TO_PLAY, (*HAND_TO_PLAY, "CARD", "MOON", "HEARTS")],
    ids=["a bid and a pass", "a bid and two passes", "bids and trump", "a card keyed in three"],
)
def test_keys_committed_before_a_kill_are_not_applied_again(
    tmp_path: Path, keys: tuple[str, ...]
) -> None:
    path, clock, panel = tmp_path / "journal.sqlite", ManualClock(100.0), LoopPanel()
    with session_on(path, panel, clock) as first, acks_lost(panel) as dropped:
        for label in keys:
            panel.press(label)
            first.drain()
        first.drain()
    committed = events_in(path)
    assert len(committed) == 1 + len(keys) - (2 if "CARD" in keys else 0)
    assert dropped and panel.core.unacked  # the panel never heard of them: it will resend them
    with session_on(path, panel, clock) as again:
        again.drain()
        assert events_in(path) == committed  # nothing happened twice
        assert panel.core.unacked == []  # and the resent keys heard their ACK
        assert again.app.controller.events == first.app.controller.events


def test_after_the_resend_the_game_goes_on(tmp_path: Path) -> None:
    path, clock, panel = tmp_path / "journal.sqlite", ManualClock(100.0), LoopPanel()
    with session_on(path, panel, clock) as first, acks_lost(panel):
        for label in BIDDING[:2]:
            panel.press(label)
            first.drain()
    with session_on(path, panel, clock) as again:
        for label in BIDDING[2:]:
            panel.press(label)
            again.drain()
        again.drain()
        bids = [(seat, str(bid)) for seat, bid in again.app.controller.state.hand.bids]
        assert bids == [(Seat.E, "4"), (Seat.S, "pass"), (Seat.W, "pass"), (Seat.N, "pass")]
        assert panel.core.unacked == []


def test_a_half_keyed_card_is_keyed_again_after_a_restart(tmp_path: Path) -> None:
    path, clock, panel = tmp_path / "journal.sqlite", ManualClock(100.0), LoopPanel()
    with session_on(path, panel, clock) as first:
        for label in HAND_TO_PLAY:
            panel.press(label)
            first.drain()
        first.drain()
        committed = events_in(path)
        for label in ("CARD", "MOON"):  # the ace of ..., then the table dies
            panel.press(label)
            first.drain()
    with session_on(path, panel, clock) as again:  # CARD and MOON come again, still not final
        again.drain()
        assert events_in(path) == committed
        assert again.app.controller.entry.partial
        panel.press("HEARTS")
        again.drain()
        again.drain()
        assert len(events_in(path)) == len(committed) + 1
        assert "AH" in events_in(path)[-1]
        assert panel.core.unacked == []


def test_a_refused_key_stays_refused_when_resent_after_later_commits(tmp_path: Path) -> None:
    """HEARTS during the bidding is refused; had it not been recorded, its resend after the
    bids would name trump: a refusal is a final answer too."""
    path, clock, panel = tmp_path / "journal.sqlite", ManualClock(100.0), LoopPanel()
    with session_on(path, panel, clock) as first, acks_lost(panel):
        panel.press("HEARTS")
        first.drain()
        for label in BIDDING:
            panel.press(label)
            first.drain()
        first.drain()
    committed = events_in(path)
    assert len(committed) == 1 + len(BIDDING)
    with session_on(path, panel, clock) as again:
        again.drain()
        assert events_in(path) == committed  # trump is still to be named
        assert panel.core.unacked == []


# ---- the schema step ------------------------------------------------------------------------


def write_journal_of_version(path: Path, version: int) -> None:
    """A journal as code of schema `version` left it, with one game of two events."""
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    for statement in (s for step in MIGRATIONS[:version] for s in step):
        db.execute(statement)
    db.execute(f"PRAGMA user_version = {version}")
    model_path = path.with_name("model.sqlite")
    with Journal(model_path) as model:
        TableController(model, Rules(), Seat.N).on_input(inputs.BidPressed(None, 4))
    with sqlite3.connect(model_path) as source:
        games = source.execute("SELECT id, started_at FROM games").fetchall()
        rows = source.execute("SELECT game_id, seq, at, event FROM events").fetchall()
    db.executemany("INSERT INTO games (id, started_at) VALUES (?, ?)", games)
    db.executemany("INSERT INTO events (game_id, seq, at, event) VALUES (?, ?, ?, ?)", rows)
    db.commit()
    db.close()


@pytest.mark.parametrize("version", range(SCHEMA_VERSION))
def test_an_older_journal_gains_the_key_table_and_resumes(tmp_path: Path, version: int) -> None:
    path = tmp_path / "journal.sqlite"
    write_journal_of_version(path, version)
    with Journal(path) as journal:
        assert journal._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        app = table_on(journal, ManualClock(100.0))
        assert len(app.controller.events) == 2  # the game resumes where it was
        pressed = inputs.PassPressed(None, key=PanelKey("b00t", (1, 2)))
        app.handle(pressed)
        app.handle(pressed)
        assert len(events_in(path)) == 3
    with Journal(path) as again:  # opening a migrated journal changes nothing
        assert again.holds_key(PanelKey("b00t", (2,)))


# ---- a key refused while the journal cannot write ------------------------------------------


def test_a_key_refused_while_the_journal_is_paused_is_settled_when_it_writes_again(
    tmp_path: Path,
) -> None:
    acks: list[int] = []
    clock = ManualClock(100.0)
    with Journal(tmp_path / "journal.sqlite") as journal:
        app = table_on(journal, clock)
        before = events_in(journal.path)
        journal._db.execute("PRAGMA query_only = ON")  # the journal refuses every write now
        failed = inputs.BidPressed(None, 4, key=PanelKey("b00t", (1, 2)),
                                   acknowledge=lambda: acks.append(1))
        assert [n.kind for n in app.handle(failed)] == [NoticeKind.FAULT]
        paused = inputs.PassPressed(None, key=PanelKey("b00t", (3, 4)),
                                    acknowledge=lambda: acks.append(3))
        assert [n.kind for n in app.handle(paused)] == [NoticeKind.REFUSED]
        assert acks == [] and app.journal_pause.paused  # not taken: no ACK
        journal._db.execute("PRAGMA query_only = OFF")
        clock.advance(10.0)
        assert [n.kind for n in app.tick()] == [NoticeKind.RECOVERED]
        assert sorted(acks) == [1, 3]  # their refusal is final now: the panel may forget them
        assert journal.holds_key(PanelKey("b00t", (1,)))
        assert journal.holds_key(PanelKey("b00t", (3, 4)))
        assert app.handle(failed) == [] and app.handle(paused) == []  # a later resend: no effect
        assert events_in(journal.path) == before
        pressed_again = inputs.BidPressed(None, 4, key=PanelKey("b00t", (5, 6)))
        assert [n.kind for n in app.handle(pressed_again)] == [NoticeKind.ACCEPTED]


def test_the_refused_keys_wait_while_the_journal_still_cannot_write(tmp_path: Path) -> None:
    acks: list[int] = []
    clock = ManualClock(100.0)
    with Journal(tmp_path / "journal.sqlite") as journal:
        app = table_on(journal, clock)
        journal._db.execute("PRAGMA query_only = ON")
        app.handle(inputs.BidPressed(None, 4, key=PanelKey("b00t", (1, 2)),
                                     acknowledge=lambda: acks.append(1)))
        clock.advance(10.0)
        assert app.tick() == [] and app.journal_pause.paused and acks == []
        assert not journal.holds_key(PanelKey("b00t", (1, 2)))
