"""A recovered journal keeps the panel keys answered by the events it keeps: a key the panel
sends again after the recovery is only acknowledged, and one whose events were not kept takes
effect again."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from app.config import AppConfig
from app.controller import TableController
from app.journal import Journal
from app.journal_check import recover_journal
from app.run import TableApp
from drivers import inputs
from drivers.clock import ManualClock
from drivers.inputs import PanelKey
from drivers.keys import press_event
from table import Rules, Seat

ROOT = Path(__file__).resolve().parents[2]
BOOT = "b00t"
KEYS = ("4", "4", "PASS", "PASS", "PASS", "HEARTS", "PASS")
"""E bids 4; S's 4 is refused (not above 4); S, W, N pass; E names hearts; the last PASS is
refused (no bidding left)."""


def events_in(path: Path) -> list[str]:
    with sqlite3.connect(path) as db:
        return [row[0] for row in db.execute("SELECT event FROM events ORDER BY game_id, seq")]


def keyed(label: str, number: int, acks: list[int]) -> inputs.PlayerInput:
    """The panel key `label` as the link hands it over: its boot, its two lines."""
    from dataclasses import replace

    key = PanelKey(BOOT, (2 * number + 1, 2 * number + 2))
    return replace(press_event(label, None), key=key, acknowledge=lambda: acks.append(number))


def table_on(journal: Journal) -> TableApp:
    controller = TableController(journal, Rules(), Seat.N, clock=ManualClock(100.0))
    return TableApp(AppConfig(state_dir=journal.path.parent), controller,
                    clock=ManualClock(100.0))


def play_keys(path: Path) -> list[int]:
    """Press KEYS on a table; the journal length after each key's answer."""
    after: list[int] = []
    with Journal(path) as journal:
        app = table_on(journal)
        for number, label in enumerate(KEYS):
            app.handle(keyed(label, number, []))
            after.append(len(events_in(path)))
    return after


def spoil(path: Path, seq: int) -> None:
    with sqlite3.connect(path) as db:
        db.execute("UPDATE events SET event = '{not json' WHERE seq = ?", (seq,))


@pytest.mark.parametrize("damaged", [2, 3, 4, 5, 6])
def test_a_key_resent_after_recovery_takes_effect_exactly_once(
    tmp_path: Path, damaged: int
) -> None:
    path = tmp_path / "journal.sqlite"
    after = play_keys(path)
    played = events_in(path)
    assert len(played) == 6 and after == [2, 2, 3, 4, 5, 6, 6]
    spoil(path, damaged)
    out = tmp_path / "recovered.sqlite"
    health = recover_journal(path, out)
    kept = damaged - 1
    carried = [number for number, length in enumerate(after) if length <= kept]
    assert (health.keys_carried, health.keys_left) == (2 * len(carried),
                                                       2 * (len(KEYS) - len(carried)))
    assert events_in(out) == played[:kept]
    acks: list[int] = []
    with Journal(out) as journal:
        for number in range(len(KEYS)):
            assert journal.holds_key(PanelKey(BOOT, (2 * number + 1,))) == (number in carried)
        app = table_on(journal)
        for number, label in enumerate(KEYS):  # the panel sends every key again
            before = len(events_in(out))
            app.handle(keyed(label, number, acks))
            if number in carried:
                assert len(events_in(out)) == before, f"key {number} {label} applied twice"
    assert acks == list(range(len(KEYS)))  # each heard its answer
    assert events_in(out) == played  # the keys not kept made the same game again


@pytest.mark.parametrize(("damaged", "carried"), [(None, 14), (6, 0)])
def test_keys_recorded_before_their_place_was_are_carried_only_from_a_whole_journal(
    tmp_path: Path, damaged: int | None, carried: int
) -> None:
    path = tmp_path / "journal.sqlite"
    play_keys(path)
    with sqlite3.connect(path) as db:  # as schema 2 left them: no place in the game
        db.execute("UPDATE panel_keys SET game_id = NULL, event_seq = NULL")
    if damaged is not None:
        spoil(path, damaged)
    health = recover_journal(path, tmp_path / "recovered.sqlite")
    assert (health.keys_carried, health.keys_left) == (carried, 14 - carried)


def test_recover_says_how_many_keys_it_carried(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    play_keys(path)
    spoil(path, 5)
    out = tmp_path / "recovered.sqlite"
    result = subprocess.run(
        [sys.executable, "-m", "app", "journal", "recover", str(path), "--out", str(out)],
        capture_output=True, text=True, cwd=ROOT, check=False, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "panel keys: 8 carried (answered by the events kept), 6 left out" in result.stdout
