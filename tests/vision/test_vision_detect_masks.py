"""The colour masks are the thresholds of the table frame, each opened (and the masks of what
differs from the table closed first), however the opening is computed."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from tools.scenes import paste_card, plain_card, table_background
from vision.config import VisionConfig
from vision.detect import CLOSING, OPENING, card_masks

NAMES = ("9H", "TS", "JD", "QC", "KH", "AS")


def _table(seed: int, long_side: float) -> np.ndarray:
    """A 960x540 table with six plain cards, noise and a light patch, as the camera sees it."""
    frame = table_background(960, 540, seed=seed)
    rng = np.random.default_rng(seed)
    for k, name in enumerate(NAMES):
        centre = (160.0 + 130.0 * k + rng.uniform(-20, 20), 270.0 + rng.uniform(-150, 150))
        paste_card(frame, plain_card(name[0], name[1]), centre, long_side,
                   angle=float(rng.uniform(-90, 90)))
    cv2.circle(frame, (int(rng.integers(100, 860)), int(rng.integers(100, 440))), 40,
               (235, 235, 235), -1)
    noise = rng.normal(0.0, 6.0, frame.shape)
    return np.clip(frame.astype(np.float64) + noise, 0, 255).astype(np.uint8)


def _thresholded_then_opened(frame: np.ndarray, config: VisionConfig) -> list[np.ndarray]:
    """The colour masks made one by one: each level thresholded, then the mask smoothed."""
    masks = card_masks(frame, replace(config, learned_finder=None))
    pad = masks.pad
    small = masks.colour
    assert small is not None
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    whiteness = cv2.subtract(hsv[:, :, 2], hsv[:, :, 1])
    otsu, _ = cv2.threshold(whiteness, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    expected = [cv2.morphologyEx(cv2.threshold(whiteness, level, 255, cv2.THRESH_BINARY)[1],
                                 cv2.MORPH_OPEN, OPENING)
                for level in (otsu, otsu + 40, 200) if level < 255]
    inner = small[pad:-pad, pad:-pad].astype(np.int16)
    strip = max(2, pad // 2)
    border = np.concatenate([inner[:strip].reshape(-1, 3), inner[-strip:].reshape(-1, 3),
                             inner[:, :strip].reshape(-1, 3), inner[:, -strip:].reshape(-1, 3)])
    table = np.median(border[::7], axis=0)
    distance = np.abs(small.astype(np.float64) - table).max(axis=2)
    distance = np.clip(np.round(distance), 0, 255).astype(np.uint8)
    distance[:pad], distance[-pad:], distance[:, :pad], distance[:, -pad:] = 0, 0, 0, 0
    mask = cv2.threshold(distance, config.table_distance, 255, cv2.THRESH_BINARY)[1]
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, CLOSING)
    expected.append(cv2.morphologyEx(closed, cv2.MORPH_OPEN, OPENING))
    return expected


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("long_side", [95.0, 140.0])
def test_level_masks_are_each_threshold_opened(seed: int, long_side: float) -> None:
    frame = _table(seed, long_side)
    config = VisionConfig()
    masks = card_masks(frame, replace(config, learned_finder=None))
    expected = _thresholded_then_opened(frame, config)
    found = [m for k, m in enumerate(masks.masks) if k not in masks.fallback]
    assert len(found) == len(expected) == 4
    for made, wanted in zip(found, expected, strict=True):
        assert made.dtype == np.uint8 and set(np.unique(made)) <= {0, 255}
        assert np.array_equal(made, wanted)
    # Something to find: every mask marks some card and leaves the table.
    assert all(0 < np.count_nonzero(m) < m.size // 2 for m in found)
