"""Weakly supported outlines narrowed to a card built on a whole side of their region."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from tools.scenes import paste_card, plain_card
from vision.config import VisionConfig
from vision.outline_boxes import box_iou
from vision.propose import find_cards

CONFIG = VisionConfig()
UNNARROWED = dataclasses.replace(CONFIG, weak_support=0.0)


def _card_beside_a_light_band(length: int) -> tuple[np.ndarray, np.ndarray]:
    """A white card on a dark table with a band of light table, nearly as white, running from
    the middle of its right side; returns the frame and the card's outline."""
    frame = np.full((480, 640, 3), (50, 70, 100), np.uint8)
    cv2.rectangle(frame, (300, 200), (318 + length, 300), (228, 232, 235), -1)
    face = plain_card("9", "S")
    quad = paste_card(frame, face, (230, 250), 240, angle=0)
    # A real card's edge is as white as its face: no dark fringe parts it from the band.
    cv2.polylines(frame, [np.round(quad).astype(np.int32)], True, (245, 245, 245), 2)
    return cv2.GaussianBlur(frame, (3, 3), 0), quad


def test_a_card_merged_with_a_light_band_is_narrowed_to_the_card() -> None:
    frame, truth = _card_beside_a_light_band(140)
    assert max(box_iou(quad, truth) for quad in find_cards(frame, CONFIG)) > 0.95
    # Without narrowing, the outline of card and band together stands for the card.
    assert max(box_iou(quad, truth) for quad in find_cards(frame, UNNARROWED)) < 0.6


def test_a_short_band_leaves_the_card_outline_as_it_was() -> None:
    frame, truth = _card_beside_a_light_band(60)
    for config in (CONFIG, UNNARROWED):
        assert max(box_iou(quad, truth) for quad in find_cards(frame, config)) > 0.95

