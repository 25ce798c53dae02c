"""Recorded photos from the shared development set (skipped when it is absent)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision.imageio import read_image
from vision.model import GlyphModel
from vision.pipeline import recognise


@pytest.fixture(scope="module")
def model() -> GlyphModel:
    return GlyphModel.load()


def _labels(shared_dir: Path) -> dict[str, Any]:
    images: dict[str, Any] = json.loads((shared_dir / "vision" / "labels.json").read_text())[
        "images"
    ]
    return images


def _truths_at(record: dict[str, Any], point: np.ndarray) -> list[str]:
    """Names of the labelled cards whose outline (quad, else box) holds the point; an under
    card's quad also covers its hidden part, so two cards can hold it, as for the scorer."""
    names = []
    for card in record["cards"]:
        if "quad" in card:
            quad = np.array(card["quad"], np.float32).reshape(-1, 1, 2)
            inside = cv2.pointPolygonTest(quad, (float(point[0]), float(point[1])), False) >= 0
        else:
            x0, y0, x1, y1 = card["box"]
            inside = x0 <= point[0] <= x1 and y0 <= point[1] <= y1
        if inside:
            names.append(card["card"] or card["rank"])
    return names


@pytest.mark.parametrize(
    ("name", "card"),
    [("9H_00.jpg", "9H"), ("KS_11.jpg", "KS"), ("10C_02.jpg", "TC"), ("JD_12.jpg", "JD")],
)
def test_single_card_crops_are_read(shared_dir: Path, model: GlyphModel, name: str,
                                    card: str) -> None:
    frame = read_image(shared_dir / "vision" / "dev" / "vosloo_crops" / name)
    names = [o.name for o in recognise(frame, model) if o.name]
    assert names == [card]


@pytest.mark.parametrize(
    "key", ["edje_train/IMG_2558.jpg", "edje_train/IMG_2563.jpg", "felt_tricks/spiel1_zug06.jpg"]
)
def test_photos_give_no_wrong_identity(shared_dir: Path, model: GlyphModel, key: str) -> None:
    record = _labels(shared_dir)[key]
    frame = read_image(shared_dir / "vision" / "dev" / key)
    observations = recognise(frame, model)
    read = [o for o in observations if o.name]
    assert read, "expected at least one card read"
    for observation in read:
        truths = _truths_at(record, observation.corners.mean(axis=0))
        assert truths and observation.name is not None
        expected = {truth if len(truth) == 2 else truth[0] for truth in truths}
        got = {observation.name if len(truth) == 2 else observation.name[0] for truth in truths}
        assert got & expected
