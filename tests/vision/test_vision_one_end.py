"""Cards named from one end: a vetoed glyph reading the index reader backs at one end, and
the second look such a name asks for."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tools.drawn_deck import covered_trick
from tools.scenes import paste_card, table_background
from tools.synthetic import artwork_cards
from vision.card_size import card_shaped
from vision.cards import CardObservation, Image, Quad, Reading, parse_card
from vision.config import VisionConfig
from vision.deck_limit import within_deck
from vision.doubt import doubt_region, in_doubt
from vision.learned import CardScores, shipped_reader
from vision.learned_index import kept_by_one_end, shipped_index_reader
from vision.model import GlyphModel
from vision.pipeline import recognise

Trick = tuple[Image, Quad, str, str]


def _tricks(shared_dir: Path, long_side: float, count: int = 12) -> list[Trick]:
    """Rendered tricks: a card with another over its lower part, as a webcam sees them."""
    faces = dict(artwork_cards(shared_dir / "vision" / "artwork"))
    names = sorted(n for n in faces if n[1] in "CDHS")
    out = []
    for seed in range(200, 200 + count):
        under, over = (str(n) for n in np.random.default_rng(seed).choice(names, 2, False))
        frame, under_quad, _ = covered_trick(faces, under, over, long_side, seed)
        out.append((frame, under_quad.astype(np.float32), under, over))
    return out


def _glyph(quad: Quad, name: str, confidence: float = 0.9) -> CardObservation:
    """A whole outline carrying a glyph reading of `name`."""
    reading = Reading(*parse_card(name), confidence)
    return CardObservation(quad, reading, confidence, whole=True)


LEVEL = 0.6
"""The shipped level of the index reader at one end."""


def _kept(frame: Image, before: list[CardObservation],
          level: float = LEVEL,
          elsewhere: tuple[CardObservation, ...] = ()) -> list[CardObservation]:
    """`kept_by_one_end` with every reading of `before` vetoed, `elsewhere` named as it is."""
    config = VisionConfig()
    index = shipped_index_reader()
    card = dict(enumerate(shipped_reader().scores(frame, [o.corners for o in before])))
    vetoed = [replace(o, reading=None, confidence=0.0) for o in before]
    return kept_by_one_end([*before, *elsewhere], [*vetoed, *elsewhere], card,
                           lambda quads: index.scores(frame, quads), level,
                           lambda quad: card_shaped(quad, None, config))


@pytest.mark.parametrize("long_side", [140, 95])
def test_a_covered_cards_glyph_name_is_kept_from_its_uncovered_end(
        shared_dir: Path, long_side: int) -> None:
    """The index reader backs the covered card's own name at its top end; never another name."""
    kept = 0
    for frame, quad, under, over in _tricks(shared_dir, long_side):
        out = _kept(frame, [_glyph(quad, under)])
        assert out[0].name in (None, under)
        if out[0].name is not None:
            kept += 1
            assert out[0].one_end and 0.6 <= out[0].confidence <= 1.0
        # Another card's name, the card over it included, is never put back.
        for other in (over, "9S" if under != "9S" else "9C"):
            assert _kept(frame, [_glyph(quad, other)])[0].name is None
    assert kept >= 9


def test_weak_backing_odd_shapes_and_names_given_are_not_kept(shared_dir: Path) -> None:
    tricks = _tricks(shared_dir, 140)
    frame, quad, under, over = next(t for t in tricks if _kept(t[0], [_glyph(t[1], t[2])])[0].name)
    # An index reader's backing under the level at both ends.
    assert _kept(frame, [_glyph(quad, under)], 1.01)[0].name is None
    # A square outline is no card's shape.
    centre = quad.mean(axis=0)
    square = (centre + (quad - centre) * np.array([1.0, 0.7], np.float32)).astype(np.float32)
    assert not card_shaped(square, None, VisionConfig())
    assert _kept(frame, [_glyph(square, under)])[0].name is None
    # The name given elsewhere in the frame, more surely, is given there alone.
    elsewhere = _glyph(np.zeros((4, 2), np.float32), under, 0.99)
    kept = within_deck(_kept(frame, [_glyph(quad, under)], elsewhere=(elsewhere,)))
    assert [o.name for o in kept] == [None, under]
    # A reading the check let stand is left as it is.
    before = [_glyph(quad, over)]
    assert kept_by_one_end(before, before, {}, _scores_never_asked, LEVEL,
                           lambda q: True) == before


def _scores_never_asked(quads: list[Quad]) -> list[CardScores]:
    raise AssertionError("the index reader was asked")


def test_nothing_is_asked_where_nothing_was_vetoed() -> None:
    quad = np.array([[0, 0], [60, 0], [60, 90], [0, 90]], np.float32)
    unread = CardObservation(quad, None, 0.0)
    assert kept_by_one_end([unread], [unread], {}, _scores_never_asked, LEVEL,
                           lambda q: True) == [unread]


def test_a_card_named_from_one_end_leaves_the_frame_in_doubt_around_it() -> None:
    quad = np.array([[100, 100], [160, 100], [160, 190], [100, 190]], np.float32)
    named = _glyph(quad, "KS")
    assert not in_doubt([named])
    covered = replace(named, one_end=True)
    assert in_doubt([covered])
    region = doubt_region([covered, named], 2000, 2000)
    assert region is not None and region[0] < 100 < 160 < region[2]


@pytest.mark.parametrize("long_side", [140, 95])
def test_recognise_with_the_rule_names_only_cards_of_the_trick(
        shared_dir: Path, long_side: int) -> None:
    model = GlyphModel.load()
    on = VisionConfig()
    off = replace(on, index_one_end=None)
    for frame, _, under, over in _tricks(shared_dir, long_side, 6):
        with_rule = {o.name for o in recognise(frame, model, on) if o.name}
        without = {o.name for o in recognise(frame, model, off) if o.name}
        assert with_rule <= {under, over}
        assert without <= with_rule


def test_a_name_from_one_end_the_pips_deny_is_withdrawn_at_once(
        shared_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Counted in the check itself, so the name is free for a corner found after it."""
    import vision.learned_check as check_module

    faces = dict(artwork_cards(shared_dir / "vision" / "artwork"))
    frame = table_background(320, 320, seed=3)
    quad = paste_card(frame, faces["TS"], (160.0, 160.0), 140, 8.0).astype(np.float32)
    misread = _glyph(quad, "9S", 0.6)

    def from_one_end(before: list[CardObservation], after: list[CardObservation],
                     *args: Any) -> list[CardObservation]:
        return [replace(b, one_end=True) if b.whole else a
                for b, a in zip(before, after, strict=True)]

    monkeypatch.setattr(check_module, "kept_by_one_end", from_one_end)
    config = VisionConfig()
    out = check_module.checked_by_learned(frame, [misread], config)
    assert out[0].name in (None, "TS")
    assert config.pip_count is not None
    kept = check_module.checked_by_learned(frame, [misread], replace(config, pip_count=None))
    assert kept[0].name == "9S"
