"""Card finder on rendered scenes that the colour masks alone cannot solve, and on empty tables."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tools.scenes import paste_card, table_background
from vision.cards import Image, Quad
from vision.config import VisionConfig
from vision.detect import MaskSet, _turning_points, card_masks
from vision.outline_boxes import box_iou
from vision.propose import find_cards

CONFIG = VisionConfig()


def _colour_masks_only(frame: Image) -> MaskSet:
    """The frame's masks without the edge-ring fallback and without card sides (no grey)."""
    masks = card_masks(frame, CONFIG)
    kept = [mask for i, mask in enumerate(masks.masks) if i not in masks.fallback]
    return MaskSet(kept, masks.scale, masks.pad)


def _borderless_face(text: str, edge: int) -> Image:
    """A white card face with a big index and a faint darker rim (the card's thickness)."""
    face = np.full((435, 300, 3), 245, np.uint8)
    cv2.putText(face, text, (14, 60), cv2.FONT_HERSHEY_DUPLEX, 1.8, (30, 30, 30), 4)
    cv2.putText(face, text, (120, 260), cv2.FONT_HERSHEY_DUPLEX, 3.0, (30, 30, 30), 6)
    cv2.rectangle(face, (0, 0), (299, 434), (245 - edge,) * 3, 3)
    return face


def _shade(scene: Image, seed: int) -> Image:
    """The scene under a soft diagonal shadow that darkens its right part by up to 45%."""
    height, width = scene.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    edge = (0.6 + 0.02 * seed) * width - 0.4 * ys
    light = 1.0 - 0.45 / (1.0 + np.exp(-(xs - edge) / 30.0))
    shaded: Image = np.clip(scene * light[:, :, None], 0, 255).astype(np.uint8)
    return shaded


def _light_table(seed: int) -> Image:
    """A nearly white, finely mottled 640x480 table top."""
    rng = np.random.default_rng(seed)
    noise = rng.normal(0.0, 5.0, (161, 214, 1)).astype(np.float32)
    base = np.full((480, 640, 3), (236, 240, 243), np.float32)
    base += cv2.resize(noise, (640, 480))[:, :, None]
    table: Image = np.clip(base, 0, 255).astype(np.uint8)
    return table


def _best_iou(quads: list[Quad], truth: Quad) -> float:
    return max((box_iou(q, truth) for q in quads), default=0.0)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_white_card_half_in_shadow_on_a_light_table_is_found(seed: int) -> None:
    scene = _light_table(seed)
    face = np.full((290, 200, 3), 246, np.uint8)
    cv2.rectangle(face, (0, 0), (199, 289), (170, 170, 170), 2)
    cv2.putText(face, "9", (10, 45), cv2.FONT_HERSHEY_DUPLEX, 1.4, (30, 30, 200), 3)
    truth = paste_card(scene, face, (300 + 20 * seed, 240), 220, 17 + 10 * seed)
    scene = cv2.GaussianBlur(_shade(scene, seed), (3, 3), 0)
    assert _best_iou(find_cards(scene, CONFIG, _colour_masks_only(scene)), truth) < 0.5
    assert _best_iou(find_cards(scene, CONFIG), truth) > 0.9


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_top_card_of_a_fanned_pair_is_outlined_and_the_covered_one_is_not(seed: int) -> None:
    scene = table_background(960, 540, seed=seed)
    under = paste_card(scene, _borderless_face("9", 12), (420 + 10 * seed, 270), 300, 5 + 3 * seed)
    top = paste_card(scene, _borderless_face("K", 12), (520 + 10 * seed, 285), 300, 8 + 3 * seed)
    scene = cv2.GaussianBlur(scene, (3, 3), 0)
    assert find_cards(scene, CONFIG, _colour_masks_only(scene)) == []
    found = find_cards(scene, CONFIG)
    assert len(found) == 1
    assert box_iou(found[0], top) > 0.85
    assert box_iou(found[0], under) < 0.5


def _wood(seed: int) -> Image:
    rng = np.random.default_rng(seed)
    ys, xs = np.mgrid[0:540, 0:960].astype(np.float32)
    grain = np.sin(xs / 7.0 + 3.0 * np.sin(ys / 40.0)) * 25.0 + rng.normal(0.0, 6.0, (540, 960))
    wood: Image = np.clip(np.stack([60 + grain / 2, 110 + grain, 160 + grain], axis=2), 0, 255)
    return wood.astype(np.uint8)


def _carpet(seed: int) -> Image:
    rng = np.random.default_rng(seed)
    tufts = np.clip(rng.normal(150.0, 40.0, (270, 480, 3)), 0, 255).astype(np.uint8)
    carpet: Image = cv2.resize(tufts, (960, 540), interpolation=cv2.INTER_NEAREST)
    return carpet


@pytest.mark.parametrize("table", ["felt", "wood", "carpet"])
def test_no_outlines_on_an_empty_textured_table(table: str) -> None:
    frame = {"felt": table_background(960, 540, seed=4), "wood": _wood(5),
             "carpet": _carpet(6)}[table]
    assert find_cards(frame, CONFIG) == []


def test_turning_points_trace_the_same_thick_outline_as_the_whole_chain() -> None:
    mask = np.zeros((120, 160), np.uint8)
    cv2.ellipse(mask, (80, 60), (50, 30), 20, 0, 360, 255, -1)
    cv2.rectangle(mask, (20, 20), (70, 90), 255, -1)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    chain = contours[0]
    turns = _turning_points(chain)
    assert len(turns) < len(chain) / 2
    for thickness in (1, 3, 7):
        whole = cv2.drawContours(np.zeros_like(mask), [chain], -1, 255, thickness)
        short = cv2.drawContours(np.zeros_like(mask), [turns], -1, 255, thickness)
        assert np.array_equal(whole, short)
