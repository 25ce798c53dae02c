"""The table's own case: each card of a trick laid partly over the one before is named whole, at
the camera's card sizes, with the finders that outline it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from tools.scenes import paste_card, table_background
from tools.synthetic import artwork_cards
from vision.cards import Image, Quad
from vision.config import VisionConfig
from vision.decide import shipped_threshold
from vision.live import LiveConfig, view_config
from vision.model import GlyphModel
from vision.outline_boxes import box_iou
from vision.pipeline import recognise

ARTWORK = Path(__file__).resolve().parents[2] / "vision" / "data" / "artwork"
TRICKS = (("9S", "JS"), ("QH", "KH"), ("TD", "AD"), ("9C", "QC"), ("KS", "AS"), ("JH", "TH"))


def _trick(first: str, top: str, length: float, seed: int) -> tuple[Image, Quad]:
    """A play-area view with one card and the next laid over it, as trick cards land; the top
    card's outline."""
    rng = np.random.default_rng(seed)
    faces = dict(artwork_cards(ARTWORK))
    side = int(length * 7.7)
    frame = table_background(side, side, seed=seed)
    centre = np.array([side / 2, side / 2]) + rng.uniform(-length, length, 2)
    angle = float(rng.uniform(-180, 180))
    paste_card(frame, faces[first], tuple(centre), length, angle)
    turn = np.deg2rad(angle)
    shift = 0.55 * length * np.array([-np.sin(turn), np.cos(turn)])
    top_quad = paste_card(frame, faces[top], tuple(centre + shift), length,
                          angle + float(rng.uniform(-25, 25)))
    return frame, top_quad


def _named_on_top(config: VisionConfig, length: float) -> int:
    model, threshold = GlyphModel.load(), shipped_threshold()
    named = 0
    for seed, (first, top) in enumerate(TRICKS):
        frame, quad = _trick(first, top, length, seed)
        sized = dataclasses.replace(config, card_length=length)
        found = recognise(frame, model, sized)
        named += any(o.name == top and o.confidence >= threshold
                     and box_iou(o.corners, quad) > 0.8 for o in found)
    return named


@pytest.mark.parametrize("length", [95.0, 140.0])
def test_the_card_laid_over_the_last_is_named_whole(length: float) -> None:
    config = view_config(VisionConfig(), LiveConfig())
    assert _named_on_top(config, length) >= len(TRICKS) - 1
