"""Index glyphs (ten shape, German letters, ink colour) and the detection helpers they rely on."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tools.synthetic import suit_shape
from vision.config import VisionConfig
from vision.detect import MaskSet, order_corners
from vision.glyphs import split_index
from vision.model import GlyphModel
from vision.read import read_corner


def _corner(text: str, suit: str = "S") -> np.ndarray:
    """An upright 44x102 corner view: serif index text with a drawn suit below it."""
    view = np.full((204, 88, 3), 245, np.uint8)
    cv2.putText(view, text, (6, 60), cv2.FONT_HERSHEY_COMPLEX, 1.6 if len(text) == 1 else 1.15,
                (20, 20, 20), 3, cv2.LINE_AA)
    shape = cv2.resize(suit_shape(suit, 0.9), (36, 40), interpolation=cv2.INTER_AREA)
    view[80:120, 14:50][shape > 127] = (20, 20, 20)
    return cv2.resize(view, (44, 102), interpolation=cv2.INTER_AREA)


def test_ten_is_ten_shaped() -> None:
    glyphs = split_index(_corner("10"), VisionConfig())
    assert glyphs is not None
    assert glyphs.rank_parts == 2 and glyphs.ten_shaped


def test_letter_broken_at_its_stem_is_not_a_ten() -> None:
    view = _corner("D")
    # Cut the D between its stem and its bowl, as thin serif joints break on worn prints.
    ink = np.nonzero((view[:40].min(axis=2) < 128).any(axis=0))[0]
    view[:40, ink.min() + 5] = 245
    glyphs = split_index(view, VisionConfig())
    assert glyphs is not None
    assert glyphs.rank_parts == 2 and not glyphs.ten_shaped
    assert read_corner(glyphs, GlyphModel.load(), VisionConfig()) is None


@pytest.mark.parametrize(("letter", "rank"), [("B", "J"), ("D", "Q")])
def test_german_letters_read_as_jack_and_queen(letter: str, rank: str) -> None:
    glyphs = split_index(_corner(letter), VisionConfig())
    assert glyphs is not None
    reading = read_corner(glyphs, GlyphModel.load(), VisionConfig())
    assert reading is not None
    assert (reading.rank.label, reading.suit.label) == (rank, "S")


@pytest.mark.parametrize(("suit", "colour"), [("H", (40, 40, 210)), ("D", (30, 20, 180)),
                                              ("S", (20, 20, 20)), ("C", (60, 60, 60))])
def test_ink_colour_tells_red_from_black_under_warm_light(suit: str,
                                                          colour: tuple[int, int, int]) -> None:
    view = _corner("K", suit)
    view[(view < 128).all(axis=2)] = colour
    warm = np.clip(view.astype(np.float32) * (0.75, 0.9, 1.0), 0, 255).astype(np.uint8)
    glyphs = split_index(warm, VisionConfig())
    assert glyphs is not None
    config = VisionConfig()
    if suit in "HD":
        assert glyphs.redness >= config.red_level
    else:
        assert glyphs.redness <= config.black_level


def test_card_corners_are_ordered_clockwise_from_top_left() -> None:
    corners = np.array([[10, 5], [55, 2], [60, 45], [3, 40]], np.float32)
    for shift in range(4):
        for points in (np.roll(corners, shift, axis=0), np.roll(corners[::-1], shift, axis=0)):
            assert np.array_equal(order_corners(points), corners)


def test_mask_contours_are_found_once_and_match_opencv() -> None:
    mask = np.zeros((60, 80), np.uint8)
    cv2.rectangle(mask, (10, 10), (40, 50), 255, -1)
    cv2.circle(mask, (65, 20), 8, 255, -1)
    masks = MaskSet([mask], scale=1.0, pad=0)
    first = masks.contours(0)
    assert masks.contours(0) is first
    expected, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    assert sorted(len(c) for c in first) == sorted(len(c) for c in expected)


def _one_and_bowl(start: int, end: int) -> np.ndarray:
    """A corner view holding a '1' and, abutting it, an arc of a ring from `start` to `end`
    degrees (clockwise from the right), with a spade below."""
    view = np.full((102, 44, 3), 245, np.uint8)
    ink = (20, 20, 20)
    cv2.rectangle(view, (8, 8), (11, 30), ink, -1)
    cv2.ellipse(view, (22, 19), (7, 11), 0, start, end, ink, 2)
    shape = cv2.resize(suit_shape("S", 0.9), (18, 20), interpolation=cv2.INTER_AREA)
    view[40:60, 8:26][shape > 127] = ink
    return view


def test_ten_with_its_zero_open_at_the_top_is_still_a_ten() -> None:
    glyphs = split_index(_one_and_bowl(-60, 240), VisionConfig())
    assert glyphs is not None
    assert glyphs.rank_parts == 2 and glyphs.ten_shaped


def test_stem_and_open_bowl_are_not_a_ten() -> None:
    # The right half of a ring with short arms reaching left: a D's bowl cut from its stem.
    view = _one_and_bowl(-90, 90)
    cv2.line(view, (15, 8), (22, 8), (20, 20, 20), 2)
    cv2.line(view, (15, 30), (22, 30), (20, 20, 20), 2)
    glyphs = split_index(view, VisionConfig())
    assert glyphs is not None
    assert glyphs.rank_parts == 2 and not glyphs.ten_shaped
