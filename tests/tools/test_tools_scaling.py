"""Labelled folders shrunk to the camera's card size, as shared/vision/scale.py shrinks them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tools.rendered_folder import rendered_folder
from tools.scaling import cached_scaled_folder, card_long_side, scale_folder, shrink_factor
from vision.errors import VisionError


def _card(long_side: float, partial: bool = False) -> dict[str, object]:
    return {"card": "9C", "box": [10.0, 10.0, 10.0 + long_side / 1.4, 10.0 + long_side],
            "partial": partial}


def test_the_median_of_the_visible_cards_sets_the_factor() -> None:
    record = {"cards": [_card(200), _card(280), _card(420), _card(1000, partial=True)]}
    assert shrink_factor(record, 140) == pytest.approx(0.5)


@pytest.mark.parametrize("cards", [[], [_card(100)], [_card(300, partial=True)]])
def test_small_cards_or_none_visible_leave_the_image_as_it_is(cards: list[object]) -> None:
    assert shrink_factor({"cards": cards}, 140) == 1.0


def test_a_quad_gives_the_long_side_before_the_box() -> None:
    card = {"box": [0, 0, 50, 50], "quad": [[0, 0], [60, 0], [60, 90], [0, 90]]}
    assert card_long_side(card) == 90


@pytest.mark.parametrize("target", [140.0, 95.0])
def test_the_copy_is_the_one_the_shared_script_makes(shared_dir: Path, tmp_path: Path,
                                                     target: float) -> None:
    source = rendered_folder(tmp_path / "photos", {"rendered": 3}, long_side=380.0,
                             scorer=shared_dir / "vision" / "score.py")
    script = shared_dir / "vision" / "scale.py"
    subprocess.run([sys.executable, str(script), str(tmp_path / "theirs"), "--target",
                    str(target), "--src", str(source)], check=True, capture_output=True)
    assert scale_folder(source, tmp_path / "ours", target) == 3
    ours = json.loads((tmp_path / "ours" / "labels.json").read_text())
    assert ours == json.loads((tmp_path / "theirs" / "labels.json").read_text())
    for key in ours["images"]:
        mine = (tmp_path / "ours" / "dev" / key).read_bytes()
        assert mine == (tmp_path / "theirs" / "dev" / key).read_bytes()


def test_a_folder_without_labels_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(VisionError, match=r"no labels\.json"):
        cached_scaled_folder(tmp_path, 140.0, tmp_path / "cache")


def test_a_missing_image_is_named_and_no_copy_is_kept(tmp_path: Path) -> None:
    source = rendered_folder(tmp_path / "photos", {"rendered": 2})
    missing = next((source / "dev" / "rendered").glob("*.jpg"))
    missing.unlink()
    with pytest.raises(VisionError, match=missing.name):
        cached_scaled_folder(source, 140.0, tmp_path / "cache")
    assert list((tmp_path / "cache").iterdir()) == []
