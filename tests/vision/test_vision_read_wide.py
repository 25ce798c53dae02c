"""Cards of decks with large indices, read again in wider index views."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.vision.glyphs_only import glyph_config
from tools.scenes import paste_card, plain_card, table_background
from vision.cards import CardObservation, Image, Quad, Rank, Reading, Suit
from vision.config import VisionConfig
from vision.deblur_outline import grown_outline, short_side
from vision.model import GlyphModel
from vision.pipeline import recognise
from vision.read_wide import read_wide_indices

NAMES = ("9C", "TD", "JS", "QH", "KC", "AD")
WIDE = glyph_config()
"""The shipped settings: the wider views on."""
USUAL = glyph_config(wide_index_windows=(), outline_fit=None)
"""Without the wider views (nor the fitted outlines, another way to the index)."""


def large_index_card(name: str, grow: float = 1.3, edge: int | None = None) -> Image:
    """A plain drawn card whose two indices are `grow` times the usual size (`edge`: the index's
    ink that many pixels from the card's edge, of 338, with no border line drawn)."""
    rank = "10" if name[0] == "T" else name[0]
    card = plain_card(rank, name[1])
    height, width = card.shape[:2]
    index = cv2.resize(card[8:158, 6:76], None, fx=grow, fy=grow, interpolation=cv2.INTER_CUBIC)
    top, left = 6, 4
    if edge is not None:
        ys, xs = np.nonzero(index.min(axis=2) < 200)
        index = index[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
        top = left = edge
    tall, wide = index.shape[:2]
    out = np.full_like(card, 250)
    out[top:top + tall, left:left + wide] = index
    out[height - top - tall:height - top, width - left - wide:width - left] = cv2.rotate(
        index, cv2.ROTATE_180)
    if edge is None:
        cv2.rectangle(out, (0, 0), (width - 1, height - 1), (150, 150, 150), 3)
    return out


def _row_of_cards(long_side: float, seed: int) -> tuple[Image, list[Quad]]:
    frame = table_background(1280, 720, seed=seed)
    quads = [paste_card(frame, large_index_card(name), (200 + 170 * i, 360), long_side,
                        angle=-15 + 7 * i + 3 * seed)
             for i, name in enumerate(NAMES)]
    return frame, quads


@pytest.fixture(scope="module")
def model() -> GlyphModel:
    return GlyphModel.load()


@pytest.mark.parametrize("long_side", [140, 95])
@pytest.mark.parametrize("seed", [0, 1])
def test_large_indices_are_read_only_in_the_wider_views(
        model: GlyphModel, long_side: int, seed: int) -> None:
    frame, _ = _row_of_cards(long_side, seed)
    usual = [o.name for o in recognise(frame, model, USUAL) if o.name]
    wide = [o.name for o in recognise(frame, model, WIDE) if o.name]
    # The usual view cuts the index, so it names none of them (and nothing wrong).
    assert set(usual) <= set(NAMES) and len(usual) <= 1
    assert sorted(wide) == sorted(NAMES)


@pytest.mark.parametrize("seed", [0, 1])
def test_an_outline_taking_in_table_is_read_moved_inward(model: GlyphModel, seed: int) -> None:
    # Indices 4 px (of 338) from the card's edge, 95 px cards outlined 4 % of their width
    # outside: the table's ink joins each rank in the views of the outline as found.
    frame = table_background(1280, 720, seed=seed)
    quads = [paste_card(frame, large_index_card(name, edge=4), (200 + 170 * i, 360), 95,
                        angle=-15 + 7 * i + 3 * seed)
             for i, name in enumerate(NAMES)]
    outside = [_unread(grown_outline(q, 0.04 * short_side(q))) for q in quads]
    as_found = replace(WIDE, wide_index_insets=(0.0,))
    found = [o.name for o in read_wide_indices(frame, outside, model, as_found)]
    inward = [o.name for o in read_wide_indices(frame, outside, model, WIDE)]
    # No name but the card's own; moved inward, at least two more of the six are read.
    for names in (found, inward):
        assert all(name in (None, card) for name, card in zip(names, NAMES, strict=True))
    assert len(NAMES) - inward.count(None) >= len(NAMES) - found.count(None) + 2


def _unread(quad: Quad) -> CardObservation:
    return CardObservation(quad, None, 0.0)


def test_an_outline_holding_a_loose_corner_is_not_read_again(model: GlyphModel) -> None:
    frame, quads = _row_of_cards(140, 0)
    # An index read loose inside the first card's outline (as where a card lies over it).
    centre = quads[0][0] + 0.2 * (quads[0][2] - quads[0][0])
    index_box = centre + np.array([[-7, -15], [7, -15], [7, 15], [-7, 15]], np.float32)
    loose = CardObservation(index_box, Reading(Rank.NINE, Suit.CLUBS, 0.9), 0.9, whole=False)
    found = read_wide_indices(frame, [_unread(quads[0]), _unread(quads[1]), loose], model, WIDE)
    assert found[0].reading is None
    assert found[1].name == NAMES[1]


def test_an_outline_not_of_a_card_shape_or_cut_by_the_frame_is_not_read(
        model: GlyphModel) -> None:
    frame, quads = _row_of_cards(140, 0)
    # Two neighbours' outline as one (too wide for a card), and a card's outline stretched
    # to the frame's top edge.
    pair = np.array([quads[0][0], quads[1][1], quads[1][2], quads[0][3]], np.float32)
    cut = quads[2].copy()
    cut[:2, 1] = 0.0
    found = read_wide_indices(frame, [_unread(pair), _unread(cut), _unread(quads[3])], model,
                              WIDE)
    assert [o.name for o in found] == [None, None, NAMES[3]]


def test_no_wider_look_without_windows(model: GlyphModel) -> None:
    frame, quads = _row_of_cards(140, 0)
    assert [o.name for o in read_wide_indices(frame, [_unread(q) for q in quads], model, USUAL)] \
        == [None] * len(quads)


@pytest.mark.parametrize("name", NAMES)
def test_the_whole_pipeline_names_no_large_index_card_wrongly(model: GlyphModel, name: str) -> None:
    frame = table_background(640, 480, seed=4)
    paste_card(frame, large_index_card(name), (320, 240), 140, angle=12)
    named = [o.name for o in recognise(frame, model, VisionConfig()) if o.name]
    assert named in ([], [name])


def test_an_outline_far_wider_than_the_cards_read_is_not_read(model: GlyphModel) -> None:
    frame = table_background(1280, 720, seed=2)
    small = paste_card(frame, large_index_card("QH"), (200, 360), 95, angle=5)
    big = paste_card(frame, large_index_card("KC"), (700, 360), 300, angle=-8)
    read = CardObservation(small, Reading(Rank.QUEEN, Suit.HEARTS, 0.9), 0.9)
    alone = read_wide_indices(frame, [_unread(big)], model, WIDE)
    beside = read_wide_indices(frame, [read, _unread(big)], model, WIDE)
    assert alone[0].name == "KC"
    assert beside[1].reading is None
