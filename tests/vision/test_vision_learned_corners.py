"""Loose corners named by both networks: the card a corner implies, the widths tried, the rule
for a name, and covered cards in rendered tricks."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from tests.vision.finder_switch import without_finders
from tools.drawn_deck import covered_trick
from tools.synthetic import artwork_cards
from vision.cards import CardObservation, Image, Reading, parse_card
from vision.config import LearnedCornersConfig, VisionConfig
from vision.corners import CardCorner, find_corners
from vision.deck_limit import within_deck
from vision.detect import card_masks
from vision.learned import RANK_CLASSES, SUIT_CLASSES, CardScores, shipped_reader
from vision.learned_corners import (
    CornerName,
    fresh_names,
    implied_card,
    index_box,
    index_reading,
    named_at_corners,
    upright_reading,
    widths_at,
    worth_naming,
)
from vision.learned_first import LearnedViews
from vision.learned_index import shipped_index_reader
from vision.model import GlyphModel
from vision.pipeline import recognise

RULE = LearnedCornersConfig()


def _corner(tip: tuple[float, float], shorter: float = 60.0, longer: float = 80.0) -> CardCorner:
    return CardCorner(np.array(tip, np.float32), np.array([1.0, 0.0], np.float32),
                      np.array([0.0, 1.0], np.float32), shorter, longer)


def test_the_implied_card_has_the_tip_at_its_top_left_or_its_top_right() -> None:
    corner = _corner((100.0, 50.0))
    left = implied_card(corner, True, 60.0, 1.5)
    assert np.allclose(left, [[100, 50], [160, 50], [160, 140], [100, 140]])
    right = implied_card(corner, False, 60.0, 1.5)
    # The card runs along the first edge; its top edge ends at the tip.
    assert np.allclose(right[1], [100, 50])
    assert np.allclose(right, [[100, 110], [100, 50], [190, 50], [190, 110]])


def test_the_index_box_is_the_cards_top_left_share() -> None:
    card = np.array([[0, 0], [100, 0], [100, 150], [0, 150]], np.float32)
    box = index_box(card, VisionConfig())
    assert np.allclose(box, [[0, 0], [22, 0], [22, 51], [0, 51]])


def test_widths_tried_are_the_typical_and_the_visible_edges_near_it() -> None:
    assert widths_at(_corner((0, 0), 62.0, 95.0), 70.0, RULE) == [70.0, 62.0]
    assert widths_at(_corner((0, 0), 40.0, 95.0), 70.0, RULE) == [70.0]
    assert widths_at(_corner((0, 0), 70.5, 75.0), 70.0, RULE) == [70.0, 75.0]


def _scores(upright: str, level: float) -> CardScores:
    """Scores whose upright view names `upright` at `level` (rank and suit each sqrt of it)."""
    share = float(np.sqrt(level))
    rank = np.full((2, len(RANK_CLASSES)), (1 - share) / (len(RANK_CLASSES) - 1), np.float32)
    suit = np.full((2, len(SUIT_CLASSES)), (1 - share) / (len(SUIT_CLASSES) - 1), np.float32)
    rank[0, RANK_CLASSES.index(upright[0])] = share
    suit[0, SUIT_CLASSES.index(upright[1])] = share
    rank[1] = np.eye(len(RANK_CLASSES), dtype=np.float32)[RANK_CLASSES.index("none")]
    suit[1] = np.eye(len(SUIT_CLASSES), dtype=np.float32)[SUIT_CLASSES.index("none")]
    return CardScores(rank, suit)


def test_both_networks_must_name_one_card_in_the_upright_view() -> None:
    reading = upright_reading(_scores("KC", 0.9), _scores("KC", 0.8))
    assert reading is not None and reading.name == "KC"
    assert reading.confidence == pytest.approx(0.8, abs=0.01)
    assert upright_reading(_scores("KC", 0.9), _scores("KS", 0.9)) is None
    assert upright_reading(_scores("KC", 0.9), _scores("QC", 0.9)) is None


def test_a_nine_or_a_weak_reading_is_never_named_by_both_networks() -> None:
    assert not worth_naming(Reading(*parse_card("9D"), 0.99), RULE)
    assert not worth_naming(Reading(*parse_card("KD"), RULE.least - 0.01), RULE)
    assert worth_naming(Reading(*parse_card("KD"), RULE.least), RULE)
    assert worth_naming(Reading(*parse_card("TD"), 0.95), RULE)


def _found(name: str, level: float, tip: tuple[float, float]) -> CornerName:
    return CornerName(Reading(*parse_card(name), level), np.array(tip, np.float32),
                      np.zeros((4, 2), np.float32))


def test_fresh_names_skip_rival_readings_and_repeats() -> None:
    found = [
        _found("QC", 0.9, (10, 10)),
        _found("QC", 0.8, (200, 10)),  # the same card at another corner: once, at its surest
        _found("JH", 0.95, (100, 100)),
        _found("JD", 0.75, (104, 100)),  # one corner read two ways: neither
    ]
    kept = fresh_names(found, reach=20.0)
    assert [(n.reading.name, n.reading.confidence) for n in kept] == [("QC", 0.9)]


def _tricks(shared_dir: Path, long_side: float) -> list[tuple[Image, str, str]]:
    faces = dict(artwork_cards(shared_dir / "vision" / "artwork"))
    names = sorted(n for n in faces if n[1] in "CDHS")
    out = []
    for seed in range(100, 112):
        under, over = (str(n) for n in np.random.default_rng(seed).choice(names, 2, False))
        frame, _, _ = covered_trick(faces, under, over, long_side, seed)
        out.append((frame, under, over))
    return out


@pytest.mark.parametrize("long_side", [140, 95])
def test_covered_cards_of_rendered_tricks_are_named_right_or_not_at_all(
        shared_dir: Path, long_side: int) -> None:
    """With the top card named, the corners give the covered card's name or none."""
    config = VisionConfig()
    width = long_side / 1.5
    named = 0
    for frame, under, over in _tricks(shared_dir, long_side):
        views = LearnedViews(frame, shipped_reader())
        corners = find_corners(card_masks(frame, config), config, width)
        top = CardObservation(np.zeros((4, 2), np.float32), Reading(*parse_card(over), 0.9), 0.9)
        added = within_deck(named_at_corners(frame, [top], corners, views,
                                             shipped_index_reader(), width, config, RULE))[1:]
        assert all(o.name == under and not o.whole for o in added)  # the top's corners dropped
        named += any(o.name == under for o in added)
    assert named >= 2


