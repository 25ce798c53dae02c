"""`tools.card_losses`: each labelled card put in the class that says how it was lost."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import tools.scaling
from tests.tools.rendered_folder import rendered_folder
from tools.card_losses import card_class, config_value, main
from vision.config import LearnedFinderConfig

TRUTH = {"card": "QH", "box": [100.0, 100.0, 200.0, 250.0]}
ON_IT = [[102.0, 98.0], [201.0, 101.0], [199.0, 252.0], [99.0, 249.0]]
BESIDE = [[300.0, 100.0], [400.0, 100.0], [400.0, 250.0], [300.0, 250.0]]
AROUND = [[60.0, 60.0], [420.0, 60.0], [420.0, 300.0], [60.0, 300.0]]
"""An outline holding the card and its neighbour, more than four times the card's area."""


def seen(card: str | None, corners: list[list[float]], whole: bool = True) -> dict[str, Any]:
    """One prediction as `cardtable vision eval` writes it."""
    return {"card": card, "corners": corners, "confidence": 0.9 if card else 0.0, "whole": whole}


@pytest.mark.parametrize(("predictions", "expected"), [
    ([seen("QH", ON_IT)], "identified"),
    ([seen(None, ON_IT), seen("QH", ON_IT, whole=False)], "identified"),
    ([seen("QS", ON_IT)], "read wrong"),
    ([seen(None, ON_IT)], "unreadable outline"),
    ([seen(None, ON_IT, whole=False)], "unreadable corner"),
    ([seen("QH", BESIDE)], "not outlined"),
    ([seen("QH", AROUND)], "not outlined"),
    ([], "not outlined"),
])
def test_each_card_falls_in_the_class_its_predictions_give(
        predictions: list[dict[str, Any]], expected: str) -> None:
    assert card_class(TRUTH, predictions, rank_only=False) == expected


def test_a_rank_only_label_is_identified_by_the_rank_alone() -> None:
    truth = {"card": None, "rank": "10", "box": TRUTH["box"]}
    assert card_class(truth, [seen("TS", ON_IT)], rank_only=True) == "identified"
    assert card_class(truth, [seen("10D", ON_IT)], rank_only=True) == "identified"
    assert card_class(truth, [seen("9S", ON_IT)], rank_only=True) == "read wrong"


def test_the_outline_lying_most_on_the_card_says_how_it_was_lost() -> None:
    overlapping = [[150.0, 100.0], [250.0, 100.0], [250.0, 250.0], [150.0, 250.0]]
    predictions = [seen("KS", overlapping), seen(None, ON_IT)]
    assert card_class(TRUTH, predictions, rank_only=False) == "unreadable outline"


@pytest.fixture()
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(tools.scaling, "CACHE", tmp_path / "cache")
    return rendered_folder(tmp_path / "photos", {"rendered_felt": 2})


def _rows(text: str) -> dict[str, list[str]]:
    """The loss table's rows: set name -> its cells."""
    return {cells[0]: cells[1:] for line in text.splitlines() if line.startswith("| ")
            for cells in [[c.strip() for c in line.strip("|").split("|")]]}


def test_a_prediction_file_is_classified_and_the_lost_cards_listed(
        folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    labels = json.loads((folder / "labels.json").read_text())["images"]
    first, second = sorted(labels)
    (a, b), (c, _) = (labels[key]["cards"] for key in (first, second))
    other = "9C" if a["card"] != "9C" else "9D"
    lines = [{"image": first, "cards": [seen(a["card"], a["quad"]), seen(other, b["quad"])]},
             {"image": second, "cards": [seen(None, c["quad"])]}]
    predictions = tmp_path / "predictions.jsonl"
    predictions.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert main(["--shared", str(folder), "--half", "all", "--predictions", str(predictions),
                 "--list"]) == 0
    out = capsys.readouterr().out
    rows = _rows(out)
    assert rows["rendered_felt"] == ["4", "1", "1", "1", "0", "1", "0.250"]
    assert rows["ALL"] == rows["rendered_felt"]
    listed = out.split("cards not identified:")[1].split()
    assert listed.count(first) == 1 and listed.count(second) == 2
    assert "read wrong" in out and "not outlined" in out and a["card"] not in listed


def test_the_pipeline_reads_a_rendered_folder_when_no_predictions_are_given(
        folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    work = tmp_path / "work"
    assert main(["--shared", str(folder), "--half", "all", "--work", str(work)]) == 0
    rows = _rows(capsys.readouterr().out)
    assert rows["ALL"][0] == "4"
    assert int(rows["ALL"][1]) >= 3 and rows["ALL"][2] == "0"
    (kept,) = work.glob("predictions-photo-all-all.jsonl")
    assert main(["--shared", str(folder), "--half", "all", "--work", str(work), "--reuse"]) == 0
    assert _rows(capsys.readouterr().out) == rows
    assert kept.exists()


def test_a_stage_is_turned_on_by_a_setting(folder: Path, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    work = tmp_path / "work"
    argv = ["--shared", str(folder), "--half", "all", "--work", str(work), "--set",
            "learned_finder=LearnedFinderConfig(level=0.6)", "--set", "learned_index=False"]
    assert main(argv) == 0
    assert int(_rows(capsys.readouterr().out)["ALL"][1]) >= 3
    (kept,) = work.glob("predictions-photo-all-all-*.jsonl")
    assert "LearnedFinderConfig(level=0.6)" in kept.name and "learned_index=False" in kept.name


@pytest.mark.parametrize(("text", "value"), [
    ("0.5", 0.5), ("True", True), ("None", None), ("(0.1, 0.2)", (0.1, 0.2)),
    ("LearnedFinderConfig(level=0.6)", LearnedFinderConfig(level=0.6))])
def test_settings_are_literals_or_config_classes(text: str, value: object) -> None:
    assert config_value(text) == value


@pytest.mark.parametrize("text", ["LearnedFinderConfig(1)", "LearnedFinderConfig(nope=1)",
                                  "VisionConfig(", "os.system('x')", "GlyphModel()", ""])
def test_anything_else_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        config_value(text)


@pytest.mark.parametrize("problem", ["no labels", "no such stage", "bad predictions",
                                     "missing predictions", "bad setting"])
def test_bad_input_is_refused_with_exit_2_naming_it(
        problem: str, folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    predictions = tmp_path / "bad.jsonl"
    predictions.write_text('{"image": "rendered_felt/00.jpg"}\n')
    argv = {"no labels": ["--shared", str(tmp_path)],
            "no such stage": ["--shared", str(folder), "--without", "no_such_stage"],
            "bad predictions": ["--shared", str(folder), "--predictions", str(predictions)],
            "missing predictions": ["--shared", str(folder), "--predictions",
                                    str(tmp_path / "none.jsonl")],
            "bad setting": ["--shared", str(folder), "--set", "learned_index=maybe"]}[problem]
    assert main(argv) == 2
    error = capsys.readouterr().err
    assert error.startswith("error: ")
    assert {"no labels": "labels.json", "no such stage": "no_such_stage",
            "bad predictions": "bad.jsonl", "missing predictions": "none.jsonl",
            "bad setting": "learned_index=maybe"}[problem] in error
