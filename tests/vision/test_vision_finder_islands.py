"""Cards on a dark mat that a light table rings all round: regions inside another's hole."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tools.scenes import paste_card, table_background
from tools.synthetic import artwork_cards
from vision.cards import Image, Quad
from vision.config import VisionConfig
from vision.detect import outlines_and_islands
from vision.live import LiveConfig, view_config
from vision.propose import find_cards

ARTWORK = Path(__file__).resolve().parents[2] / "vision" / "data" / "artwork"
COURTS = ("KC", "QC", "JH", "KD", "QS", "JS", "KH", "QD")


def test_islands_are_the_regions_inside_another_regions_hole() -> None:
    mask = np.zeros((300, 400), np.uint8)
    mask[10:290, 10:390] = 255          # a light table
    mask[40:260, 40:360] = 0            # the dark mat in it
    mask[60:160, 60:130] = 255          # two cards on the mat
    mask[80:200, 200:280] = 255
    mask[100:120, 220:240] = 0          # a dark pip on one of them
    mask[105:115, 225:235] = 255        # and a light speck in that pip
    external, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    assert len(external) == 1
    outer, inside = outlines_and_islands(mask)
    assert len(outer) == 1 and np.array_equal(outer[0], external[0])
    found = sorted(cv2.boundingRect(c) for c in inside)
    assert found == [(60, 60, 70, 100), (200, 80, 80, 120), (225, 105, 10, 10)]
    assert len(outlines_and_islands(mask, least_points=100)[1]) == 2  # the speck is too small
    assert outlines_and_islands(np.zeros((50, 50), np.uint8))[1] == []


def _ringed_scene(seed: int, length: float, side: int) -> tuple[Image, list[Quad]]:
    """Eight court cards on a dark felt with a light table showing all round it."""
    faces = dict(artwork_cards(ARTWORK))
    rng = np.random.default_rng(seed)
    frame = np.full((side, side, 3), (214, 220, 226), np.uint8)
    border = int(side * 0.05)
    felt = table_background(side - 2 * border, side - 2 * border, seed=seed)
    frame[border:side - border, border:side - border] = (felt * 0.45).astype(np.uint8)
    quads = [paste_card(frame, faces[name],
                        (side * (0.2 + 0.2 * (k % 4)) + rng.uniform(-10, 10),
                         side * (0.3 + 0.35 * (k // 4))), length,
                        angle=float(rng.uniform(-60, 60)))
             for k, name in enumerate(COURTS)]
    return np.asarray(cv2.GaussianBlur(frame, (0, 0), 1.0), np.uint8), quads


def _found(frame: Image, quads: list[Quad], length: float, config: VisionConfig) -> int:
    outlines = find_cards(frame, config)
    return sum(any(float(np.abs(o.mean(axis=0) - q.mean(axis=0)).max()) < 0.15 * length
                   for o in outlines) for q in quads)


@pytest.mark.parametrize(("length", "side"), [(140.0, 1080), (95.0, 732)])
def test_every_court_on_a_mat_ringed_by_the_table_is_outlined(length: float, side: int) -> None:
    config = view_config(VisionConfig(), LiveConfig())
    assert config.nested_regions
    with_islands = without = 0
    for seed in range(6):
        frame, quads = _ringed_scene(seed, length, side)
        found = _found(frame, quads, length, config)
        assert found == len(COURTS)
        with_islands += found
        without += _found(frame, quads, length, replace(config, nested_regions=False))
    # Without the islands some courts, their faces split by the figure, are not outlined.
    if length == 140.0:
        assert without < with_islands
