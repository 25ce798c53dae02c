"""Unread outlines read again at their corners: rendered cards outlined wrongly, recorded photos."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.glyphs_only import glyph_config
from tools.scenes import paste_card, plain_card, table_background
from tools.synthetic import artwork_cards
from vision.cards import CardObservation, Image, Quad, Rank, Reading, Suit
from vision.model import GlyphModel
from vision.pipeline import recognise
from vision.read import read_card
from vision.read_search import card_shaped, index_corners, read_unread_outlines


@pytest.fixture(scope="module")
def model() -> GlyphModel:
    return GlyphModel.load()


def _unread(quad: Quad) -> CardObservation:
    return CardObservation(np.asarray(quad, np.float32), None, 0.0)


def _scene(faces: dict[str, Image], name: str, beside: str = "AH") -> tuple[Image, Quad, Quad]:
    """A table with a card to the left (read whole) and the card `name` to the right."""
    scene = table_background(960, 540, seed=5)
    left = paste_card(scene, faces[beside], (250, 270), 250, angle=-8)
    right = paste_card(scene, faces[name], (600, 270), 250, angle=10)
    return scene, left, right


@pytest.fixture(scope="module")
def faces(shared_dir: Path) -> dict[str, Image]:
    return dict(artwork_cards(shared_dir / "vision" / "artwork"))


def test_corners_of_an_outline_are_taken_unmirrored_in_either_order() -> None:
    config = glyph_config()
    square = np.array([[0, 0], [100, 0], [100, 150], [0, 150]], np.float32)
    for quad in (square, square[::-1].copy()):
        corners = list(index_corners(quad, config))
        assert len(corners) == 4
        for corner in corners:
            turn = corner.across[0] * corner.down[1] - corner.across[1] * corner.down[0]
            assert turn == pytest.approx(1.0, abs=1e-5)
        at_origin = next(c for c in corners if not c.tip.any())
        assert np.allclose(at_origin.across, [1, 0]) and np.allclose(at_origin.down, [0, 1])
        assert (at_origin.across_length, at_origin.down_length) == (100.0, 150.0)


def test_a_corner_cut_off_square_is_taken_along_the_side_with_a_right_angle() -> None:
    # The card's left side is cut by a diagonal: the top side still ends in a right angle.
    wedge = np.array([[0, 0], [100, 0], [100, 150], [60, 150]], np.float32)
    at_origin = [c for c in index_corners(wedge, glyph_config()) if not c.tip.any()]
    assert len(at_origin) == 1
    assert np.allclose(at_origin[0].across, [1, 0]) and np.allclose(at_origin[0].down, [0, 1])


def test_a_whole_card_outline_is_not_searched_again() -> None:
    config = glyph_config()
    card = np.array([[0, 0], [100, 0], [100, 145], [0, 145]], np.float32)
    assert card_shaped(card, None, config)
    assert card_shaped(card, 100.0, config)
    assert not card_shaped(card, 130.0, config)
    assert not card_shaped(np.array([[0, 0], [100, 0], [100, 110], [0, 110]], np.float32),
                           None, config)


def _merged_with_table(card: np.ndarray) -> np.ndarray:
    """The card's outline run on over light table to its right (0.4 of its width)."""
    across = card[1] - card[0]
    return np.array([card[0], card[1] + 0.4 * across, card[2] + 0.4 * across, card[3]],
                    np.float32)


def test_outline_merged_with_table_beside_it_is_read_at_its_index(
        faces: dict[str, Image], model: GlyphModel) -> None:
    scene, _, card = _scene(faces, "9C")
    # Light table to the right merged into the outline: its views fall on the picture.
    merged = _merged_with_table(card)
    assert read_card(scene, merged, model) is None
    found = read_unread_outlines(scene, [_unread(merged)], model, glyph_config())
    assert [o.name for o in found] == ["9C"]
    assert np.linalg.norm(found[0].corners.mean(axis=0) - card.mean(axis=0)) < 0.05 * 250
    assert found[0].whole and found[0].confidence >= glyph_config().search_min_confidence