def test_recognise_names_covered_cards_and_nothing_else(shared_dir: Path) -> None:
    """Through the whole pipeline at 140 and 95 px: no name that is not in the trick, and with
    the stage on every name given without it and more."""
    model = GlyphModel.load()
    on = VisionConfig()
    off = replace(on, learned_corners=None)
    gained = 0
    for long_side in (140, 95):
        for frame, under, over in _tricks(shared_dir, long_side)[:8]:
            with_stage = {o.name for o in recognise(frame, model, on) if o.name}
            without = {o.name for o in recognise(frame, model, off) if o.name}
            assert with_stage <= {under, over}
            assert without <= with_stage
            gained += len(with_stage - without)
    assert gained >= 2


def test_index_reading_is_the_upright_views_card_of_a_suit() -> None:
    reading = index_reading(_scores("QH", 0.81))
    assert reading is not None and reading.name == "QH"
    assert reading.confidence == pytest.approx(0.81, abs=0.01)
    blank = _scores("QH", 0.81)
    blank.suit[0] = np.eye(len(SUIT_CLASSES), dtype=np.float32)[SUIT_CLASSES.index("none")]
    assert index_reading(blank) is None


def test_without_the_loose_corners_the_stage_seeks_its_own_corners(shared_dir: Path) -> None:
    """With the loose-corner reading off, the stage finds corners itself: covered cards are
    still named, and nothing outside the trick."""
    model = GlyphModel.load()
    on = without_finders(VisionConfig(), "corners")
    off = replace(on, learned_corners=None)
    gained = 0
    for frame, under, over in _tricks(shared_dir, 140)[:8]:
        with_stage = {o.name for o in recognise(frame, model, on) if o.name}
        assert with_stage <= {under, over}
        gained += len(with_stage - {o.name for o in recognise(frame, model, off) if o.name})
    assert gained >= 2
