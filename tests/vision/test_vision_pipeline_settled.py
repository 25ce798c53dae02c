"""Recognition with settled cards handed in: those found where they lay are not read again;
stage times are summed per stage."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from tools.scenes import paste_card, table_background
from tools.synthetic import artwork_cards
from vision.cards import CardObservation, Rank, Reading, Suit, inside
from vision.model import GlyphModel
from vision.pipeline import StageClock, recognise, same_outline

ARTWORK = Path(__file__).resolve().parents[2] / "vision" / "data" / "artwork"


@pytest.fixture(scope="module")
def model() -> GlyphModel:
    return GlyphModel.load()


def _row(names: list[str], length: float, seed: int) -> np.ndarray:
    faces = dict(artwork_cards(ARTWORK))
    frame = table_background(int(length * 0.9 * len(names)) + 80, int(length * 1.6), seed=seed)
    for k, name in enumerate(names):
        paste_card(frame, faces[name], (50 + length * 0.45 + k * length * 0.9, length * 0.8),
                   length, angle=-8 + 5 * k)
    return frame


@pytest.mark.parametrize(("names", "length"), [(["KS", "AH", "TH"], 150),
                                               (["QD", "9C"], 180), (["AH", "KS"], 130)])
def test_a_settled_card_is_returned_as_it_is_and_the_others_read(
        model: GlyphModel, names: list[str], length: float) -> None:
    frame = _row(names, length, seed=len(names))
    first = recognise(frame, model)
    whole = [o for o in first if o.whole]
    assert whole
    # Marked with a reading no card gives here, so a second reading would show.
    marked = replace(whole[0], reading=Reading(Rank.JOKER, None, 0.99), confidence=0.99)
    clock = StageClock()
    again = recognise(frame, model, stages=clock, settled=[marked])
    assert sum(o is marked for o in again) == 1
    rest = sorted(str(o.name) for o in again if o is not marked)
    assert rest == sorted(str(o.name) for o in first if o is not whole[0])
    assert all(clock.calls[stage] == 1 for stage in ("masks", "outlines", "known deck"))


@pytest.mark.parametrize(("names", "length"), [(["KS", "AH", "TH"], 150),
                                               (["QD", "9C", "AS"], 180),
                                               (["AH", "KS", "9D"], 130)])
def test_a_settled_card_the_frames_edge_cuts_is_kept_and_nothing_read_on_it(
        model: GlyphModel, names: list[str], length: float) -> None:
    frame = _row(names, length, seed=len(names))
    first = sorted((o for o in recognise(frame, model) if o.whole and o.name),
                   key=lambda o: float(o.corners[:, 0].mean()))
    assert [o.name for o in first] == names
    # The frame cut through the first card: most of it lies in the part.
    xs = first[0].corners[:, 0]
    left = int(xs.min() + 0.2 * (xs.max() - xs.min()))
    part = np.ascontiguousarray(frame[:, left:])
    shift = np.array([left, 0], np.float32)
    cut = replace(first[0], corners=first[0].corners - shift)
    again = recognise(part, model, settled=[cut])
    assert sum(o is cut for o in again) == 1
    assert not any(inside(o.corners.mean(axis=0), cut.corners) for o in again if o is not cut)
    assert sorted(str(o.name) for o in again if o is not cut and o.whole) == sorted(names[1:])
    # Handed nothing, the part shows the first card's piece as a card of its own.
    assert any(inside(o.corners.mean(axis=0), cut.corners) for o in recognise(part, model))


def test_a_settled_card_found_nowhere_is_not_returned(model: GlyphModel) -> None:
    frame = _row(["KS", "AH"], 150, seed=2)
    far = CardObservation(np.array([[5, 5], [25, 5], [25, 35], [5, 35]], np.float32),
                          Reading(Rank.ACE, Suit.SPADES, 0.9), 0.9)
    assert all(o is not far for o in recognise(frame, model, settled=[far]))


@pytest.mark.parametrize("turn", [0, 1, 2, 3])
def test_same_outline_allows_a_few_pixels_in_any_corner_order(turn: int) -> None:
    quad = np.array([[100, 100], [200, 110], [190, 260], [90, 250]], np.float32)
    assert same_outline(quad, np.roll(quad + 2.0, turn, axis=0))
    assert not same_outline(quad, np.roll(quad + 20.0, turn, axis=0))


def test_same_outline_is_not_a_card_turned_about_its_centre() -> None:
    # The same centre, the corners a quarter turn round: another card's lie.
    quad = np.array([[100, 100], [160, 100], [160, 190], [100, 190]], np.float32)
    centre = quad.mean(axis=0)
    turned = (quad - centre) @ np.array([[0, -1], [1, 0]], np.float32) + centre
    assert not same_outline(quad, turned)
    assert same_outline(quad, np.roll(quad, 2, axis=0) + np.float32(1.0))