def test_outline_grown_over_its_index_corner_is_read_at_the_far_corner_at_the_read_width(
        faces: dict[str, Image], model: GlyphModel) -> None:
    scene, _, card = _scene(faces, "TS")
    across, down = card[1] - card[0], card[3] - card[0]
    grown = np.array([card[0] - 0.3 * across - 0.2 * down, card[1] - 0.2 * down, card[2],
                      card[3] - 0.3 * across], np.float32)
    assert read_card(scene, grown, model) is None
    config = glyph_config()
    read = [o for o in recognise(scene, model, replace(config, search_unread=False))
            if o.name == "AH"]
    assert len(read) == 1
    found = read_unread_outlines(scene, [*read, _unread(grown)], model, config)
    assert [o.name for o in found] == ["AH", "TS"]
    assert np.linalg.norm(found[1].corners.mean(axis=0) - card.mean(axis=0)) < 0.05 * 250


def test_outline_cut_across_the_card_is_read_along_its_whole_side(
        faces: dict[str, Image], model: GlyphModel) -> None:
    scene, _, card = _scene(faces, "TS")
    across, down = card[1] - card[0], card[3] - card[0]
    # A card built on one side and cut by a diagonal: no right angle at the index corner.
    wedge = np.array([card[0], card[1], card[2], card[3] + 0.6 * across - 0.3 * down],
                     np.float32)
    assert read_card(scene, wedge, model) is None
    config = glyph_config()
    read = [o for o in recognise(scene, model, replace(config, search_unread=False))
            if o.name == "AH"]
    found = read_unread_outlines(scene, [*read, _unread(wedge)], model, config)
    assert [o.name for o in found] == ["AH", "TS"]


def test_outline_spanning_a_read_card_reads_only_the_other_card(
        faces: dict[str, Image], model: GlyphModel) -> None:
    scene, left, card = _scene(faces, "9D")
    config = glyph_config()
    read = [o for o in recognise(scene, model, replace(config, search_unread=False))
            if o.name == "AH"]
    both = cv2.boxPoints(cv2.minAreaRect(np.vstack([left, card]))).astype(np.float32)
    found = read_unread_outlines(scene, [*read, _unread(both)], model, config)
    names = [o.name for o in found]
    assert names.count("AH") == 1
    # The outline over both cards stays, unread, beside whatever its corners read.
    assert None in names
    assert all(n in ("AH", "9D", None) for n in names)


def test_card_over_an_index_read_at_a_loose_corner_is_not_reported(
        faces: dict[str, Image], model: GlyphModel) -> None:
    scene, _, card = _scene(faces, "9C")
    merged = _merged_with_table(card)
    # An index read at a loose corner where the 9C would lie: one of the two readings is wrong.
    centre = card.mean(axis=0)
    box = centre + np.array([[-10, -15], [10, -15], [10, 15], [-10, 15]], np.float32)
    loose = CardObservation(box, Reading(Rank.KING, Suit.HEARTS, 0.8), 0.8, whole=False)
    found = read_unread_outlines(scene, [loose, _unread(merged)], model, glyph_config())
    assert [o.name for o in found] == ["KH", None]


def test_search_can_be_switched_off(faces: dict[str, Image], model: GlyphModel) -> None:
    scene, _, card = _scene(faces, "9C")
    merged = _merged_with_table(card)
    config = glyph_config(search_unread=False)
    assert [o.name for o in read_unread_outlines(scene, [_unread(merged)], model, config)] \
        == [None]


def test_blank_card_outline_stays_unread(model: GlyphModel) -> None:
    scene = table_background(640, 480, seed=2)
    truth = paste_card(scene, plain_card("", None), (320, 240), 260, 12)
    across = truth[1] - truth[0]
    merged = np.array([truth[0], truth[1] + 0.4 * across, truth[2] + 0.4 * across, truth[3]],
                      np.float32)
    found = read_unread_outlines(scene, [_unread(merged)], model, glyph_config())
    assert [o.name for o in found] == [None]
