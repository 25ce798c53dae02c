"""Loose corners in the further masks: regions within the read cards skipped, corners read
surely not read again."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.dev_family import family_sample
from tests.vision.finder_switch import without_finders
from tests.vision.glyphs_only import glyph_config
from vision import finder_corners
from vision.corners import CardCorner, find_corners
from vision.detect import MaskSet
from vision.imageio import read_image
from vision.model import GlyphModel
from vision.pipeline import recognise

GLYPHS = glyph_config()
NO_REPEAT_RULE = replace(without_finders(GLYPHS, "index"), corner_repeat_reach=0.0)


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


def test_corners_found_again_are_not_read_again_unless_read_unsurely(
    shared_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Cluttered photos where few cards are read whole: the whiteness masks find many corners twice.
    vision = shared_dir / "vision"
    model = GlyphModel.load()
    tips: list[tuple[float, float]] = []
    reader = finder_corners._read_corner

    def counted(frame: np.ndarray, corner: CardCorner, *args: object) -> object:
        tips.append((float(corner.tip[0]), float(corner.tip[1])))
        return reader(frame, corner, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(finder_corners, "_read_corner", counted)
    reads = {"with": 0, "without": 0}
    for key in family_sample(vision, "edje_train", 8):
        frame = read_image(vision / "dev" / key)
        tips.clear()
        with_rule = [o.name for o in recognise(frame, model, without_finders(GLYPHS, "index"))]
        reads["with"] += len(tips)
        tips.clear()
        without_rule = [o.name for o in recognise(frame, model, NO_REPEAT_RULE)]
        reads["without"] += len(tips)
        # The same names (in whatever order the loose corners were kept).
        assert sorted(with_rule, key=str) == sorted(without_rule, key=str), key
    assert reads["with"] < 0.8 * reads["without"], reads
