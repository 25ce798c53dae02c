"""Fan steps: the middle cards of a fan, read at corners hidden back along their top edge."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.vision.glyphs_only import glyph_config
from tools.scenes import paste_card, plain_card, table_background
from vision.corners import FanStep, find_corners
from vision.detect import MaskSet, card_masks
from vision.model import GlyphModel
from vision.pipeline import _on_top_side, read_fan_steps, recognise

NO_STEPS = glyph_config(fan_steps=False, index_finder=False)


def _steps(mask: np.ndarray, width: float = 100.0) -> list[FanStep]:
    steps: list[FanStep] = []
    find_corners(MaskSet([mask], scale=1.0, pad=0), glyph_config(), width, None, steps)
    return steps


def _has_step(steps: list[FanStep], vertex: tuple[int, int], along: tuple[int, int],
              down: tuple[int, int]) -> bool:
    return any(np.abs(s.vertex - vertex).max() <= 2 and s.along @ np.array(along) > 0.99
               and s.down @ np.array(down) > 0.99 for s in steps)


def test_a_card_lying_over_a_higher_one_gives_a_step_along_its_top() -> None:
    # The lower card (left) rises 30 pixels above the upper one (right), which covers its right
    # part; white on white, the mask shows one region.
    mask = np.zeros((400, 500), np.uint8)
    cv2.rectangle(mask, (40, 40), (140, 190), 255, -1)
    cv2.rectangle(mask, (90, 70), (190, 220), 255, -1)
    steps = _steps(mask)
    assert _has_step(steps, (140, 70), (1, 0), (0, 1))
    # The outline alone cannot tell which card is on top: at the other end the left card may
    # lie over the right one, seen the other way up.
    assert _has_step(steps, (90, 190), (-1, 0), (0, -1))


def test_mirrored_fans_give_mirrored_steps_and_lone_cards_none() -> None:
    mask = np.zeros((400, 500), np.uint8)
    cv2.rectangle(mask, (240, 40), (340, 190), 255, -1)
    cv2.rectangle(mask, (190, 70), (290, 220), 255, -1)
    assert _has_step(_steps(mask), (240, 70), (-1, 0), (0, 1))
    lone = np.zeros((400, 500), np.uint8)
    cv2.rectangle(lone, (40, 40), (140, 190), 255, -1)
    assert _steps(lone) == []


def test_a_rise_higher_than_a_fan_allows_gives_no_step_there() -> None:
    # The left region rises 1.2 card widths above the right one: two things side by side.
    mask = np.zeros((500, 500), np.uint8)
    cv2.rectangle(mask, (40, 40), (140, 300), 255, -1)
    cv2.rectangle(mask, (90, 160), (290, 420), 255, -1)
    assert not _has_step(_steps(mask), (140, 160), (1, 0), (0, 1))
    assert _has_step(_steps(mask, width=250.0), (140, 160), (1, 0), (0, 1))


def _borderless(rank: str, suit: str) -> np.ndarray:
    face = plain_card(rank, suit)
    face[:4], face[-4:], face[:, :4], face[:, -4:] = 250, 250, 250, 250
    return face


@pytest.mark.parametrize(("angles", "drop"), [((-6, 0, 6), 25), ((-8, -2, 5), 40)])
def test_middle_card_of_a_rendered_fan_of_white_cards_is_read(
    angles: tuple[int, int, int], drop: int
) -> None:
    # White cards without printed borders: where they overlap, the masks show one region. The
    # left card rises above the others, so the middle card's corner lies hidden on it; a lone
    # card beside the fan is read whole and gives the card width.
    scene = table_background(1280, 720, seed=1)
    for k, (rank, suit) in enumerate([("9", "H"), ("J", "D"), ("K", "S")]):
        paste_card(scene, _borderless(rank, suit), (330 + k * 120, 330 + (drop if k else 0)),
                   330, angles[k])
    paste_card(scene, _borderless("A", "C"), (1000, 340), 330, 3)
    model = GlyphModel.load()
    with_steps = [o.name for o in recognise(scene, model, glyph_config())]
    without = [o.name for o in recognise(scene, model, NO_STEPS)]
    assert sorted(n for n in with_steps if n) == ["9H", "AC", "JD", "KS"]
    assert sorted(n for n in without if n) == ["9H", "AC", "KS"]


def _rect(x0: float, y0: float, width: float, height: float) -> np.ndarray:
    return np.array([[x0, y0], [x0 + width, y0], [x0 + width, y0 + height], [x0, y0 + height]],
                    np.float32)


def test_a_step_on_a_read_cards_top_side_is_that_cards_own() -> None:
    read = _rect(200, 100, 100, 150)
    config = glyph_config()
    right, down = np.array([1, 0], np.float32), np.array([0, 1], np.float32)
    # The read card's top-left corner, where it lies over a card rising above it.
    assert _on_top_side(FanStep(np.array([200, 100], np.float32), right, down), read, 100.0,
                        config)
    # A card whose corner lies at the read card's side, running off it: not the read card.
    assert not _on_top_side(FanStep(np.array([300, 120], np.float32), right, down), read,
                            100.0, config)
    # A step beyond the read card's top-left, along the line of its top: a flush neighbour.
    assert not _on_top_side(FanStep(np.array([150, 100], np.float32), right, down), read,
                            100.0, config)


def test_steps_inside_an_unread_card_are_its_print_but_inside_a_blob_are_searched() -> None:
    scene = table_background(1280, 720, seed=1)
    for k, (rank, suit) in enumerate([("9", "H"), ("J", "D"), ("K", "S")]):
        paste_card(scene, _borderless(rank, suit), (330 + k * 120, 330 + (25 if k else 0)),
                   330, (-6, 0, 6)[k])
    lone = paste_card(scene, _borderless("A", "C"), (1000, 340), 330, 3)
    config = replace(glyph_config(), min_confidence=glyph_config().pair_min_confidence)
    width = float(np.linalg.norm(lone[1] - lone[0]))
    steps: list[FanStep] = []
    find_corners(card_masks(scene, config), config, width, None, steps)
    model = GlyphModel.load()

    def names(unread: list[np.ndarray]) -> list[str | None]:
        found = read_fan_steps(scene, steps, [lone], unread, width, model, config)
        return [observation.name for observation, _, _ in found]

    assert "JD" in names([])
    # An unread outline of one card's size around the steps: they are that card's print.
    middle = np.mean([s.vertex for s in steps], axis=0)
    card = _rect(middle[0] - 100, middle[1] - 50, width, 1.45 * width)
    assert names([card]) == []
    # A blob over the whole fan does not hide them.
    assert "JD" in names([_rect(100, 80, 700, 520)])
