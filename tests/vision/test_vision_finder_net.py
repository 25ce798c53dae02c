"""The learned finder: card faces marked in a frame, kept apart, and outlined through detect."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tools.scenes import paste_card, table_background
from tools.synthetic import artwork_cards
from vision.cards import Image, Quad
from vision.config import LearnedFinderConfig, VisionConfig
from vision.detect import card_masks, with_learned_faces
from vision.finder_net import inside_mask, load_finder, shipped_finder
from vision.learned import ModelFileError
from vision.outline_boxes import box_iou
from vision.propose import find_cards

ARTWORK = Path(__file__).resolve().parents[2] / "vision" / "data" / "artwork"
CARDS = ("TS", "QH", "9C", "AD", "KS", "JD")
LEARNED = replace(VisionConfig(), learned_finder=LearnedFinderConfig(in_doubt=False))


def _table(kind: str, width: int, height: int, seed: int) -> Image:
    """A green felt, a light grey table as pale as the cards' paper, or a striped cloth."""
    frame = table_background(width, height, seed=seed)
    if kind == "pale":
        frame = np.clip(frame.astype(np.int16) + 150, 0, 255).astype(np.uint8)
    elif kind == "striped":
        stripes = (np.arange(width) // 23 % 2).astype(np.uint8)[None, :, None]
        frame = np.where(stripes, frame, np.clip(frame.astype(np.int16) + 160, 0, 255)).astype(
            np.uint8)
    return frame


def _scene(kind: str, length: float, seed: int) -> tuple[Image, list[Quad]]:
    """Six artwork cards `length` px long in a row, turned, softened as a webcam sees them."""
    faces = dict(artwork_cards(ARTWORK))
    width, height = int(length * 7.5), int(length * 2.2)
    frame = _table(kind, width, height, seed)
    quads = [paste_card(frame, faces[name], (length * (0.8 + 1.15 * i), length * 1.1), length,
                        angle=-30 + 13 * i + 5 * seed, tilt=0.04 * (i % 2))
             for i, name in enumerate(CARDS)]
    return cv2.GaussianBlur(frame, (0, 0), 0.7), quads


def _best_iou(found: list[Quad], quad: Quad) -> float:
    return max((box_iou(q, quad) for q in found), default=0.0)


@pytest.mark.parametrize("kind", ["felt", "pale"])
@pytest.mark.parametrize("length", [95, 140])
def test_every_card_is_outlined_with_the_learned_finder(kind: str, length: int) -> None:
    frame, quads = _scene(kind, length, seed=length % 3)
    found = find_cards(frame, LEARNED)
    ious = [_best_iou(found, quad) for quad in quads]
    assert min(ious) > 0.8, ious


@pytest.mark.parametrize("length", [95, 140])
def test_cards_on_a_striped_cloth_are_marked_and_most_outlined(length: int) -> None:
    # Stripes as wide as a card's index run through every mask of light; the finder marks
    # each card, though a court's figure over the stripes can leave its region ragged.
    frame, quads = _scene("striped", length, seed=length % 3)
    mask = inside_mask(frame, 640)
    _, parts, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    for quad in quads:
        x, y = np.round(quad.mean(axis=0)).astype(int)
        assert parts[y, x] > 0
        assert stats[parts[y, x], cv2.CC_STAT_AREA] > 0.5 * cv2.contourArea(quad)
    found = find_cards(frame, LEARNED)
    assert sum(_best_iou(found, quad) > 0.8 for quad in quads) >= len(quads) - 1


@pytest.mark.parametrize("length", [95, 140])
def test_the_learned_finder_outlines_cards_the_colour_masks_merge(length: int) -> None:
    frame, quads = _scene("pale", length, seed=1)
    masks = card_masks(frame, LEARNED)
    (index,) = masks.learned
    inside = masks.masks[index][masks.pad:-masks.pad, masks.pad:-masks.pad]
    _, _, stats, _ = cv2.connectedComponentsWithStats(inside)
    card_area = cv2.contourArea(quads[0]) * masks.scale**2
    big = [a for a in stats[1:, cv2.CC_STAT_AREA] if a > 0.4 * card_area]
    assert len(big) == len(quads)


def test_touching_cards_stay_apart() -> None:
    faces = dict(artwork_cards(ARTWORK))
    frame = _table("felt", 640, 360, seed=4)
    length = 120.0
    width = length * faces["QH"].shape[1] / faces["QH"].shape[0]
    for k, name in enumerate(("QH", "9C", "AD")):
        paste_card(frame, faces[name], (200 + k * width, 180), length, angle=0.0)
    mask = inside_mask(frame, 640)
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    sizes = sorted(stats[1:, cv2.CC_STAT_AREA])[::-1]
    assert len(sizes) >= 3 and sizes[2] > 0.5 * length * width


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_table_print_and_a_bare_table_are_no_card(seed: int) -> None:
    frame = _table("felt", 640, 360, seed)
    rng = np.random.default_rng(seed)
    for _ in range(4):
        x, y = (int(v) for v in rng.integers(60, 300, 2))
        cv2.rectangle(frame, (x, y), (x + 60, y + 88), (220, 220, 220), 3)
        cv2.putText(frame, "PLAYER", (x, y - 10), cv2.FONT_HERSHEY_SIMPLEX, 0.8,
                    (230, 230, 230), 2)
    mask = inside_mask(frame, 640)
    assert cv2.countNonZero(mask) < 0.25 * 60 * 88


def test_a_large_frame_is_looked_at_shrunk() -> None:
    frame, quads = _scene("felt", 140, seed=0)
    big = cv2.resize(frame, None, fx=2, fy=2, interpolation=cv2.INTER_LINEAR)
    mask = inside_mask(big, 640)
    assert mask.shape == big.shape[:2]
    for quad in quads:
        centre = np.round(quad.mean(axis=0) * 2).astype(int)
        assert mask[centre[1], centre[0]] == 255


def test_the_shipped_finder_loads_with_its_manifest() -> None:
    finder = shipped_finder()
    assert finder.manifest["classes"] == ["table", "inside", "edge"]
    probability = finder.inside(np.full((50, 70, 3), 40, np.uint8))
    assert probability.shape == (50, 70) and float(probability.max()) < 0.5


def test_a_missing_or_foreign_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ModelFileError, match="manifest"):
        load_finder(tmp_path / "finder.onnx")
    (tmp_path / "finder.json").write_text('{"classes": ["a", "b"], "stride": 2}')
    with pytest.raises(ModelFileError, match="does not match"):
        load_finder(tmp_path / "finder.onnx")


