"""`cardtable vision eval` at the table camera's scales and on the measured halves."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import tools.scaling
from app.cli import main
from tests.tools.rendered_folder import rendered_folder
from tools.evaluate import level_text
from tools.split import training_keys
from vision.tracker import TrackerConfig

SETS = {"rendered_felt": 5, "rendered_wood": 4}


@pytest.fixture()
def folder(shared_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(tools.scaling, "CACHE", tmp_path / "cache")
    return rendered_folder(tmp_path / "photos", SETS, scorer=shared_dir / "vision" / "score.py")


def _tables(text: str, at_table: bool = False) -> dict[str, dict[str, list[str]]]:
    """Each heading's score table (with `at_table`, its table of the names the table takes):
    set name -> the row's figures."""
    tables: dict[str, dict[str, list[str]]] = {}
    kept: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    heading = ""
    for line in text.splitlines():
        if line.startswith("named at the table"):
            current = kept.setdefault(heading, {}) if at_table else {}
        elif line.startswith("wrong names by confidence"):
            current = {}
        elif line.endswith(":") and not line.startswith(" "):
            heading = line[:-1]
            current = {} if at_table else tables.setdefault(heading, {})
        elif line.startswith(tuple(SETS)) or line.startswith("ALL"):
            name, *figures = line.split()
            current[name] = figures[-11:-1]  # the median time is left out
    return kept if at_table else tables


