"""The fault harness in short: a real table on a pty panel, killed, fed junk, doubled, damaged,
locked out of its journal, its journal made read-only, its camera thread crashed and hung."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.harness import faultcheck
from tests.harness.fault_table import fault_check, format_rows
from tests.harness.faultcheck import Game, Step, build_game

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "fault_test.py"


def test_a_few_faults_on_one_seed_lose_nothing_acknowledged(tmp_path: Path) -> None:
    faults = ("kills", "ack", "garbage", "panel", "second", "damaged", "readonly", "locked",
              "thread")
    rows = fault_check(seed=3, kills=3, limit=30, faults=faults, keep=tmp_path)
    table = format_rows(rows)
    by_name = {row.fault: row for row in rows}
    assert [row.fault for row in rows] == [
        "SIGKILL at random moments (3)",
        "SIGKILL between a commit and its ACK (3)",
        "garbage on the serial line (12 times)",
        "panel unplugged, then rebooted without a USB drop",
        "a second instance and new-game meanwhile",
        "journal with changed bytes",
        "journal truncated to 0 bytes",
        "journal deleted",
        "journal made read-only mid-game (chattr +i: journal, WAL, folder)",
        "journal locked by another program (4 s)",
        "camera thread raises (3 times)",
        "camera thread hangs (a frame read that never returns)",
    ], table
    assert all(row.ok for row in rows), table
    assert all(row.lost == 0 for row in rows), table
    assert all(row.acknowledged > 0 or row.did.startswith("skipped") for row in rows), table
    assert "restarts on the leftover WAL, final game the same" in rows[0].did, table
    for name in ("journal locked by another program (4 s)",
                 "journal made read-only mid-game (chattr +i: journal, WAL, folder)"):
        did = by_name[name].did
        assert did.startswith("skipped: ") or "refused, not acknowledged as taken" in did, table
    for row in rows[-2:]:
        assert "none of them while it was down" in row.did and "exit 1" in row.did, table
    logs = "".join(path.read_text() for path in tmp_path.glob("*/table.log"))
    assert "Traceback" not in logs


def test_the_game_has_undo_ok_moon_and_every_step_is_one_event_or_more() -> None:
    game = build_game(3)
    whats = [step.what for step in game.steps]
    assert {"undo", "ok", "ace_no_face", "card", "bid", "pass", "trump"} <= set(whats)
    assert any('"moon"' in event for event in game.events)
    assert all(b > a for a, b in zip([1, *game.counts], game.counts, strict=False))
    assert game.counts[-1] == len(game.events)


def test_resume_point_after_a_cut_inside_a_step() -> None:
    game = Game([Step(("MOON",), "bid"), Step(("SPADES",), "trump")], [5, 6], ["e"] * 6)
    assert game.resume_at(1) == (0, False)
    assert game.resume_at(3) == (1, True)  # the moon was journaled, its forced passes not all
    assert game.resume_at(5) == (1, False)
    assert game.resume_at(6) == (2, False)


def test_bad_arguments_exit_2_naming_them() -> None:
    result = subprocess.run(
        [sys.executable, str(BENCH), "--only", "flood"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert result.returncode == 2
    assert "unknown fault 'flood'" in result.stderr


def test_a_full_disk_is_skipped_not_failed_where_no_tmpfs_can_be_mounted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tests.harness.faultcheck.os.geteuid", lambda: 1000)  # mounting needs root
    row = faultcheck.fault_full_disk(build_game(3, limit=10), tmp_path)
    assert (row.did, row.ok, row.lost) == ("skipped: cannot mount a tmpfs here", True, 0)
    assert not (tmp_path / "full" / "table.log").exists()  # no table was started


def test_a_read_only_journal_is_skipped_not_failed_where_root_cannot_be_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tests.harness.read_only.os.geteuid", lambda: 1000)  # chattr +i needs root
    row = faultcheck.fault_read_only_journal(build_game(3, limit=10), tmp_path)
    assert (row.did, row.ok, row.lost) == (
        "skipped: setting the immutable flag needs root", True, 0)
    assert not (tmp_path / "readonly" / "table.log").exists()


@pytest.mark.parametrize(
    ("fields", "record"),
    [(["READY=1", "STATUS=running", "WATCHDOG=1"], (1, 0, 0)),
     (["WATCHDOG=1", "STATUS=camera stopped: x", "STATUS=running", "WATCHDOG=1"], (2, 0, 1)),
     (["STATUS=camera stopped: x", "WATCHDOG=1", "STATUS=running"], (1, 1, 1)),
     (["STATUS=camera stopped: x", "STATUS=camera stopped: y", "WATCHDOG=1"], (1, 1, 1)),
     (["STATUS=camera stopped: x", "STATUS=running", "STATUS=camera stopped: y",
       "STATUS=journal cannot write", "WATCHDOG=1"], (1, 0, 2))],
)
def test_the_watchdog_record_counts_pings_while_the_camera_is_down(
    fields: list[str], record: tuple[int, int, int]
) -> None:
    from tests.harness.faultcheck_threads import WatchdogRecord, watchdog_record

    assert watchdog_record(fields) == WatchdogRecord(*record)
