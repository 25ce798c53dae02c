"""Tests for tools.suit_labels: suits of rank-only cards from the pipeline's sure readings."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tools.reader_data import is_calibration
from tools.split import photo_set, training_keys
from tools.suit_labels import box_iou, main, sure_suit
from vision.cards import CardObservation, Reading, parse_card

BOX = [100.0, 100.0, 200.0, 250.0]


def seen(name: str | None, confidence: float, shift: float = 0.0,
         whole: bool = True) -> CardObservation:
    """An observation outlining BOX moved right by `shift`."""
    corners = np.array([[100, 100], [200, 100], [200, 250], [100, 250]], np.float32)
    corners[:, 0] += shift
    reading = Reading(*parse_card(name), confidence) if name else None
    return CardObservation(corners, reading, confidence, whole)


def test_boxes_overlap_by_their_shared_area() -> None:
    assert box_iou(BOX, BOX) == pytest.approx(1.0)
    assert box_iou(BOX, [200.0, 100.0, 300.0, 250.0]) == 0.0
    assert box_iou(BOX, [150.0, 100.0, 250.0, 250.0]) == pytest.approx(1 / 3)


def test_a_sure_reading_of_the_labelled_rank_gives_its_suit() -> None:
    assert sure_suit(BOX, "Q", [seen("QS", 0.95)], 0.9) == "S"
    assert sure_suit(BOX, "T", [seen(None, 0.0), seen("TD", 0.92, shift=10)], 0.9) == "D"


@pytest.mark.parametrize("observations", [
    [seen("QS", 0.85)],                    # not sure enough
    [seen("KS", 0.99)],                    # another rank than the label's
    [seen("QS", 0.99, shift=80)],          # elsewhere
    [seen("QS", 0.99, whole=False)],       # a loose corner, no whole outline
    [seen("QS", 0.99), seen("QC", 0.97)],  # two suits
    [],
])
def test_no_suit_without_one_sure_whole_reading_of_the_rank(
        observations: list[CardObservation]) -> None:
    assert sure_suit(BOX, "Q", observations, 0.9) is None


def test_a_folder_without_labels_is_refused(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--shared", str(tmp_path), "--out", str(tmp_path / "out.json")]) == 2
    assert "no labels.json" in capsys.readouterr().err
    assert not (tmp_path / "out.json").exists()


def test_a_confidence_out_of_range_is_refused(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "labels.json").write_text('{"images": {}, "sets": {}}')
    assert main(["--shared", str(tmp_path), "--sure", "1.5",
                 "--out", str(tmp_path / "out.json")]) == 2
    assert "--sure 1.5" in capsys.readouterr().err


def test_a_labelled_photo_that_is_missing_is_named(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    names = [f"edje_train/IMG_{n}.jpg" for n in range(100, 200)]
    key = next(k for k in sorted(training_keys(names)) if not is_calibration(k))
    labels = {"sets": {"edje_train": {"rank_only": True}},
              "images": {k: {"set": "edje_train", "cards": []} for k in names}}
    (tmp_path / "labels.json").write_text(json.dumps(labels))
    assert main(["--shared", str(tmp_path), "--out", str(tmp_path / "out.json")]) == 2
    assert key.split("/")[1] in capsys.readouterr().err
    assert not (tmp_path / "out.json").exists()


def test_a_folder_of_photos_gives_suits_to_the_training_part_only(
        tmp_path: Path, shared_dir: Path) -> None:
    photos = shared_dir / "vision"
    labels = json.loads((photos / "labels.json").read_text())
    keys = sorted(training_keys(labels["images"]))
    chosen = [k for k in keys if photo_set(k) == "edje_train" and not is_calibration(k)][:6]
    aside = [k for k in labels["images"] if k not in keys and photo_set(k) == "edje_train"][:2]
    small = {"sets": labels["sets"], "images": {k: labels["images"][k] for k in chosen + aside}}
    (tmp_path / "labels.json").write_text(json.dumps(small))
    (tmp_path / "dev").symlink_to(photos / "dev")
    out = tmp_path / "out.json"
    assert main(["--shared", str(tmp_path), "--out", str(out)]) == 0
    found = json.loads(out.read_text())["images"]
    assert found and set(found) <= set(chosen)
    for key, cards in found.items():
        ranks = [c["rank"] for c in labels["images"][key]["cards"]]
        assert all(c["rank"] in ranks and c["suit"] in "CDHS" for c in cards)
