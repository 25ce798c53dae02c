"""A power cut at random moments loses nothing acknowledged and resumes the same game."""

from __future__ import annotations

from app.crashcheck import crash_check


def test_sigkill_and_restart_resume_the_same_game() -> None:
    report = crash_check(kills=4, seed=5)
    assert report.kills == 4 and report.restarts == 4
    assert report.acked_events_missing == 0
    assert report.mismatches == []
