"""Loose corners in the further masks: regions within the read cards skipped, corners read
surely not read again."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.glyphs_only import glyph_config
from vision import pipeline
from vision.cards import CardObservation
from vision.corners import CardCorner, find_corners
from vision.detect import MaskSet
from vision.imageio import read_image
from vision.model import GlyphModel
from vision.pipeline import recognise

MORE_MASKS = glyph_config(corner_more_masks=2)
NO_REPEAT_RULE = replace(MORE_MASKS, corner_repeat_reach=0.0, index_finder=False)


def _tips(corners: list[CardCorner]) -> set[tuple[int, int]]:
    return {(round(float(c.tip[0])), round(float(c.tip[1]))) for c in corners}


def test_regions_within_the_excluded_area_give_no_corners_and_others_keep_theirs() -> None:
    mask = np.zeros((330, 300), np.uint8)
    cv2.rectangle(mask, (40, 40), (140, 190), 255, -1)  # a read card
    cv2.rectangle(mask, (170, 60), (270, 210), 255, -1)  # a card partly under a read one
    exclude = np.zeros_like(mask)
    cv2.rectangle(exclude, (30, 30), (150, 200), 255, -1)
    cv2.rectangle(exclude, (160, 50), (280, 120), 255, -1)
    masks = MaskSet([mask], scale=1.0, pad=0)
    config = glyph_config()
    every = find_corners(masks, config, 100.0)
    kept = find_corners(masks, config, 100.0, exclude)
    assert _tips(every) == {(40, 40), (140, 40), (140, 190), (40, 190),
                            (170, 60), (270, 60), (270, 210), (170, 210)}
    # Exactly the corners whose tips lie outside the excluded area.
    assert _tips(kept) == {(270, 210), (170, 210)}


def _rank_read_in_box(observations: list[CardObservation], rank: str,
                      box: list[float]) -> bool:
    x0, y0, x1, y1 = box
    for observation in observations:
        x, y = observation.corners.mean(axis=0)
        name = observation.name or ""
        if name[:1] == rank and x0 <= x <= x1 and y0 <= y <= y1:
            return True
    return False


def _photo(shared_dir: Path, name: str, rank: str) -> tuple[np.ndarray, list[float]]:
    vision = shared_dir / "vision"
    labels = json.loads((vision / "labels.json").read_text())
    box = next(c["box"] for c in labels["images"][name]["cards"] if c["rank"] == rank)
    return read_image(vision / "dev" / name), box


def test_a_corner_read_surely_is_not_misread_again_in_a_further_mask(shared_dir: Path) -> None:
    # The ace's corner, found again in the mask cut along edges with one edge turned 10 degrees,
    # reads as a rival king there; that reading would cancel the ace.
    frame, box = _photo(shared_dir, "edje_train/IMG_2638.jpg", "A")
    model = GlyphModel.load()
    assert _rank_read_in_box(recognise(frame, model, MORE_MASKS), "A", box)
    assert not _rank_read_in_box(recognise(frame, model, NO_REPEAT_RULE), "A", box)


def test_middle_card_of_a_fan_is_read_in_the_further_masks(shared_dir: Path) -> None:
    frame, box = _photo(shared_dir, "edje_train/IMG_2655.jpg", "K")
    model = GlyphModel.load()
    assert _rank_read_in_box(recognise(frame, model, MORE_MASKS), "K", box)
    fewer_masks = replace(glyph_config(), corner_more_masks=0, index_finder=False)
    assert not _rank_read_in_box(recognise(frame, model, fewer_masks), "K", box)


def test_corners_found_again_are_not_read_again_unless_read_unsurely(
    shared_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A cluttered photo where no card is read whole: the four masks find many corners twice.
    frame, _ = _photo(shared_dir, "edje_train/IMG_2663.jpg", "J")
    model = GlyphModel.load()
    tips: list[tuple[float, float]] = []
    reader = pipeline._read_corner

    def counted(frame: np.ndarray, corner: CardCorner, *args: object) -> object:
        tips.append((float(corner.tip[0]), float(corner.tip[1])))
        return reader(frame, corner, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "_read_corner", counted)
    with_rule = [o.name for o in recognise(frame, model, MORE_MASKS)]
    reads_with_rule = len(tips)
    tips.clear()
    without_rule = [o.name for o in recognise(frame, model, NO_REPEAT_RULE)]
    assert with_rule == without_rule
    assert reads_with_rule < 0.75 * len(tips)
