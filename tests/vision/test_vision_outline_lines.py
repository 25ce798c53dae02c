"""A card on a card: cards made of the straight lines inside an unread outline spanning both."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tools.drawn_deck import camera_look
from tools.scenes import paste_card, table_background
from tools.synthetic import artwork_cards
from vision.cards import CardObservation, Image, Quad, Rank, Reading, Suit
from vision.config import VisionConfig
from vision.learned import shipped_reader
from vision.learned_first import LearnedViews
from vision.model import GlyphModel
from vision.outline_lines import cards_within
from vision.unread_outlines import fitted_unread

ARTWORK = Path(__file__).resolve().parents[2] / "vision" / "data" / "artwork"
PAIRS = (("TS", "QH"), ("9C", "AD"), ("KD", "JS"), ("AH", "TC"), ("QC", "9H"), ("JD", "KS"))
"""(under, over): the card beneath and the card laid on it."""


def _card_on_card(under: str, over: str, length: float,
                  seed: int) -> tuple[Image, Quad, Quad, Quad]:
    """A card laid over a corner of another on a green table, as a webcam sees it; the frame,
    the top card's outline, one outline spanning both (as a light region of both gives) and
    the outline of the card beneath."""
    rng = np.random.default_rng(seed)
    faces = dict(artwork_cards(ARTWORK))
    frame = table_background(int(4 * length), int(3 * length), seed=seed)
    centre = np.array([2.0 * length, 1.5 * length])
    turn = float(rng.uniform(-30, 30))
    paste_card(frame, faces[under], (float(centre[0]), float(centre[1])), length, turn)
    theta = np.deg2rad(turn)
    along = np.array([-np.sin(theta), np.cos(theta)]) * float(rng.choice([-1.0, 1.0]))
    across = np.array([np.cos(theta), np.sin(theta)]) * float(rng.choice([-1.0, 1.0]))
    step = 0.4 * length * along + 0.3 * length * across
    top = paste_card(frame, faces[over], (float(centre[0] + step[0]), float(centre[1] + step[1])),
                     length, turn + float(rng.uniform(-12, 12)))
    under_quad = paste_card(np.zeros_like(frame), faces[under],
                            (float(centre[0]), float(centre[1])), length, turn)
    both = np.vstack([top, under_quad]).astype(np.float32)
    spanning = cv2.boxPoints(cv2.minAreaRect(both)).astype(np.float32)
    return camera_look(frame, rng), top, spanning, under_quad


def _inside(quad: Quad, outline: Quad) -> float:
    """Share of the quad's area inside the outline."""
    first, second = (np.asarray(q, np.float32).reshape(-1, 1, 2) for q in (quad, outline))
    common, _ = cv2.intersectConvexConvex(first, second)
    return float(common) / cv2.contourArea(first)


def _corner_error(found: Quad, truth: Quad) -> float:
    """The largest distance of a found corner from the nearest true corner."""
    apart = np.linalg.norm(np.asarray(found)[:, None, :] - np.asarray(truth)[None, :, :], axis=2)
    return float(apart.min(axis=1).max())


@pytest.mark.parametrize("length", [140.0, 95.0])
def test_the_top_card_is_found_in_an_outline_spanning_two(length: float) -> None:
    config = VisionConfig()
    found = 0
    for k, (under, over) in enumerate(PAIRS):
        frame, top, spanning, beneath = _card_on_card(under, over, length, seed=40 + k)
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        quads = cards_within(gray, spanning, config, None, limit=3, min_inside=0.8)
        # Whatever is found lies on one card, never across both (the card beneath is crossed by
        # the top card's side; its uncovered part may be a card's shape).
        for quad in quads:
            assert max(_inside(quad, top), _inside(quad, beneath)) > 0.9, (under, over)
        found += any(_corner_error(quad, top) < 0.08 * length for quad in quads)
    assert found > len(PAIRS) // 2


def test_no_card_is_made_where_no_card_lies() -> None:
    config = VisionConfig()
    frame, _, spanning, _ = _card_on_card("TS", "QH", 140.0, seed=40)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    bare = spanning + np.array([0.0, 2.0 * 140.0], np.float32)  # the table below the cards
    bare[:, 1] = np.clip(bare[:, 1], 0, gray.shape[0] - 1)
    assert cards_within(gray, bare, config, None, limit=3, min_inside=0.8) == []
    # Cards of the width read elsewhere only: none of twice that width is taken.
    assert cards_within(gray, spanning, config, 200.0, limit=3, min_inside=0.8) == []


@pytest.fixture(scope="module")
def model() -> GlyphModel:
    return GlyphModel.load()


@pytest.mark.parametrize("length", [140.0, 95.0])
def test_the_top_card_is_named_and_the_outline_stays_unread(model: GlyphModel,
                                                             length: float) -> None:
    """Every pair at both scales: the top card named by the lines in the spanning outline or not
    at all, never another name; the outline itself stays, unread (it holds the card beneath);
    with the lines off, fewer are named."""
    config = VisionConfig()
    assert config.outline_fit is not None
    off = replace(config, outline_fit=replace(config.outline_fit, lines_within=0))
    named = named_without = 0
    for k, (under, over) in enumerate(PAIRS):
        frame, top, spanning, _ = _card_on_card(under, over, length, seed=40 + k)
        views = LearnedViews(frame, shipped_reader())
        unread = [CardObservation(spanning, None, 0.0, whole=True)]
        out = fitted_unread(frame, unread, model, config, views)
        names = [o.name for o in out if o.name]
        assert names in ([], [over]), (under, over, names)
        assert out[0].reading is None and np.array_equal(out[0].corners, spanning)
        if names:
            assert _corner_error(out[1].corners, top) < 0.08 * length
        named += bool(names)
        without = [o.name for o in fitted_unread(frame, unread, model, off, views) if o.name]
        assert without in ([], [over])
        named_without += bool(without)
    assert named >= len(PAIRS) // 2
    assert named > named_without


def test_only_outlines_larger_than_the_cards_read_are_looked_in(
        model: GlyphModel, monkeypatch: pytest.MonkeyPatch) -> None:
    """An unread outline of one card's size beside a card read holds one card at most: no line
    search there; one spanning two cards is searched; with nothing read, every one is."""
    import vision.unread_outlines as unread_outlines

    looked: list[float] = []

    def counted(gray: Image, outline: Quad, *rest: object) -> list[Quad]:
        looked.append(float(cv2.contourArea(np.asarray(outline, np.float32))))
        return cards_within(gray, outline, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(unread_outlines, "cards_within", counted)
    frame, top, spanning, beneath = _card_on_card("TS", "QH", 140.0, seed=40)
    views = LearnedViews(frame, shipped_reader())
    config = VisionConfig()
    named = CardObservation(top, Reading(Rank.QUEEN, Suit.HEARTS, 0.9), 0.9)
    for outline, searched in ((beneath, False), (spanning, True)):
        looked.clear()
        fitted_unread(frame, [CardObservation(outline, None, 0.0)], model, config, views,
                      [named])
        assert bool(looked) is searched
        looked.clear()
        fitted_unread(frame, [CardObservation(outline, None, 0.0)], model, config, views)
        assert looked
