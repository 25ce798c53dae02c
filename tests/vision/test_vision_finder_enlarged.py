"""Small frames enlarged before outlines are sought (`detect_min_long_side`, shipped off)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tools.scenes import paste_card, plain_card, table_background
from vision.config import VisionConfig
from vision.detect import card_masks, find_cards
from vision.outline_boxes import box_iou

ENLARGED = dataclasses.replace(VisionConfig(), detect_min_long_side=480)


@pytest.mark.parametrize("size", [(200, 150), (260, 190), (320, 240)])
def test_outlines_of_an_enlarged_frame_are_in_its_own_pixels(size: tuple[int, int]) -> None:
    width, height = size
    for seed, (rank, suit) in enumerate((("K", "S"), ("Q", "H"), ("A", "D"))):
        frame = table_background(width, height, seed)
        long_side = 0.6 * height
        truth = paste_card(frame, plain_card(rank, suit), (width / 2, height / 2), long_side,
                           15.0 * seed)
        masks = card_masks(frame, ENLARGED)
        assert masks.scale == pytest.approx(480 / width, rel=0.01)
        quads = find_cards(frame, ENLARGED, masks)
        assert any(box_iou(quad, truth) > 0.85 for quad in quads), (size, seed)
        assert all(np.all(quad >= 0) and np.all(quad <= (width - 1, height - 1))
                   for quad in quads)


def test_frames_at_least_that_long_are_not_enlarged() -> None:
    frame = table_background(640, 360)
    assert card_masks(frame, ENLARGED).scale == 1.0
    assert card_masks(table_background(1280, 720), ENLARGED).scale == 0.5
