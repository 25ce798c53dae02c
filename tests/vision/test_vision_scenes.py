"""Whole pipeline on rendered scenes: plain drawn cards and svg-cards artwork."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.finder_switch import without_finders
from tests.vision.glyphs_only import glyph_config
from tools.scenes import paste_card, plain_card, table_background
from tools.synthetic import artwork_cards
from vision.config import VisionConfig
from vision.detect import card_masks
from vision.finder_corners import read_loose_corners
from vision.model import GlyphModel
from vision.pipeline import recognise
from vision.propose import find_cards
from vision.read import read_outline

PLAIN = [("4", "S"), ("10", "H"), ("Q", "C"), ("9", "D"), ("7", "H"), ("A", "S"), ("", None)]


@pytest.fixture(scope="module")
def model() -> GlyphModel:
    return GlyphModel.load()


def _nearest(corners: np.ndarray, truths: list[np.ndarray]) -> int:
    centre = corners.mean(axis=0)
    return int(np.argmin([np.linalg.norm(t.mean(axis=0) - centre) for t in truths]))


def test_plain_cards_are_found_and_read_including_non_euchre_ranks(model: GlyphModel) -> None:
    scene = table_background(1280, 720, seed=1)
    truths = []
    for i, (rank, suit) in enumerate(PLAIN):
        face = plain_card(rank, suit)
        truths.append(paste_card(scene, face, (110 + 175 * i, 360), 200, 8 * i - 24))
    observations = recognise(scene, model, glyph_config())
    assert len(observations) == len(PLAIN)
    names = {}
    for observation in observations:
        index = _nearest(observation.corners, truths)
        assert np.abs(observation.corners - truths[index]).max() < 12
        names[index] = observation.name
    assert names == {0: "4S", 1: "TH", 2: "QC", 3: "9D", 4: "7H", 5: "AS", 6: None}


def test_blank_card_is_present_but_unreadable(model: GlyphModel) -> None:
    scene = table_background(640, 480, seed=2)
    truth = paste_card(scene, plain_card("", None), (320, 240), 260, 12)
    quads = find_cards(scene)
    assert len(quads) == 1
    assert np.abs(quads[0] - truth).max() < 8
    assert read_outline(scene, quads[0], model, VisionConfig())[0] is None


def test_empty_table_has_no_cards(model: GlyphModel) -> None:
    assert recognise(table_background(1280, 720, seed=4), model, glyph_config()) == []


def test_artwork_scene_reads_without_wrong_identities(shared_dir: Path, model: GlyphModel) -> None:
    faces = dict(artwork_cards(shared_dir / "vision" / "artwork"))
    names = ["9D", "TS", "AC", "AH", "9C", "KS", "QD", "JH"]
    scene = table_background(1280, 720, seed=3)
    truths = [
        paste_card(scene, faces[n], (170 + 310 * (i % 4), 190 + 340 * (i // 4)), 250,
                   angle=-20 + 11 * i, tilt=0.05)
        for i, n in enumerate(names)
    ]
    observations = recognise(scene, model, glyph_config())
    assert len(observations) == len(names)
    read = {}
    for observation in observations:
        index = _nearest(observation.corners, truths)
        if observation.name is not None:
            assert observation.name == names[index]
            read[index] = observation.name
    # The artwork's court cards print the suit beside the rank, which the reader does not expect,
    # so only the number cards and aces must be read; one outline may come out too rough to read.
    assert len({"9D", "TS", "AC", "AH", "9C"} & set(read.values())) >= 4


def test_card_under_another_is_read_from_its_visible_corner(model: GlyphModel) -> None:
    scene = table_background(960, 540, seed=8)
    under = paste_card(scene, plain_card("9", "D"), (400, 250), 300, -8)
    paste_card(scene, plain_card("K", "S"), (520, 330), 300, 25)
    observations = recognise(scene, model, glyph_config())
    assert sorted((o.name, o.whole) for o in observations) == [("9D", False), ("KS", True)]
    corner = next(o for o in observations if not o.whole)
    assert np.linalg.norm(corner.corners.mean(axis=0) - under[0]) < 60


def test_corner_reading_can_be_switched_off(model: GlyphModel) -> None:
    scene = table_background(960, 540, seed=8)
    paste_card(scene, plain_card("9", "D"), (400, 250), 300, -8)
    paste_card(scene, plain_card("K", "S"), (520, 330), 300, 25)
    observations = recognise(scene, model, without_finders(glyph_config(), "corners"))
    assert [o.name for o in observations] == ["KS"]


def test_corner_reading_without_any_outlined_card(model: GlyphModel) -> None:
    scene = table_background(960, 540, seed=10)
    card = paste_card(scene, plain_card("Q", "H"), (420, 250), 320, -10)
    cover = np.array([[420, 330], [700, 250], [760, 470], [470, 530]], np.int32)
    cv2.fillPoly(scene, [cover], (60, 40, 30))
    config = glyph_config()
    found = read_loose_corners(scene, card_masks(scene, config), [], [], model, config)
    assert [o.name for o in found] == ["QH"]
    assert not found[0].whole
    assert np.linalg.norm(found[0].corners[0] - card[0]) < 25
