"""A frame shrunk for the masks is OpenCV's area average at whole factors and close to it at any
other, at the size asked for."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tools.scenes import paste_card, plain_card, table_background
from vision.imageio import shrunk


def _table(width: int, height: int, seed: int) -> np.ndarray:
    """A rendered table with four plain cards 140 px long and the camera's noise."""
    frame = table_background(width, height, seed=seed)
    rng = np.random.default_rng(seed)
    for k, name in enumerate(("9H", "TS", "QC", "AD")):
        centre = ((k + 1) * width / 5, height / 2 + rng.uniform(-100, 100))
        paste_card(frame, plain_card(name[0], name[1]), centre, 140.0,
                   angle=float(rng.uniform(-90, 90)))
    noise = rng.normal(0.0, 6.0, frame.shape)
    return np.clip(frame.astype(np.float64) + noise, 0, 255).astype(np.uint8)


@pytest.mark.parametrize(("width", "height", "factor"), [(1920, 1080, 3), (1280, 720, 2)])
def test_a_whole_factor_is_the_area_average(width: int, height: int, factor: int) -> None:
    frame = _table(width, height, seed=factor)
    size = (width // factor, height // factor)
    expected = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    assert np.array_equal(shrunk(frame, *size), expected)


@pytest.mark.parametrize(("side", "long_side"), [(1080, 800), (1440, 1088), (1080, 640),
                                                 (1600, 640), (1130, 1088)])
def test_any_other_factor_is_close_to_the_area_average(side: int, long_side: int) -> None:
    frame = _table(side, side * 3 // 4, seed=side)
    size = (long_side, round(long_side * 3 / 4))
    fast = shrunk(frame, *size)
    assert fast.shape == (size[1], size[0], 3)
    area = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    difference = np.abs(fast.astype(np.int16) - area.astype(np.int16))
    assert float(difference.mean()) < 3.0


def test_a_frame_already_small_enough_is_only_interpolated() -> None:
    frame = _table(700, 500, seed=1)
    assert shrunk(frame, 700, 500) is frame
    assert shrunk(frame, 650, 464).shape == (464, 650, 3)
