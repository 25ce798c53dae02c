"""Court cards outlined as their picture and the card's top edge: read beside the corners."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.vision.glyphs_only import glyph_config
from tools.scenes import paste_card, plain_card, table_background
from tools.synthetic import artwork_cards
from vision.cards import CardObservation, Image, Quad
from vision.model import GlyphModel
from vision.read import read_card
from vision.read_search import read_aside, read_unread_outlines


@pytest.fixture(scope="module")
def model() -> GlyphModel:
    return GlyphModel.load()


@pytest.fixture(scope="module")
def faces(shared_dir: Path) -> dict[str, Image]:
    return dict(artwork_cards(shared_dir / "vision" / "artwork"))


def _picture_and_top(card: Quad, left: float = 0.15, right: float = 0.88,
                     low: float = 0.86) -> Quad:
    """The outline of a court card's picture run up to the card's top edge (proportions as
    of a common court's frame: its sides 0.15 and 0.12 of the card's width in)."""
    across, down = card[1] - card[0], card[3] - card[0]
    return np.array([card[0] + left * across, card[0] + right * across,
                     card[0] + right * across + low * down, card[0] + left * across + low * down],
                    np.float32)


def _unread(quad: Quad) -> CardObservation:
    return CardObservation(np.asarray(quad, np.float32), None, 0.0)


@pytest.mark.parametrize("name", ["QS", "KH", "QH", "JD"])
def test_picture_outlined_with_the_top_edge_is_read_beside_its_corner(
        faces: dict[str, Image], model: GlyphModel, name: str) -> None:
    scene = table_background(800, 600, seed=3)
    card = paste_card(scene, faces[name], (400, 300), 260, angle=7)
    outline = _picture_and_top(card)
    assert read_card(scene, outline, model) is None
    found = read_unread_outlines(scene, [_unread(outline)], model, glyph_config())
    assert [o.name for o in found] == [name]
    # The card implied at the index is about the card itself.
    assert np.linalg.norm(found[0].corners.mean(axis=0) - card.mean(axis=0)) < 0.15 * 260
    assert found[0].confidence >= glyph_config().search_aside_single


def test_aside_search_can_be_switched_off(faces: dict[str, Image], model: GlyphModel) -> None:
    scene = table_background(800, 600, seed=3)
    outline = _picture_and_top(paste_card(scene, faces["QS"], (400, 300), 260, angle=7))
    config = glyph_config(search_aside=False)
    assert [o.name for o in read_unread_outlines(scene, [_unread(outline)], model, config)] \
        == [None]


def test_blank_card_part_reads_nothing_beside_its_corners(model: GlyphModel) -> None:
    scene = table_background(800, 600, seed=4)
    card = paste_card(scene, plain_card("", None), (400, 300), 260, angle=-5)
    assert read_aside(scene, _picture_and_top(card), model, glyph_config()) is None
