"""Stub corners: a fanned card whose side shows only a few pixels above the card below it."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.glyphs_only import glyph_config
from tools.scenes import paste_card, plain_card, table_background
from vision.detect import MaskSet
from vision.fan_stubs import StubCorner, find_stub_corners
from vision.imageio import read_image
from vision.model import GlyphModel
from vision.pipeline import recognise

NO_STUBS = glyph_config(fan_stubs=False, index_finder=False)


def _stubs(mask: np.ndarray, width: float = 100.0) -> list[StubCorner]:
    return find_stub_corners(MaskSet([mask], scale=1.0, pad=0), glyph_config(), width)


def _has_stub(stubs: list[StubCorner], tip: tuple[int, int], top: tuple[int, int],
              first_is_short: bool) -> bool:
    """Whether a stub corner lies at `tip` with its top edge running along `top`."""
    for stub in stubs:
        corner = stub.corner
        along = corner.first if stub.first_is_short else corner.second
        if (np.abs(corner.tip - tip).max() <= 2 and along @ np.array(top) > 0.99
                and stub.first_is_short == first_is_short):
            return True
    return False


def test_a_card_raised_a_little_above_the_one_below_gives_its_corner() -> None:
    # The right card lies on the left one and rises 12 pixels above it: its side shows for
    # 12 pixels only, then its top runs on to the right.
    mask = np.zeros((400, 500), np.uint8)
    cv2.rectangle(mask, (40, 70), (140, 220), 255, -1)
    cv2.rectangle(mask, (90, 58), (190, 208), 255, -1)
    stubs = _stubs(mask)
    assert _has_stub(stubs, (90, 58), (1, 0), True)
    # The corner is square: its side runs straight down from the tip.
    corner = next(s.corner for s in stubs if np.abs(s.corner.tip - (90, 58)).max() <= 2)
    assert float(corner.second @ np.array([0.0, 1.0])) > 0.99


def test_a_mirrored_fan_gives_a_top_right_corner() -> None:
    mask = np.zeros((400, 500), np.uint8)
    cv2.rectangle(mask, (240, 70), (340, 220), 255, -1)
    cv2.rectangle(mask, (190, 58), (290, 208), 255, -1)
    assert _has_stub(_stubs(mask), (290, 58), (-1, 0), False)


@pytest.mark.parametrize("rise", [2, 70])
def test_rises_too_low_or_too_high_for_a_stub_give_none(rise: int) -> None:
    # 2 pixels is the mask's own noise (under `stub_min_rise`); 70 pixels is a side long
    # enough for an ordinary loose corner (over `fan_step_rise` of a card width of 100).
    mask = np.zeros((500, 500), np.uint8)
    cv2.rectangle(mask, (40, 100), (140, 250), 255, -1)
    cv2.rectangle(mask, (90, 100 - rise), (190, 250 - rise), 255, -1)
    assert not _has_stub(_stubs(mask), (90, 100 - rise), (1, 0), True)
    assert not _has_stub(_stubs(mask, width=50.0), (90, 100 - rise), (1, 0), True)


def test_a_lone_card_and_a_notch_in_one_card_give_none() -> None:
    lone = np.zeros((400, 500), np.uint8)
    cv2.rectangle(lone, (40, 40), (140, 190), 255, -1)
    assert _stubs(lone) == []
    # A short top edge beside the rise (under `corner_min_edge` card widths) is no card's top.
    notch = lone.copy()
    cv2.rectangle(notch, (40, 40), (60, 50), 0, -1)
    assert _stubs(notch) == []


def _borderless(rank: str, suit: str) -> np.ndarray:
    face = plain_card(rank, suit)
    face[:4], face[-4:], face[:, :4], face[:, -4:] = 250, 250, 250, 250
    return face


@pytest.mark.parametrize("rise", [12, 20])
def test_middle_card_of_a_rendered_fan_is_read_at_its_stub(rise: int) -> None:
    # White cards without printed borders, each raised `rise` pixels above the one before it,
    # their lower ends under a card lying across them: the middle card shows only its index
    # corner, its side for `rise` pixels above the left card. A lone card gives the width.
    # Fan steps are off, so that only the stub can read the middle card.
    scene = table_background(1280, 720, seed=1)
    for k, (rank, suit) in enumerate([("9", "H"), ("J", "D"), ("K", "S")]):
        paste_card(scene, _borderless(rank, suit), (330 + k * 110, 300 - k * rise), 330, 2)
    paste_card(scene, _borderless("Q", "C"), (440, 520), 330, 90)
    paste_card(scene, _borderless("A", "C"), (1000, 340), 330, 3)
    model = GlyphModel.load()
    with_stubs = [o.name for o in recognise(scene, model, glyph_config(fan_steps=False))]
    without = [o.name for o in recognise(scene, model,
                                         glyph_config(fan_steps=False, fan_stubs=False))]
    assert sorted(n for n in with_stubs if n) == ["9H", "AC", "JD", "KS", "QC"]
    assert sorted(n for n in without if n) == ["9H", "AC", "KS", "QC"]


def _photo(shared_dir: Path, name: str) -> tuple[np.ndarray, list[str]]:
    vision = shared_dir / "vision"
    labels = json.loads((vision / "labels.json").read_text())
    cards = labels["images"][name]["cards"]
    return read_image(vision / "dev" / name), [str(c.get("card") or c.get("rank")) for c in cards]


def test_the_middle_king_of_a_recorded_fan_is_read_at_its_stub(shared_dir: Path) -> None:
    # No card of this fan is read whole; the loose corners read surely give the card width.
    frame, _ = _photo(shared_dir, "edje_train/IMG_2657.jpg")
    model = GlyphModel.load()
    with_stubs = [o.name for o in recognise(frame, model, glyph_config())]
    without = [o.name for o in recognise(frame, model, NO_STUBS)]
    assert "KS" in with_stubs
    assert "KS" not in without
    assert sorted(n for n in with_stubs if n and n != "KS") == sorted(n for n in without if n)


@pytest.mark.parametrize("name", ["edje_train/IMG_2611.jpg", "edje_train/IMG_2669.jpg",
                                  "edje_train/IMG_2671.jpg"])
def test_recorded_fans_read_nothing_new_at_stubs(shared_dir: Path, name: str) -> None:
    frame, _ = _photo(shared_dir, name)
    model = GlyphModel.load()
    with_stubs = sorted(o.name for o in recognise(frame, model, glyph_config()) if o.name)
    without = sorted(o.name for o in recognise(frame, model, NO_STUBS) if o.name)
    assert with_stubs == without
