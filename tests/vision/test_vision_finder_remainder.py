"""Cards found in what is left of a region once the cards found in it are taken out, and
fallback regions that touch the frame's edge with a corner."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from tools.deck_measure import drawn_frames
from vision.cards import Quad
from vision.config import VisionConfig
from vision.detect import MaskSet, _remainder_candidates, _runs_along_border, find_cards
from vision.outline_boxes import box_iou

CONFIG = VisionConfig()
NO_REMAINDER = dataclasses.replace(CONFIG, remainder_margin=0)
NO_CORNER_AT_EDGE = dataclasses.replace(CONFIG, fallback_border_span=0.0)
PAD = 26


def mask_set(height: int = 420, width: int = 692) -> MaskSet:
    """An empty padded mask set on a plain grey frame."""
    blank = np.zeros((height, width), np.uint8)
    return MaskSet([blank], 0.5, PAD, gray=np.full((height, width), 60, np.uint8))


def card(centre: tuple[float, float], angle: float, width: float = 40.0) -> Quad:
    """A card-shaped quad (1.4 times as long as wide) turned by `angle` degrees."""
    rect = (centre, (width, width * 1.4), angle)
    return cv2.boxPoints(rect).astype(np.float32)


def outline_of(*quads: Quad, shape: tuple[int, int] = (420, 692)) -> np.ndarray:
    """The outer contour of the quads filled together."""
    region = np.zeros(shape, np.uint8)
    for quad in quads:
        cv2.fillConvexPoly(region, np.round(quad).astype(np.int32), 255)
    found, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    assert len(found) == 1
    return found[0]


def test_a_region_touching_the_edge_with_a_corner_is_kept_and_one_along_it_is_not() -> None:
    masks = mask_set()
    # A card turned 45 degrees whose top corner reaches the padded frame's edge.
    diamond = card((200.0, PAD + 2 + 34.0), 45.0)
    corner = outline_of(diamond)
    assert not _runs_along_border(corner, cv2.boundingRect(corner), masks, CONFIG)
    assert _runs_along_border(corner, cv2.boundingRect(corner), masks, NO_CORNER_AT_EDGE)
    # A card lying with its long side along the left edge.
    along = outline_of(card((PAD + 1 + 28.0, 200.0), 90.0))
    assert _runs_along_border(along, cv2.boundingRect(along), masks, CONFIG)
    # A card well inside the frame does not reach the edge at all.
    inside = outline_of(card((300.0, 200.0), 30.0))
    assert not _runs_along_border(inside, cv2.boundingRect(inside), masks, NO_CORNER_AT_EDGE)


@pytest.mark.parametrize("angle", [0.0, 20.0, -35.0])
def test_a_card_touching_a_found_card_is_found_in_what_is_left(angle: float) -> None:
    masks = mask_set()
    found = card((300.0, 200.0), angle)
    # The second card lies beside the first, half a length further on: their union is no card.
    theta = np.deg2rad(angle)
    across = np.array([np.cos(theta), np.sin(theta)]) * 41.0
    along = np.array([-np.sin(theta), np.cos(theta)]) * 28.0
    other = card(tuple(np.array([300.0, 200.0]) + across + along), angle)
    region = outline_of(found, other)
    left = _remainder_candidates([(region, cv2.boundingRect(region))], [(0.0, found)], masks,
                                 CONFIG)
    assert len(left) == 1
    assert box_iou(left[0][1], other) > 0.8
    assert not _remainder_candidates([(region, cv2.boundingRect(region))], [(0.0, found)],
                                     masks, NO_REMAINDER)
    # With nothing found in the region there is nothing to take out.
    assert not _remainder_candidates([(region, cv2.boundingRect(region))], [], masks, CONFIG)


def found_and_phantoms(config: VisionConfig, long_side: int) -> tuple[int, int]:
    """Over the drawn deck's scenes: cards whose outline is found, and outlines on no card."""
    found = phantoms = 0
    for frame, truths in drawn_frames(long_side, range(30)):
        quads = find_cards(frame, config)
        found += sum(any(box_iou(q, t.corners) > 0.8 for q in quads) for t in truths)
        phantoms += sum(not any(box_iou(q, t.corners) > 0.3 for t in truths) for q in quads)
    return found, phantoms


def test_drawn_scenes_at_95_px_gain_outlines_from_both_and_no_phantom() -> None:
    # Drawn courts are mostly coloured print inside a thin white border: only the edge-ring
    # fallback outlines them, and in the scenes' first row they touch the frame's top edge or
    # a neighbour.
    found, phantoms = found_and_phantoms(CONFIG, 95)
    assert phantoms == 0
    assert found > found_and_phantoms(NO_REMAINDER, 95)[0]
    assert found > found_and_phantoms(NO_CORNER_AT_EDGE, 95)[0]
