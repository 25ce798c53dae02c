"""The stage audit: each switchable stage read off and on, and the table of what it changes."""

from __future__ import annotations

from collections import Counter
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

import tools.scaling
from tests.tools.rendered_folder import rendered_folder
from tools.stage_audit import STAGES, SetScore, Stage, main, stage_rows, wrong_names
from vision.config import VisionConfig


def _score(found: int, identified: int, *wrong: tuple[str, str]) -> SetScore:
    return SetScore(found, identified, 10, Counter(wrong))


def test_every_stage_names_a_switch_of_the_config_and_differs_from_the_shipped_value() -> None:
    names = {field.name for field in fields(VisionConfig)}
    for stage in STAGES:
        assert stage.field in names
        assert getattr(VisionConfig(), stage.field) != stage.other
        assert stage.shipped_on() == bool(getattr(VisionConfig(), stage.field))


def test_a_row_names_the_wrong_names_a_stage_adds_and_removes() -> None:
    off = {"felt": _score(8, 7, ("felt/a.jpg", "9S")), "wood": _score(5, 5),
           "ALL": _score(13, 12, ("felt/a.jpg", "9S"))}
    on = {"felt": _score(9, 8, ("felt/b.jpg", "TD")), "wood": _score(5, 5),
          "ALL": _score(14, 13, ("felt/b.jpg", "TD"))}
    row = stage_rows(Stage("line finder", "lines", False), "all", off, on).split(" | ")
    assert row[2:8] == ["13 → 14", "12 → 13", "1", "b.jpg TD", "a.jpg 9S",
                        "felt: found 8 → 9, identified 7 → 8 |"]


def test_a_stage_that_changes_nothing_says_so() -> None:
    same = {"felt": _score(8, 7), "ALL": _score(8, 7)}
    row = stage_rows(Stage("fan steps", "fan_steps", False), "measured half", same, same)
    assert row.endswith("| - | - | no change |")


def test_wrong_names_are_the_reported_names_score_py_did_not_match() -> None:
    cards: dict[str, list[dict[str, Any]]] = {
        "k.jpg": [{"card": "9S"}, {"card": None}, {"card": "10D"}, {"card": "JK"}]}
    scored = {"wrong": 1, "detail": {"matches": {"0": 0}}}
    assert wrong_names(cards, scored, "k.jpg") == Counter({("k.jpg", "TD"): 1})


def test_the_audit_prints_both_halves_for_each_stage_asked(
        shared_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(tools.scaling, "CACHE", tmp_path / "cache")
    folder = rendered_folder(tmp_path / "photos", {"rendered": 4},
                             scorer=shared_dir / "vision" / "score.py")
    assert main(["--shared", str(folder), "--stages", "index,corners"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ")]
    assert [row.split(" | ")[1] for row in rows] == ["photos", "all", "measured half",
                                                      "all", "measured half"]
    assert rows[1].startswith("| loose corners (`corners`)")
    assert rows[3].startswith("| index finder (`index`)")


def test_an_unknown_stage_is_refused_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--stages", "finders,tea_leaves"]) == 2
    assert "tea_leaves" in capsys.readouterr().err


def test_each_stage_is_called_by_a_name_of_its_own() -> None:
    called = [stage.called for stage in STAGES]
    assert len(set(called)) == len(called)
    assert {"corners", "index", "sides", "cloth"} <= set(called)
