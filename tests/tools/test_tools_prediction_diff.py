"""`tools.prediction_diff`: two prediction files compared card by card, image by image."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.tools.rendered_folder import rendered_folder
from tools.evaluate import write_predictions
from tools.prediction_diff import main
from vision.config import VisionConfig
from vision.model import GlyphModel


def _write(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def _card(name: str | None, confidence: float, x: float = 0.0) -> dict[str, Any]:
    return {"card": name, "corners": [[x, 0.0], [10.0, 0.0], [10.0, 15.0], [x, 15.0]],
            "confidence": confidence, "whole": True}


@pytest.fixture(scope="module")
def predicted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """One rendered folder read twice as shipped, and once with no finder at all."""
    root = tmp_path_factory.mktemp("diff")
    folder = rendered_folder(root / "photos", {"rendered_felt": 3})
    model = GlyphModel.load()
    files = (root / "a.jsonl", root / "b.jsonl", root / "blind.jsonl")
    for config, out in zip((VisionConfig(), VisionConfig(), VisionConfig(finders=())), files,
                           strict=True):
        write_predictions(folder, model, config, out)
    return files


def test_the_same_reading_twice_reads_every_image_the_same(
        predicted: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    first, second, _ = predicted
    assert main([str(first), str(second)]) == 0
    assert capsys.readouterr().out.strip() == "0 of 3 images read otherwise"


def test_cards_read_otherwise_are_named_with_their_image(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = _write(tmp_path / "a.jsonl", [
        {"image": "x.jpg", "cards": [_card("QH", 1.0), _card(None, 0.0)], "ms": 10.0},
        {"image": "y.jpg", "cards": [_card("9S", 0.9)], "ms": 5.0}])
    after = _write(tmp_path / "b.jsonl", [
        {"image": "x.jpg", "cards": [_card("QH", 1.0), _card("KC", 0.95)], "ms": 99.0},
        {"image": "y.jpg", "cards": [_card("9S", 0.9, x=1.0), _card("AD", 0.5)], "ms": 5.0}])
    assert main([str(before), str(after)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == ["x.jpg: card 1 unread at 0.0 -> KC at 0.95",
                   "y.jpg: card 0 9S at 0.9, outline moved; card 1 nothing -> AD at 0.5",
                   "2 of 2 images read otherwise"]


def test_a_reading_that_finds_nothing_differs_on_every_image(
        predicted: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    first, _, blind = predicted
    assert main([str(first), str(blind)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "3 of 3 images read otherwise"
    assert all(" -> nothing" in line for line in out[:-1])


@pytest.mark.parametrize(("text", "problem"), [
    ("not json\n", "line 1: not JSON"),
    ('{"cards": []}\n', "line 1: expected an object"),
    ('{"image": "x.jpg", "cards": [1]}\n', "line 1: expected an object"),
])
def test_a_file_it_cannot_read_is_refused_with_exit_2(
        tmp_path: Path, text: str, problem: str, capsys: pytest.CaptureFixture[str]) -> None:
    good = _write(tmp_path / "good.jsonl", [{"image": "x.jpg", "cards": []}])
    bad = tmp_path / "bad.jsonl"
    bad.write_text(text)
    assert main([str(good), str(bad)]) == 2
    error = capsys.readouterr().err
    assert error.startswith("error: ") and "bad.jsonl" in error and problem in error


def test_a_missing_file_is_refused_with_exit_2(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    good = _write(tmp_path / "good.jsonl", [{"image": "x.jpg", "cards": []}])
    assert main([str(good), str(tmp_path / "none.jsonl")]) == 2
    assert "none.jsonl" in capsys.readouterr().err
