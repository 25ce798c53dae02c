"""Recognition over a labelled folder: each play-area view read knowing its card length."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import pytest

from tools.evaluate import known_length, predict_folder
from tools.scenes import paste_card, plain_card, table_background
from vision.config import VisionConfig
from vision.live import LiveConfig, view_config
from vision.model import GlyphModel

VIEW = 1080
CARD = 140.0


def _view_folder(root: Path, card_length: Any) -> Path:
    """A folder of one play-area view holding a card's picture three card lengths long (on a
    box, a tray or a poster), its labels giving the view's card length."""
    scene = table_background(VIEW, VIEW, seed=7)
    paste_card(scene, plain_card("K", "S"), (540.0, 540.0), 3 * CARD, 8.0)
    (root / "dev").mkdir(parents=True)
    cv2.imwrite(str(root / "dev" / "view.jpg"), scene, [cv2.IMWRITE_JPEG_QUALITY, 95])
    record = {"set": "views", "width": VIEW, "height": VIEW, "cards": [],
              "card_length": card_length}
    (root / "labels.json").write_text(json.dumps(
        {"version": 1, "image_root": "dev", "images": {"view.jpg": record}}))
    return root


def _whole_names(folder: Path, knowing_length: bool) -> list[str | None]:
    config = view_config(VisionConfig(), LiveConfig())
    (line,) = predict_folder(folder, GlyphModel.load(), config, knowing_length=knowing_length)
    return [card["card"] for card in line["cards"] if card["whole"]]


def test_a_view_is_read_knowing_the_card_length_its_labels_give(tmp_path: Path) -> None:
    folder = _view_folder(tmp_path, CARD)
    assert _whole_names(folder, knowing_length=False) == ["KS"]
    assert _whole_names(folder, knowing_length=True) == [None]


@pytest.mark.parametrize("value", [None, "140", True, -5.0, 0])
def test_a_label_without_a_usable_length_is_read_without_one(value: Any) -> None:
    assert known_length({"card_length": value}) is None


def test_a_positive_length_is_taken_as_given() -> None:
    assert known_length({"card_length": 95}) == 95.0
