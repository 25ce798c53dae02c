"""Small frames enlarged: before outlines are sought (`detect_min_long_side`, shipped off) and
as a second look whose outlines fill gaps (`enlarged_look`)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tools.scenes import paste_card, plain_card, table_background
from vision.config import VisionConfig
from vision.detect import card_masks
from vision.outline_boxes import box_iou
from vision.propose import find_cards

ENLARGED = dataclasses.replace(VisionConfig(), detect_min_long_side=480, enlarged_look=0)


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


LOOK = dataclasses.replace(VisionConfig(), enlarged_look=480)
PLAIN = dataclasses.replace(VisionConfig(), enlarged_look=0)


def _small_scene(size: tuple[int, int], seed: int) -> np.ndarray:
    """A small frame with two cards of a third of its height, turned."""
    width, height = size
    frame = table_background(width, height, seed)
    for k, (rank, suit) in enumerate((("J", "C"), ("9", "D"))):
        paste_card(frame, plain_card(rank, suit), ((0.3 + 0.4 * k) * width, height / 2),
                   0.45 * height, 20.0 * (seed + k))
    return frame


@pytest.mark.parametrize("size", [(200, 150), (300, 220), (420, 300)])
def test_the_enlarged_look_only_adds_outlines_in_gaps(size: tuple[int, int]) -> None:
    for seed in range(3):
        frame = _small_scene(size, seed)
        plain = find_cards(frame, PLAIN)
        looked = find_cards(frame, LOOK)
        for quad in plain:
            assert any(np.array_equal(quad, other) for other in looked), (size, seed)
        added = [q for q in looked if not any(np.array_equal(q, p) for p in plain)]
        for quad in added:
            assert all(box_iou(quad, other) <= 0.3 for other in plain), (size, seed)
            assert np.all(quad >= 0) and np.all(quad <= (size[0] - 1, size[1] - 1))


def test_the_enlarged_look_leaves_frames_of_that_length_alone() -> None:
    for seed in range(3):
        frame = _small_scene((640, 360), seed)
        plain = find_cards(frame, PLAIN)
        looked = find_cards(frame, LOOK)
        assert len(plain) == len(looked)
        assert all(np.array_equal(a, b) for a, b in zip(plain, looked, strict=True))
