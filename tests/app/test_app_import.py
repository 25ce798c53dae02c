"""`cardtable import`: a table log into the journal as a game, the inverse of `export`."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from app.cli import main
from app.controller import TableController
from app.journal import Journal
from app.state_lock import StateLock
from table import Event, GameStarted, GameState, Rules, Seat, Undone, replay
from table.log import dump_events
from table.simulate import simulate_game

DEMO_LOG = Path(__file__).parents[2] / "app" / "data" / "demo_game.jsonl"


def journal_game(state_dir: Path, events: list[Event]) -> int:
    """Play `events` into a journal the way the table does; returns the game's number."""
    start = events[0]
    assert isinstance(start, GameStarted)
    with Journal(state_dir / "journal.sqlite") as journal:
        game_id = journal.start_game(start)
        state = GameState(start)
        for event in events[1:]:
            state.apply(event)
            journal.append(game_id, event, state)
    return game_id


def with_undos(events: list[Event], every: int) -> list[Event]:
    """The same game with every `every`-th event taken back once and given again."""
    out: list[Event] = [events[0]]
    for number, event in enumerate(events[1:], start=1):
        out.append(event)
        if number % every == 0:
            out += [Undone(), event]
    return out


def journal_bytes(state_dir: Path) -> list[tuple[object, ...]]:
    """Every row of the journal's games and events, to see that nothing changed."""
    db = sqlite3.connect(state_dir / "journal.sqlite")
    try:
        return db.execute("SELECT * FROM games").fetchall() + db.execute(
            "SELECT * FROM events ORDER BY game_id, seq").fetchall()
    finally:
        db.close()


