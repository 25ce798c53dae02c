"""Close-up cards the glyph reader leaves unread, named by the learned reader shrunk to its size."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tools.scenes import paste_card, table_background
from tools.synthetic import artwork_cards
from vision.cards import CardObservation, Image, Quad, Rank, Reading, Suit
from vision.config import VisionConfig
from vision.deblur_outline import long_side
from vision.deck_limit import within_deck
from vision.learned import LearnedReader, rectify, shipped_reader
from vision.learned_large import named_large, shrunk

ARTWORK = Path(__file__).resolve().parents[2] / "vision" / "data" / "artwork"
CARDS = ("TS", "9D", "AC", "AH")


@pytest.fixture(scope="module")
def reader() -> LearnedReader:
    return shipped_reader()


@pytest.fixture(scope="module", params=[320.0, 480.0], ids=["320px", "480px"])
def close_up(request: pytest.FixtureRequest) -> tuple[Image, list[Quad], float]:
    """Four artwork cards of a close-up's size and a blank card, on a table."""
    size = float(request.param)
    faces = dict(artwork_cards(ARTWORK))
    frame = table_background(int(size * 4.2), int(size * 2.6), seed=int(size))
    quads = [paste_card(frame, faces[name], (size * (0.6 + 0.75 * i), size * 0.65), size * 0.9,
                        angle=-12 + 9 * i, tilt=0.03) for i, name in enumerate(CARDS)]
    blank = np.full((338, 242, 3), 245, np.uint8)
    quads.append(paste_card(frame, blank, (size * 2.0, size * 1.85), size * 0.9, angle=85.0))
    return frame, quads, size


def _unread(quads: list[Quad]) -> list[CardObservation]:
    return [CardObservation(q.astype(np.float32), None, 0.0, whole=True) for q in quads]


@pytest.mark.parametrize("length", [140.0, 95.0])
def test_shrunk_keeps_the_quad_on_the_same_card_at_the_asked_length(
        close_up: tuple[Image, list[Quad], float], length: float) -> None:
    frame, quads, _ = close_up
    for quad in quads:
        small, moved = shrunk(frame, quad, length)
        assert long_side(moved) == pytest.approx(length, rel=0.03)
        assert small.shape[0] < frame.shape[0] and small.shape[1] < frame.shape[1]
        assert moved.min() >= 0 and moved[:, 0].max() <= small.shape[1]
        assert moved[:, 1].max() <= small.shape[0]
        # The card seen through the moved quad is the card seen in the frame (softened: warped
        # straight from the close-up, the frame's view is aliased).
        for want, got in zip(rectify(frame, quad), rectify(small, moved), strict=True):
            soft_want, soft_got = (cv2.GaussianBlur(v.astype(np.float32), (0, 0), 2.0)
                                   for v in (want, got))
            assert np.abs(soft_want - soft_got).mean() < 10


def test_a_small_card_is_not_grown(close_up: tuple[Image, list[Quad], float]) -> None:
    frame, quads, _ = close_up
    _, moved = shrunk(frame, quads[0], 5000.0)
    x0, y0 = np.floor(quads[0].min(axis=0)) - 2
    assert np.allclose(moved, quads[0] - np.array([max(x0, 0), max(y0, 0)]), atol=1.0)


def test_unread_close_ups_are_named_rightly_and_the_blank_is_not(
        reader: LearnedReader, close_up: tuple[Image, list[Quad], float]) -> None:
    frame, quads, _ = close_up
    out = named_large(frame, _unread(quads), reader, VisionConfig())
    names = [o.name for o in out]
    assert names[-1] is None
    named = [n for n in names[:-1] if n is not None]
    assert len(named) >= 3
    assert all(n == want for n, want in zip(names, CARDS, strict=False) if n is not None)
    assert all(o.confidence >= reader.rule.threshold for o in out if o.name is not None)


def test_nothing_is_named_when_off_or_when_cards_are_of_the_readers_size(
        reader: LearnedReader, close_up: tuple[Image, list[Quad], float]) -> None:
    frame, quads, size = close_up
    config = replace(VisionConfig(), learned_max_length=size * 2)
    assert [o.name for o in named_large(frame, _unread(quads), reader, config)] == [None] * 5


def test_the_deck_constraint_keeps_the_surer_of_a_name_given_twice(
        reader: LearnedReader, close_up: tuple[Image, list[Quad], float]) -> None:
    frame, quads, _ = close_up
    observations = _unread(quads)
    # The first card read (wrongly, and less surely) by the glyph reader as the nine of
    # diamonds: the network names the real nine too, and the deck constraint keeps the surer.
    observations[0] = replace(observations[0], reading=Reading(Rank.NINE, Suit.DIAMONDS, 0.6),
                              confidence=0.6)
    out = named_large(frame, observations, reader, VisionConfig())
    assert out[0].name == "9D" and out[1].name == "9D"
    assert [o.name for o in within_deck(out)][:2] == [None, "9D"]
    # A card not of a card's shape (a square box) is never named.
    square = np.array([[10, 10], [300, 10], [300, 300], [10, 300]], np.float32)
    assert named_large(frame, _unread([square]), reader, VisionConfig())[0].name is None


def test_with_the_index_reader_close_ups_are_named_where_both_readers_agree(
        reader: LearnedReader, close_up: tuple[Image, list[Quad], float]) -> None:
    from vision.learned_index import shipped_index_reader

    frame, quads, _ = close_up
    # The card reader alone names nothing here (its level above 1); both readers alike do.
    alone_never = replace(reader, rule=replace(reader.rule, threshold=2.0))
    config = VisionConfig()
    assert all(o.name is None for o in named_large(frame, _unread(quads), alone_never, config))
    out = named_large(frame, _unread(quads), alone_never, config, shipped_index_reader())
    names = [o.name for o in out]
    assert names[-1] is None
    assert sum(n is not None for n in names) >= 3
    assert all(n == want for n, want in zip(names, CARDS, strict=False) if n is not None)