def test_without_scale_the_table_is_printed_once_without_a_heading(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vision", "eval", str(folder)]) == 0
    text = capsys.readouterr().out
    assert "as photographed" not in text
    # Every name, then only the names the table takes.
    assert sum(line.startswith("ALL") for line in text.splitlines()) == 2
    threshold = level_text(TrackerConfig().read_confidence)
    assert f"named at the table (names of confidence {threshold} or more" in text


def test_each_scale_is_printed_under_its_heading_after_the_photos(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vision", "eval", str(folder), "--scale", "140", "--scale", "95"]) == 0
    tables = _tables(capsys.readouterr().out)
    assert list(tables) == ["as photographed", "at 140 px card length", "at 95 px card length"]
    for table in tables.values():
        for name, count in SETS.items():
            images, truth = table[name][:2]
            assert (images, truth) == (str(count), str(2 * count))
    assert tables["as photographed"]["ALL"][2] == str(2 * sum(SETS.values()))  # all found


@pytest.mark.parametrize("px", [140.0, 95.0, 60.0])
def test_the_scaled_copy_shows_cards_at_the_length_asked(folder: Path, px: float) -> None:
    scaled = tools.scaling.cached_scaled_folder(folder, px)
    labels = json.loads((scaled / "labels.json").read_text())
    for record in labels["images"].values():
        lengths = sorted(tools.scaling.card_long_side(card) for card in record["cards"])
        assert abs(sum(lengths) / len(lengths) - px) < 1.0
        assert record["width"] == round(1280 * record["scaled_by"])


def test_scaled_copies_are_made_once_and_kept(folder: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vision", "eval", str(folder), "--scale", "140"]) == 0
    copies = list((tools.scaling.CACHE).iterdir())
    image = next(copies[0].rglob("*.jpg"))
    made = image.stat().st_mtime_ns
    assert main(["vision", "eval", str(folder), "--scale", "140"]) == 0
    assert list(tools.scaling.CACHE.iterdir()) == copies
    assert image.stat().st_mtime_ns == made
    first, second = capsys.readouterr().out.split("as photographed:")[1:]
    assert _tables("as photographed:" + first) == _tables("as photographed:" + second)


def test_measured_scores_only_the_half_kept_from_training(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    keys = set(json.loads((folder / "labels.json").read_text())["images"])
    measured = keys - training_keys(keys)
    assert main(["vision", "eval", str(folder), "--measured", "--scale", "140"]) == 0
    tables = _tables(capsys.readouterr().out)
    for table in tables.values():
        for name in SETS:
            wanted = sum(key.startswith(name + "/") for key in measured)
            assert table[name][0] == str(wanted)
        assert table["ALL"][0] == str(len(measured))


def test_predictions_at_each_scale_are_kept_beside_out(
        folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "pred.jsonl"
    assert main(["vision", "eval", str(folder), "--out", str(out), "--scale", "95"]) == 0
    for path in (out, tmp_path / "pred-95px.jsonl"):
        lines = path.read_text().splitlines()
        assert len(lines) == sum(SETS.values())


@pytest.mark.parametrize("value", ["abc", "0", "-140", "nan"])
def test_a_scale_that_is_no_card_length_is_refused(
        folder: Path, value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["vision", "eval", str(folder), "--scale", value])
    assert stopped.value.code == 2
    assert f"card length {value!r}" in capsys.readouterr().err


def test_in_frame_scores_the_shrunk_photos_set_into_camera_frames(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vision", "eval", str(folder), "--scale", "140", "--in-frame"]) == 0
    tables = _tables(capsys.readouterr().out)
    heading = ("at 140 px card length in a 1080x1080 play-area view (smaller for a photo whose "
               "cards are shorter)")
    assert list(tables) == ["as photographed", heading]
    for name, count in SETS.items():
        assert tables[heading][name][:2] == [str(count), str(2 * count)]


def test_the_table_takes_fewer_names_than_recognition_gives_never_more(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vision", "eval", str(folder), "--scale", "95"]) == 0
    text = capsys.readouterr().out
    every, taken = _tables(text), _tables(text, at_table=True)
    assert list(taken) == list(every) == ["as photographed", "at 95 px card length"]
    for heading, table in every.items():
        row, row_taken = table["ALL"], taken[heading]["ALL"]
        found, identified, reported = int(row[2]), int(row[3]), int(row[5])
        found_taken, identified_taken, reported_taken = (
            int(row_taken[2]), int(row_taken[3]), int(row_taken[5]))
        assert found_taken == found  # outlines stay: a name below the threshold is asked
        assert identified_taken <= identified and reported_taken <= reported


def test_a_name_below_the_tables_threshold_is_no_name() -> None:
    from tools.evaluate import table_lines

    line: dict[str, Any] = {"image": "a.jpg", "cards": [
        {"card": "QS", "confidence": 0.69}, {"card": "9H", "confidence": 0.7},
        {"card": None, "confidence": 0.0}]}
    (taken,) = table_lines([json.dumps(line), ""], 0.7)
    assert [card["card"] for card in taken["cards"]] == [None, "9H", None]
    assert line["cards"][0]["card"] == "QS"  # the prediction itself is kept


def test_wrong_names_are_counted_from_each_confidence_and_between(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tools.evaluate import CONFIDENCE_LEVELS

    threshold = TrackerConfig().read_confidence
    levels = sorted({*CONFIDENCE_LEVELS, threshold})
    assert main(["vision", "eval", str(folder)]) == 0
    text = capsys.readouterr().out
    assert "wrong names by confidence" in text
    rows = [line.split() for line in text.splitlines() if line.startswith("  ")]
    cumulative = {float(r[1][:-1]): (int(r[2]), int(r[4])) for r in rows if r[0] == "from"}
    bins = [(int(r[1]), int(r[3])) for r in rows if "-" in r[0] and r[0][0].isdigit()]
    assert list(cumulative) == [round(level, 4) for level in levels]
    assert any("<- the table's threshold" in line for line in text.splitlines()
               if line.startswith(f"  from {level_text(threshold)}:"))
    names = [count for count, _ in cumulative.values()]
    assert names == sorted(names, reverse=True) and names[0] > 0
    # The bins part every name from the lowest level: their counts add up to its own.
    assert len(bins) == len(levels)
    assert sum(count for count, _ in bins) == cumulative[0.0][0]
    assert sum(wrong for _, wrong in bins) == cumulative[0.0][1]


def test_whole_leaves_cards_another_card_overlaps_out_of_recall(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    labels_path = folder / "labels.json"
    labels = json.loads(labels_path.read_text())
    first, second = labels["images"]["rendered_felt/00.jpg"]["cards"]
    second["box"] = [value + 40.0 for value in first["box"]]
    second["quad"] = [[x + 40.0, y + 40.0] for x, y in first["quad"]]
    labels_path.write_text(json.dumps(labels))
    assert main(["vision", "eval", str(folder)]) == 0
    every_card = _tables("as photographed:\n" + capsys.readouterr().out)["as photographed"]
    assert main(["vision", "eval", str(folder), "--whole"]) == 0
    whole_cards = _tables("as photographed:\n" + capsys.readouterr().out)["as photographed"]
    assert every_card["rendered_felt"][1] == str(2 * SETS["rendered_felt"])
    assert whole_cards["rendered_felt"][1] == str(2 * SETS["rendered_felt"] - 2)
    assert whole_cards["rendered_wood"][:2] == every_card["rendered_wood"][:2]
