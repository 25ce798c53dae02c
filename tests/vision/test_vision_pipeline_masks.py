"""Loose corners are sought in the first `CornerFinderConfig.masks` colour masks, never in
fallback masks."""

from __future__ import annotations

import cv2
import numpy as np

from vision.config import CornerFinderConfig, VisionConfig
from vision.corners import find_corners
from vision.detect import MaskSet

UNDER = ((40, 60), (140, 270))
OVER = ((80, 56), (180, 266))
"""Two cards of a fan: the one on top lies a little higher, so in a mask where both are one
region its top-left corner is only a 4 pixel step."""


def _fan_masks(parted_index: int, fallback: frozenset[int] = frozenset()) -> MaskSet:
    merged = np.zeros((330, 240), np.uint8)
    for start, end in (UNDER, OVER):
        cv2.rectangle(merged, start, end, 255, -1)
    parted = merged.copy()
    # The shadow along the top card's left side parts the two in one mask.
    cv2.line(parted, (78, 56), (78, 270), 0, 2)
    masks = [merged] * parted_index + [parted]
    return MaskSet(masks, scale=1.0, pad=0, fallback=fallback)


def _tips(masks: MaskSet, config: VisionConfig) -> set[tuple[int, int]]:
    corners = find_corners(masks, config, card_width=100.0)
    return {(round(float(c.tip[0])), round(float(c.tip[1]))) for c in corners}


SEARCH_MORE = VisionConfig(corner_finder=CornerFinderConfig(masks=4))
FIRST_TWO = VisionConfig(corner_finder=CornerFinderConfig(masks=2))


def test_top_card_corner_of_a_fan_is_found_in_a_mask_that_parts_it_when_searched() -> None:
    assert (80, 56) not in _tips(_fan_masks(3), FIRST_TWO)
    assert (80, 56) in _tips(_fan_masks(3), SEARCH_MORE)
    assert (40, 60) in _tips(_fan_masks(3), FIRST_TWO)


def test_fallback_masks_are_not_searched_for_corners() -> None:
    assert (80, 56) not in _tips(_fan_masks(3, fallback=frozenset({3})), SEARCH_MORE)
