"""An unread outline named at one end: both networks name one card in that end's own view
(`learned_corners.named_ends`, `LearnedCornersConfig.outline_ends`)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tools.drawn_deck import camera_look
from tools.scenes import paste_card, table_background
from tools.synthetic import artwork_cards
from vision.cards import CardObservation, Image, Quad, Reading, parse_card
from vision.config import LearnedCornersConfig, VisionConfig
from vision.deck_limit import within_deck
from vision.learned import RANK_CLASSES, SUIT_CLASSES, CardScores, shipped_reader, view_corners
from vision.learned_corners import (
    CornerName,
    card_sized,
    index_box,
    named_at_corners,
    named_ends,
)
from vision.learned_first import LearnedViews, outline_key
from vision.learned_index import shipped_index_reader
from vision.live import LiveConfig, TableWatcher
from vision.model import GlyphModel
from vision.pipeline import recognise
from vision.zones import default_zones

RULE = LearnedCornersConfig()
CARD = np.array([[100, 100], [160, 100], [160, 190], [100, 190]], np.float32)
"""An upright outline 60 x 90 in a 400 x 300 frame."""


def _scores(upright: str | None, turned: str | None, level: float = 0.9) -> CardScores:
    """Scores naming `upright` in the upright view and `turned` in the turned one (None: no
    card), each at `level` (rank and suit each its square root)."""
    share = float(np.sqrt(level))
    rank = np.full((2, len(RANK_CLASSES)), (1 - share) / (len(RANK_CLASSES) - 1), np.float32)
    suit = np.full((2, len(SUIT_CLASSES)), (1 - share) / (len(SUIT_CLASSES) - 1), np.float32)
    for view, name in enumerate((upright, turned)):
        joker = name == "JK"
        rank[view, RANK_CLASSES.index("JK" if joker else name[0] if name else "none")] = share
        suit[view, SUIT_CLASSES.index(name[1] if name and not joker else "none")] = share
    return CardScores(rank, suit)


def _named(card: CardScores, index: CardScores, rule: LearnedCornersConfig = RULE,
           width: float = 60.0) -> list[CornerName]:
    """What `named_ends` gives for CARD with these scores from the card and index networks,
    the cards read being `width` wide."""
    frame = np.zeros((300, 400, 3), np.uint8)
    views = LearnedViews(frame, shipped_reader())
    views.scored[outline_key(CARD)] = card
    views.index_scored[outline_key(CARD)] = index
    return named_ends(frame, [CARD], views, shipped_index_reader(), width, VisionConfig(), rule)


def _ends(card: CardScores, index: CardScores, rule: LearnedCornersConfig = RULE
          ) -> list[tuple[str, float, tuple[float, float]]]:
    """The names, levels and corners `_named` gives."""
    return [(n.reading.name, n.reading.confidence, (float(n.tip[0]), float(n.tip[1])))
            for n in _named(card, index, rule)]


def test_the_name_goes_to_the_outline_only_where_it_is_of_a_cards_size() -> None:
    scores = (_scores("TH", None, 0.85), _scores("TH", None, 0.95))
    assert [n.outline is CARD for n in _named(*scores)] == [True]
    assert [n.outline for n in _named(*scores, width=50.0)] == [None]
    assert [n.outline for n in _named(*scores, width=70.0)] == [None]
    assert [n.outline for n in _named(*scores, replace(RULE, ends_whole_match=0.0))] == [None]
    assert card_sized(CARD, 63.0, VisionConfig(), 0.1)
    assert not card_sized(CARD, 40.0, VisionConfig(), 0.1)


def test_a_named_end_names_its_outline_and_adds_no_corner() -> None:
    frame = np.zeros((300, 400, 3), np.uint8)
    views = LearnedViews(frame, shipped_reader())
    views.scored[outline_key(CARD)] = _scores("TH", "QS", 0.85)
    views.index_scored[outline_key(CARD)] = _scores("TH", "KS", 0.95)
    unread = CardObservation(CARD, None, 0.0)
    out = named_at_corners(frame, [unread], [], views, shipped_index_reader(),
                           GlyphModel.load(), 60.0, VisionConfig(), RULE, [CARD])
    assert [(o.name, o.whole) for o in out] == [("TH", True)]
    assert out[0].confidence == pytest.approx(0.85, abs=0.01)
    # Its two ends name two cards: no one card, each named at its index box.
    views.scored[outline_key(CARD)] = _scores("TH", "QS", 0.85)
    views.index_scored[outline_key(CARD)] = _scores("TH", "QS", 0.95)
    out = named_at_corners(frame, [unread], [], views, shipped_index_reader(),
                           GlyphModel.load(), 60.0, VisionConfig(), RULE, [CARD])
    assert sorted((o.name or "", o.whole) for o in out) == [("", True), ("QS", False),
                                                            ("TH", False)]
    views.scored[outline_key(CARD)] = _scores("TH", "QS", 0.85)
    views.index_scored[outline_key(CARD)] = _scores("TH", "KS", 0.95)
    # Named elsewhere in the frame already: both stand here, and the deck constraint at the end
    # of the look leaves the less sure outline unread.
    named = CardObservation(CARD + 200.0, Reading(*parse_card("TH"), 0.9), 0.9)
    out = named_at_corners(frame, [named, unread], [], views, shipped_index_reader(),
                           GlyphModel.load(), 60.0, VisionConfig(), RULE, [CARD])
    assert [o.name for o in out] == ["TH", "TH"]
    assert [o.name for o in within_deck(out)] == ["TH", None]


def test_the_end_both_networks_name_is_named_at_its_own_index_corner() -> None:
    upright = view_corners(CARD, (400, 300), 0)
    turned = view_corners(CARD, (400, 300), 1)
    assert np.allclose(turned[0], upright[2])
    found = _ends(_scores("TH", None, 0.85), _scores("TH", "9H", 0.95))
    assert [(name, tip) for name, _, tip in found] == [("TH", tuple(upright[0]))]
    assert found[0][1] == pytest.approx(0.85, abs=0.01)
    # The other end: named at the turned view's index corner.
    found = _ends(_scores("KS", "QC", 0.9), _scores("JS", "QC", 0.8))
    assert [(name, tip) for name, _, tip in found] == [("QC", tuple(turned[0]))]


def test_no_end_is_named_by_one_network_alone_weakly_or_as_a_nine() -> None:
    assert _ends(_scores("TH", None), _scores("TS", None)) == []
    assert _ends(_scores("TH", None, RULE.least - 0.02), _scores("TH", None)) == []
    assert _ends(_scores("9H", None, 0.99), _scores("9H", None, 0.99)) == []
    assert _ends(_scores("JK", None, 0.99), _scores("JK", None, 0.99)) == []
    assert _ends(_scores("TH", None), _scores("TH", None),
                 replace(RULE, outline_ends=False)) == []


def test_the_name_lies_in_the_index_box_of_its_end() -> None:
    box = index_box(view_corners(CARD, (400, 300), 0), VisionConfig())
    assert np.allclose(box[0], view_corners(CARD, (400, 300), 0)[0])
    assert cv2.contourArea(box) == pytest.approx(
        VisionConfig().index_width * VisionConfig().index_height * 60 * 90, rel=0.01)


def _chip_on_an_index(face: Image, long_side: float, seed: int) -> tuple[Image, Quad]:
    """A card on the table with a chip lying over its far index corner."""
    rng = np.random.default_rng(seed)
    frame = table_background(480, 400, seed=seed)
    quad = np.asarray(paste_card(frame, face, (240.0, 200.0), long_side,
                                 float(rng.uniform(-40, 40))), np.float32)
    width = float(np.linalg.norm(quad[1] - quad[0]))
    spot = quad[2] + (quad.mean(axis=0) - quad[2]) * 0.12
    cv2.circle(frame, (int(spot[0]), int(spot[1])), int(0.3 * width), (30, 30, 150), -1)
    return camera_look(frame, rng), quad


def test_cards_with_a_chip_on_one_index_are_named_at_the_other(shared_dir: Path) -> None:
    """svg-cards faces, every euchre card at 140 and 95 px with a chip over its far index:
    the ends name cards the whole-outline rule leaves unread, and only the card shown."""
    faces = dict(artwork_cards(shared_dir / "vision" / "artwork"))
    model, config = GlyphModel.load(), VisionConfig()
    without = replace(config, learned_corners=replace(RULE, outline_ends=False))
    gained = named = 0
    for long_side in (140, 95):
        for k, card in enumerate(rank + suit for rank in "9TJQKA" for suit in "CDHS"):
            frame, _ = _chip_on_an_index(faces[card], long_side, 700 + k)
            ends = {o.name for o in recognise(frame, model, config) if o.name}
            whole = {o.name for o in recognise(frame, model, without) if o.name}
            assert whole <= ends
            assert ends - whole <= {card}, (card, long_side, ends, whole)
            gained += len(ends - whole)
            named += card in ends
    assert gained >= 3
    assert named >= 40


def _watched(frames: list[Image], vision_config: VisionConfig) -> list[tuple[str, str | None]]:
    """The events the table's watcher reports for frames 0.1 s apart (720x720 play area)."""
    watcher = TableWatcher(GlyphModel.load(), default_zones(720, 720), vision_config,
                           live_config=LiveConfig(one_thread=False))
    return [(e.kind.value, e.card) for k, frame in enumerate(frames)
            for e in watcher.process(0.1 * k, frame)]


