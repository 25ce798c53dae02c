"""Tests for tools.deck_measure: its tallies, the table's settings, a drawn-deck run and a
design enrolled from renders."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from tools.deck_measure import (
    TABLE_CONFIDENCE,
    Tally,
    Truth,
    main,
    overlap,
    reading_config,
    tally_image,
)
from vision.cards import CardObservation, Rank, Reading, Suit
from vision.config import VisionConfig
from vision.live import LiveConfig


def _quad(x: float, y: float) -> np.ndarray:
    return np.array([[x, y], [x + 60, y], [x + 60, y + 90], [x, y + 90]], np.float32)


def _seen(name: str, x: float, y: float, confidence: float) -> CardObservation:
    reading = Reading(Rank(name[0]), Suit(name[1]), confidence)
    return CardObservation(_quad(x + 5, y + 5), reading, confidence)


TAKEN = round((1.0 + TABLE_CONFIDENCE) / 2, 3)
"""A confidence the table takes a name at (above the shipped decision's threshold)."""
TRUTHS = [Truth("KS", _quad(0, 0), True), Truth("QD", _quad(100, 0), True),
          Truth("JH", _quad(200, 0), True)]


def test_names_under_the_tables_confidence_count_only_as_every_name() -> None:
    tally = Tally()
    below = TABLE_CONFIDENCE - 0.01
    tally_image([_seen("KS", 0, 0, TAKEN), _seen("QS", 100, 0, 0.5), _seen("JH", 200, 0, below)],
                TRUTHS, tally)
    assert (tally.counted, tally.right, tally.wrong) == (3, 2, 1)
    assert (tally.taken_right, tally.taken_wrong) == (1, 0)
    assert tally.taken_row().split() == ["3", "0.333", "0"]


def test_a_wrong_name_the_table_would_take_is_counted_as_taken() -> None:
    tally = Tally()
    tally_image([_seen("QS", 100, 0, TAKEN), _seen("KS", 0, 0, TABLE_CONFIDENCE)], TRUTHS,
                tally)
    assert (tally.right, tally.taken_right) == (1, 1)
    assert (tally.wrong, tally.taken_wrong) == (1, 1)
    assert tally.wrongs == [f"QD->QS {TAKEN:.2f}"]


def test_the_tables_settings_search_the_view_larger_than_a_photo() -> None:
    photo, table = reading_config(False), reading_config(True)
    assert photo == VisionConfig()
    assert table.detect_long_side == LiveConfig().view_long_side > photo.detect_long_side
    assert table.card_length is None
    assert reading_config(True, 95.0) == replace(table, card_length=95.0)


@pytest.mark.parametrize("table", [False, True])
def test_the_drawn_deck_enrolled_is_read_and_taken(
        table: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--cases", "drawn", "--scenes", "2", "--renders", str(tmp_path / "renders")]
    assert main(argv + (["--table"] if table else [])) == 0
    out = capsys.readouterr().out
    assert len(list((tmp_path / "renders").glob("*.png"))) == 24
    taken = re.findall(r"taken at the table +without +(\d+) +([\d.]+) +(\d+) +with +(\d+) "
                       r"+([\d.]+) +(\d+)", out)
    assert len(taken) == 2  # 140 and 95 px
    for cards, _, _, cards_with, recall_with, wrong_with in taken:
        assert int(cards) == int(cards_with) == 16
        assert float(recall_with) >= 0.9 and int(wrong_with) == 0


def test_a_design_is_enrolled_from_single_renders_and_its_scenes_read_with_their_cost(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--cases", "", "--designs", "artwork", "--scenes", "2",
            "--renders", str(tmp_path / "renders")]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "artwork: 24 cards enrolled" in out
    assert len(list((tmp_path / "renders" / "artwork").glob("*.png"))) == 24
    rows = re.findall(r"artwork (\d+) px +without +(\d+) ", out)
    assert [length for length, _ in rows] == ["140", "95"]
    # Whole cards only: a card laid over another, or under it, is not counted.
    assert all(0 < int(cards) <= 16 for _, cards in rows)
    costs = re.findall(r"CPU per card ([\d.]+) ms without, ([\d.]+) ms with", out)
    assert len(costs) == 2 and all(float(a) > 0 and float(b) > 0 for a, b in costs)


def test_an_unknown_design_is_refused_by_name(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--cases", "", "--designs", "no_such_deck", "--renders", str(tmp_path)]
    assert main(argv) == 2
    assert "no_such_deck" in capsys.readouterr().err


def test_whole_cards_are_those_no_other_card_touches() -> None:
    assert not overlap(_quad(0, 0), _quad(100, 0))
    assert overlap(_quad(0, 0), _quad(30, 40))