@pytest.mark.parametrize("seed", [1, 2, 3, 7])
def test_export_import_export_gives_the_same_log(
    tmp_path: Path, seed: int, capsys: pytest.CaptureFixture[str]
) -> None:
    game = simulate_game(seed=seed, renege_rate=0.05, rules=Rules(target=21))
    events = with_undos(game.events, every=9)
    source, copy = tmp_path / "source", tmp_path / "copy"
    game_id = journal_game(source, events)
    exported = tmp_path / "exported.jsonl"
    assert main(["export", str(game_id), "--state-dir", str(source), "--out", str(exported)]) == 0
    assert main(["import", str(exported), "--state-dir", str(copy)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("game 1: ")
    again = tmp_path / "again.jsonl"
    assert main(["export", "1", "--state-dir", str(copy), "--out", str(again)]) == 0
    assert again.read_text() == exported.read_text()
    with Journal(copy / "journal.sqlite") as journal:
        (record,) = journal.games()
        state = replay(journal.events(1))
        assert (record.score_ns, record.score_ew) == tuple(state.scores.values())
        assert record.winner == (state.winner.value if state.winner else None)
        assert record.finished_at is not None and record.events == len(events)


def test_a_log_written_by_hand_is_imported_in_the_journal_s_own_spelling(tmp_path: Path) -> None:
    game = simulate_game(seed=4)
    spaced = "".join(
        json.dumps(json.loads(line), indent=None, separators=(" ,", " :")) + "\n"
        for line in dump_events(game.events).splitlines()
    )
    log = tmp_path / "spaced.jsonl"
    log.write_text(spaced)
    assert main(["import", str(log), "--state-dir", str(tmp_path / "s")]) == 0
    with Journal(tmp_path / "s" / "journal.sqlite") as journal:
        assert journal.export(1) == dump_events(game.events)


def test_the_game_in_progress_stays_the_one_the_table_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state_dir = tmp_path / "table"
    finished = simulate_game(seed=5)
    journal_game(state_dir, finished.events)
    in_progress = simulate_game(seed=6).events[:30]
    journal_game(state_dir, in_progress)
    log = tmp_path / "elsewhere.jsonl"
    log.write_text(dump_events(simulate_game(seed=8).events))
    assert main(["import", str(log), "--state-dir", str(state_dir)]) == 0
    assert "the game in progress is now game 3" in capsys.readouterr().out
    with Journal(state_dir / "journal.sqlite") as journal:
        assert [g.id for g in journal.games()] == [1, 2, 3]
        assert journal.unfinished_game() == 3
        assert journal.export(2) == log.read_text()
        table = TableController(journal, Rules(), Seat.N)
        assert table.game_id == 3
        assert table.state.log == replay(in_progress).log


BAD_LOGS = {
    "not json": ('{"type": "game", "dealer": "N", "rules": {}}\n{"type": "bid"\n', 2, "JSON"),
    "out of turn": (
        '{"type": "game", "dealer": "N", "rules": {}}\n{"type": "bid", "seat": "S", "bid": 3}\n',
        2, "turn"),
    "no game line": ('{"type": "bid", "seat": "E", "bid": 3}\n', 1, "game"),
    "empty": ("", 1, "empty"),
    "blank line": ('{"type": "game", "dealer": "N", "rules": {}}\n\n', 2, "blank"),
    "unknown rule": ('{"type": "game", "dealer": "N", "rules": {"trumps": 2}}\n', 1, "trumps"),
}


@pytest.mark.parametrize("name", sorted(BAD_LOGS))
def test_a_bad_log_is_refused_naming_its_line_and_the_journal_is_unchanged(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    text, line, reason = BAD_LOGS[name]
    state_dir = tmp_path / "table"
    journal_game(state_dir, simulate_game(seed=9).events[:20])
    before = journal_bytes(state_dir)
    log = tmp_path / "bad.jsonl"
    log.write_text(text)
    assert main(["import", str(log), "--state-dir", str(state_dir)]) == 2
    err = capsys.readouterr().err
    assert f"line {line}" in err and reason in err and "nothing was imported" in err
    assert "Traceback" not in err
    assert journal_bytes(state_dir) == before


def test_a_log_that_is_not_utf8_or_missing_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "latin1.jsonl"
    log.write_bytes(b'{"type": "game", "dealer": "N", "rules": {}}\n{"type": "\xe9"}\n')
    assert main(["import", str(log), "--state-dir", str(tmp_path / "s")]) == 2
    assert "line 2: not UTF-8" in capsys.readouterr().err
    assert main(["import", str(tmp_path / "none.jsonl"), "--state-dir", str(tmp_path / "s")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert not (tmp_path / "s" / "journal.sqlite").exists()


def test_import_waits_for_no_running_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state_dir = tmp_path / "table"
    journal_game(state_dir, simulate_game(seed=10).events[:10])
    before = journal_bytes(state_dir)
    with StateLock(state_dir):
        assert main(["import", str(DEMO_LOG), "--state-dir", str(state_dir)]) == 2
    assert "already running" in capsys.readouterr().err
    assert journal_bytes(state_dir) == before
    assert main(["import", str(DEMO_LOG), "--state-dir", str(state_dir)]) == 0


def test_what_reached_the_broker_follows_the_renumbered_game(tmp_path: Path) -> None:
    from app.mqtt_outbox import Outbox

    state_dir = tmp_path / "table"
    in_progress = simulate_game(seed=11).events[:25]
    journal_game(state_dir, in_progress)
    outbox = Outbox(state_dir / "journal.sqlite")
    outbox.mark(1, 20)
    outbox.close()
    log = tmp_path / "elsewhere.jsonl"
    log.write_text(dump_events(simulate_game(seed=12).events[:40]))
    assert main(["import", str(log), "--state-dir", str(state_dir)]) == 0
    outbox = Outbox(state_dir / "journal.sqlite")
    try:
        assert (outbox.published(1), outbox.published(2)) == (0, 20)
        pending = outbox.pending(limit=1000)  # the imported game is history: never sent
        assert [(p.game_id, p.seq) for p in pending] == [(2, n) for n in range(21, 26)]
        assert outbox.latest_game() == 2
    finally:
        outbox.close()


def test_an_imported_game_is_never_resumed_by_the_table(tmp_path: Path) -> None:
    state_dir = tmp_path / "table"
    log = tmp_path / "one-line.jsonl"
    log.write_text('{"type": "game", "dealer": "N", "rules": {}}\n')
    assert main(["import", str(log), "--state-dir", str(state_dir)]) == 0
    script, config = tmp_path / "pass.jsonl", tmp_path / "table.toml"
    script.write_text('{"press": "pass"}\n')
    config.write_text("[web]\nenabled = false\n")
    assert main(["run", "--script", str(script), "--state-dir", str(state_dir),
                 "--config", str(config), "--no-display"]) == 0
    with Journal(state_dir / "journal.sqlite") as journal:
        assert journal.export(1) == log.read_text()  # untouched
        assert [g.id for g in journal.games()] == [1, 2]  # the table began a game after it
        assert len(journal.events(2)) == 2
        assert journal.latest_game() == 2 and journal.latest_game(imported=True) == 2
        table = TableController(journal, Rules(), Seat.N)
        assert table.game_id == 2


def test_the_table_starts_a_new_game_when_only_imported_games_are_there(tmp_path: Path) -> None:
    state_dir = tmp_path / "table"
    log = tmp_path / "game.jsonl"
    log.write_text(dump_events(simulate_game(seed=9).events[:10]))
    assert main(["import", str(log), "--state-dir", str(state_dir)]) == 0
    with Journal(state_dir / "journal.sqlite") as journal:
        assert journal.latest_game() is None and journal.latest_game(imported=True) == 1
        table = TableController(journal, Rules(), Seat.N)
        assert table.game_id == 2 and len(table.events) == 1
        assert journal.export(1) == log.read_text()