def test_the_finder_looking_at_a_region_marks_it_as_it_does_in_the_whole_frame() -> None:
    frame, quads = _scene("pale", 140, seed=2)
    colour = card_masks(frame, VisionConfig())
    whole = with_learned_faces(colour, LearnedFinderConfig())
    x0, y0 = quads[2].min(axis=0) - 140
    x1, y1 = quads[2].max(axis=0) + 140
    part = with_learned_faces(colour, LearnedFinderConfig(), (x0, y0, x1, y1))
    (learned,) = part.learned
    assert whole.learned == part.learned
    assert len(part.masks) == len(colour.masks) + 1
    # Away from the region's borders the marks are the same; outside it there are none.
    mask_of = [whole.masks[learned], part.masks[learned]]
    centre = [np.round(quads[2].mean(axis=0) * colour.scale + colour.pad).astype(int)]
    for (x, y) in centre:
        assert mask_of[0][y, x] == mask_of[1][y, x] == 255
    far = np.round(quads[5].mean(axis=0) * colour.scale + colour.pad).astype(int)
    assert mask_of[0][far[1], far[0]] == 255 and mask_of[1][far[1], far[0]] == 0
    inner = [round(v * colour.scale) + colour.pad for v in (x0 + 40, y0 + 40, x1 - 40, y1 - 40)]
    window = np.s_[max(inner[1], 0):inner[3], max(inner[0], 0):inner[2]]
    same = np.mean(mask_of[0][window] == mask_of[1][window])
    assert same > 0.98
    # The colour masks and their kinds are kept, the finder's ahead of the fallbacks.
    assert part.fallback == frozenset(k + 1 for k in colour.fallback)


def test_the_colour_masks_contours_are_found_once_for_both_looks() -> None:
    frame, _ = _scene("felt", 95, seed=0)
    colour = card_masks(frame, VisionConfig())
    found = [colour.contours(k) for k in range(len(colour.masks))]
    part = with_learned_faces(colour, LearnedFinderConfig())
    (learned,) = part.learned
    others = [k for k in range(len(part.masks)) if k != learned]
    assert all(part.contours(k) is found[n] for n, k in enumerate(others))
