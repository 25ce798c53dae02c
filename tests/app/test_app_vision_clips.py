"""`cardtable vision clips`: the tracker scored on a folder of labelled recorded clips."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from tests.tools.card_clip import write_clip

SHOWN = [("9S", "E"), ("AD", "W")]


@pytest.fixture(scope="module")
def clips(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("clips")
    write_clip(folder, "both_labelled", SHOWN, SHOWN)
    write_clip(folder, "one_labelled", SHOWN, SHOWN[:1], seed=5)
    return folder


def test_clips_print_one_row_per_clip_and_a_total(clips: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vision", "clips", str(clips)]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = {line.split()[0]: line.split() for line in lines[1:4]}
    assert lines[0].split()[:3] == ["clip", "cards", "right"]
    # cards, right, wrong E, wrong X, unreadable, missed, phantoms, false removals
    assert rows["both_labelled"][1:9] == ["2", "2", "0", "0", "0", "0", "0", "0"]
    assert rows["one_labelled"][1:9] == ["1", "1", "0", "0", "0", "0", "1", "0"]
    assert rows["total"][1:9] == ["3", "3", "0", "0", "0", "0", "1", "0"]
    assert rows["total"][10] == "28"


def test_clips_as_json_for_chosen_clips(clips: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vision", "clips", str(clips), "--json", "--clip", "one_labelled"]) == 0
    clip, total = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert (clip["clip"], clip["right"], clip["phantoms"]) == ("one_labelled", 1, 1)
    assert clip["outcomes"][0]["card"] == "9S" and clip["outcomes"][0]["outcome"] == "right"
    assert (total["clip"], total["cards"], total["frames"]) == ("total", 1, 14)


def test_bad_clip_folders_exit_2_naming_the_problem(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def refused(folder: Path, *more: str) -> str:
        assert main(["vision", "clips", str(folder), *more]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("error: ") and len(err.splitlines()) == 1
        return err

    assert "no such folder" in refused(tmp_path / "absent")
    assert "no label files" in refused(tmp_path)
    label = write_clip(tmp_path, "clip", SHOWN[:1], SHOWN[:1], frames=4)
    assert "no label file for other" in refused(tmp_path, "--clip", "other")
    text = label.read_text()
    label.write_text(text.replace('"cards"', '"kards"'))
    assert "clip.json: no 'cards'" in refused(tmp_path)
    label.write_text("[1, 2")
    assert "clip.json: not JSON" in refused(tmp_path)
    label.write_text(text)
    (tmp_path / "clip.avi").write_bytes(b"\x00garbage" * 100)
    assert "clip.avi: " in refused(tmp_path)
