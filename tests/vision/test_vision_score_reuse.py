"""Each network sees each quad of a frame once: the decision weighs the scores the reading
stages computed, and a frame's cache serves only that frame."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from tools.scenes import paste_card, table_background
from tools.synthetic import artwork_cards
from vision.cards import Image, Quad
from vision.learned import LearnedReader, shipped_reader
from vision.learned_first import LearnedViews, sharing
from vision.learned_index import IndexReader
from vision.model import GlyphModel
from vision.pipeline import recognise

ARTWORK = Path(__file__).resolve().parents[2] / "vision" / "data" / "artwork"
CARDS = ("JH", "TS", "9D", "AC", "KS", "QD")


def _table(long_side: float, seed: int, overlap: bool) -> Image:
    """Artwork cards on a table in two rows, the last laid partly over its neighbour when
    `overlap` (its corner read loose)."""
    faces = dict(artwork_cards(ARTWORK))
    frame = table_background(int(long_side * 5.5), int(long_side * 4.0), seed=seed)
    for i, name in enumerate(CARDS):
        centre = (long_side * (0.9 + 1.5 * (i % 3)), long_side * (0.9 + 1.7 * (i // 3)))
        if overlap and i == len(CARDS) - 1:
            centre = (centre[0] - 0.8 * long_side, centre[1] + 0.2 * long_side)
        paste_card(frame, faces[name], centre, long_side, angle=-20 + 13 * i + 5 * seed,
                   tilt=0.03)
    return frame


def _counted(monkeypatch: pytest.MonkeyPatch) -> tuple[Counter[bytes], Counter[bytes]]:
    """Every quad shown to the card network and to the index network, by its corners."""
    card: Counter[bytes] = Counter()
    index: Counter[bytes] = Counter()
    card_scores, index_scores = LearnedReader.scores, IndexReader.scores

    def counted_card(self: LearnedReader, frame: Image, quads: list[Quad]) -> object:
        card.update(np.ascontiguousarray(q, np.float32).tobytes() for q in quads)
        return card_scores(self, frame, quads)

    def counted_index(self: IndexReader, frame: Image, quads: list[Quad]) -> object:
        index.update(np.ascontiguousarray(q, np.float32).tobytes() for q in quads)
        return index_scores(self, frame, quads)

    monkeypatch.setattr(LearnedReader, "scores", counted_card)
    monkeypatch.setattr(IndexReader, "scores", counted_index)
    return card, index


@pytest.mark.parametrize(("long_side", "overlap"), [(95.0, False), (140.0, True)])
def test_no_quad_is_shown_to_a_network_twice_in_one_frame(
        monkeypatch: pytest.MonkeyPatch, long_side: float, overlap: bool) -> None:
    frame = _table(long_side, 1, overlap)
    card, index = _counted(monkeypatch)
    found = recognise(frame, GlyphModel.load())
    assert sum(o.name is not None for o in found) >= len(CARDS) - 1
    assert card and index
    assert max(card.values()) == 1, "a quad was shown to the card network twice"
    assert max(index.values()) == 1, "a quad was shown to the index network twice"


def test_a_frames_cache_does_not_serve_another_frame() -> None:
    frame, other = _table(95.0, 1, False), _table(95.0, 2, False)
    reader = shipped_reader()
    cache = LearnedViews(frame, reader)
    assert sharing(frame, reader, cache).scored is cache.scored
    assert sharing(other, reader, cache).scored is not cache.scored
    assert sharing(frame, reader, None).scored == {}
