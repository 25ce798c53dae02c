"""The misread benchmark in short: every game ends with the true score, its one line printed."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.harness.misread_sim import play_game, summary_line

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_misreads.py"
LINE = re.compile(
    r"^games: (\d+), finished with the true score: (\d+), false reneges left standing: (\d+), "
    r"presses per game: (\d+\.\d\d)$"
)


def test_the_benchmark_prints_its_line_and_passes_on_five_games() -> None:
    result = subprocess.run(
        [sys.executable, str(BENCH), "--games", "5"],
        capture_output=True, text=True, timeout=600, check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    match = LINE.match(result.stdout.strip())
    assert match is not None, result.stdout
    assert match.group(1, 2, 3) == ("5", "5", "0")
    assert float(match.group(4)) > 0


@pytest.mark.parametrize(
    ("seed", "p_unreadable", "p_wrong"), [(11, 0.0, 0.25), (12, 0.3, 0.1), (13, 0.1, 0.1)]
)
def test_a_camera_failing_often_still_gives_the_true_score(
    tmp_path: Path, seed: int, p_unreadable: float, p_wrong: float
) -> None:
    result = play_game(seed, tmp_path, p_unreadable, p_wrong, renege_rate=0.05)
    assert result.misread > 0 or result.unreadable > 0
    assert result.true_score and result.false_reneges == 0
    assert result.presses > 0


def test_a_perfect_camera_needs_no_press(tmp_path: Path) -> None:
    result = play_game(3, tmp_path, 0.0, 0.0)
    assert result.true_score and result.presses == 0
    assert summary_line([result]).endswith("presses per game: 0.00")


def test_bad_chances_stop_with_a_message() -> None:
    result = subprocess.run(
        [sys.executable, str(BENCH), "--p-wrong", "1.5"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert result.returncode == 2 and "--p-wrong 1.5" in result.stderr
