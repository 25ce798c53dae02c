"""What the camera got wrong or could not read, per game; journals of the older schema open."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from app.cli import main
from app.controller import TableController
from app.journal import SCHEMA_VERSION, Journal
from table import Card, Rules, Seat

# The journal as the code before provenance wrote it (schema version 0).
OLD_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    winner TEXT,
    score_ns INTEGER NOT NULL DEFAULT 0,
    score_ew INTEGER NOT NULL DEFAULT 0,
    on_table TEXT NOT NULL DEFAULT '[]'
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    at TEXT NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""
OLD_EVENTS = [
    {"type": "game", "dealer": "N", "rules": {}},
    {"type": "bid", "seat": "E", "bid": 3},
    {"type": "bid", "seat": "S", "bid": "pass"},
    {"type": "bid", "seat": "W", "bid": "pass"},
    {"type": "bid", "seat": "N", "bid": "pass"},
    {"type": "trump", "seat": "E", "suit": "H"},
    {"type": "card", "seat": "E", "card": "JH"},
]


@pytest.fixture(autouse=True)
def headless(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.delenv("CARDTABLE_STATE_DIR", raising=False)


def write_old_journal(path: Path, games: int = 1) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path)
    db.executescript(OLD_SCHEMA)
    for game in range(1, games + 1):
        db.execute("INSERT INTO games (id, started_at, on_table) VALUES (?, ?, ?)",
                   (game, "2026-11-30T20:00:00.000+00:00", '[["E", "JH"]]'))
        for seq, event in enumerate(OLD_EVENTS, start=1):
            db.execute("INSERT INTO events VALUES (?, ?, ?, ?)",
                       (game, seq, "2026-11-30T20:00:01.000+00:00", json.dumps(event)))
    db.commit()
    db.close()


@pytest.mark.parametrize("games", [1, 3])
def test_a_journal_of_the_old_schema_opens_and_resumes(tmp_path: Path, games: int) -> None:
    path = tmp_path / "journal.sqlite"
    write_old_journal(path, games)
    with Journal(path) as journal:
        version = journal._db.execute("PRAGMA user_version").fetchone()[0]
        assert version == SCHEMA_VERSION
        table = TableController(journal, Rules())
        assert table.game_id == games
        assert table.state.hand.tricks[0].cards == [(Seat.E, Card.parse("JH"))]
        assert journal.card_records(games) == []  # no provenance known for older events
        table.on_card(Seat.S, Card.parse("9H"))
        assert [r.provenance.source for r in journal.card_records(games)] == ["camera"]  # type: ignore[union-attr]
    with Journal(path) as again:  # opening a migrated journal changes nothing
        assert len(again.events(games)) == len(OLD_EVENTS) + 1


def test_a_journal_from_newer_code_is_refused_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.sqlite"
    write_old_journal(path)
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 4}")
    db.commit()
    db.close()
    assert main(["games", "--state-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "written by newer code" in err and "Traceback" not in err


def test_games_misreads_lists_what_the_camera_got_wrong_and_could_not_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines: list[dict[str, object]] = [
        {"press": "bid", "seat": "E", "bid": 3},
        {"press": "pass"}, {"press": "pass"}, {"press": "pass"},
        {"press": "trump", "suit": "H"},
        {"unreadable": True, "seat": "E"},
        {"wait": 1.0},
        {"unreadable": True, "seat": "E"},
        {"wait": 2.5},
        {"touch": "card", "card": "JH"},
        {"card": "AS", "seat": "S"},  # the camera's reading of S's Q♥
        {"card": "9H", "seat": "W"},
        {"touch": "correct"},
        {"touch": "played", "hand": 1, "trick": 1, "seat": "S"},
        {"touch": "card", "card": "QH"},
        {"touch": "button", "button": "confirm"},
        {"card": "TC", "seat": "N"},
        *({"card": card, "seat": seat, "removed": True}
          for seat, card in (("E", "JH"), ("S", "AS"), ("W", "9H"), ("N", "TC"))),
        {"card": "AH", "seat": "E"},
    ]
    script = tmp_path / "misreads.jsonl"
    script.write_text("".join(json.dumps(line) + "\n" for line in lines))
    state, shots = tmp_path / "state", tmp_path / "shots"
    assert main(["run", "--script", str(script), "--state-dir", str(state),
                 "--headless", str(shots)]) == 0
    capsys.readouterr()
    assert main(["games", "--misreads", "--state-dir", str(state)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "game 1: 4 cards read by the camera, 1 misread, 1 unreadable",
        "  unreadable hand 1 trick 1 E: unreadable, named JH",
        "  misread    hand 1 trick 1 S: camera read AS, was QH",
        "all games: 4 cards read, 1 misread, 1 unreadable",
    ]
    assert main(["export", "1", "--state-dir", str(state), "--out", str(tmp_path / "g.jsonl")]) == 0
    assert main(["replay", str(tmp_path / "g.jsonl"), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["hands"][0]["corrections"] == [
        {"trick": 1, "seat": "S", "was": "AS", "card": "QH"}
    ]
    names = [path.name for path in shots.glob("*.png")]
    assert any("cannot_read" in name for name in names)  # the pick was drawn
    assert any("name_the_real" in name for name in names)  # and the correction


def test_a_correction_undone_is_no_misread(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                           ) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        table = TableController(journal, Rules())
        from app.prompts import Answer, CardNamed, PlayedChosen, PromptAnswered
        from drivers import inputs
        from tests.app.tablerig import bid_hand

        bid_hand(table)
        table.on_card(Seat.E, Card.parse("AS"))
        table.on_input(PlayedChosen(1, 1, Seat.E))
        table.on_input(CardNamed("KS"))
        table.on_input(PromptAnswered(Answer.CONFIRM))
        table.on_input(inputs.UndoPressed(None))
    assert main(["games", "--misreads", "--state-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        "game 1: 1 cards read by the camera, 0 misread, 0 unreadable"
    )