def test_the_table_names_a_card_with_a_chip_on_one_index(shared_dir: Path) -> None:
    """At a 720p table (cards 95 px) a card played with a chip over its far index is placed
    by name, where without the ends it is placed unreadable; a clean card beside it is named
    either way."""
    faces = dict(artwork_cards(shared_dir / "vision" / "artwork"))
    config = VisionConfig()
    without = replace(config, learned_corners=replace(RULE, outline_ends=False))
    gained = 0
    for seed, (card, clean) in enumerate((("KC", "9H"), ("AD", "QS"), ("JC", "TD"))):
        rng = np.random.default_rng(seed)
        table = table_background(720, 720, seed=seed)
        paste_card(table, faces[clean], (250.0, 150.0), 95.0, float(rng.uniform(-30, 30)))
        chipped = table.copy()
        quad = np.asarray(paste_card(chipped, faces[card], (400.0, 520.0), 95.0,
                                     float(rng.uniform(-40, 40))), np.float32)
        width = float(np.linalg.norm(quad[1] - quad[0]))
        spot = quad[2] + (quad.mean(axis=0) - quad[2]) * 0.12
        cv2.circle(chipped, (int(spot[0]), int(spot[1])), int(0.3 * width), (30, 30, 150), -1)
        frames = [table] * 5 + [chipped] * 25
        with_ends = _watched(frames, config)
        whole_only = _watched(frames, without)
        assert ("placed", clean) in with_ends and ("placed", clean) in whole_only
        assert all(name in (card, clean, None) for _, name in with_ends + whole_only)
        placed = [name for kind, name in with_ends if kind in ("placed", "unreadable")]
        assert placed.count(card) + placed.count(None) <= 1
        gained += ("placed", card) in with_ends and ("placed", card) not in whole_only
    assert gained >= 1
