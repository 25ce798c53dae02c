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
from vision.cards import Image, Quad
from vision.config import LearnedCornersConfig, VisionConfig
from vision.learned import RANK_CLASSES, SUIT_CLASSES, CardScores, shipped_reader, view_corners
from vision.learned_corners import index_box, named_ends
from vision.learned_first import LearnedViews, outline_key
from vision.learned_index import shipped_index_reader
from vision.model import GlyphModel
from vision.pipeline import recognise

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


def _ends(card: CardScores, index: CardScores, rule: LearnedCornersConfig = RULE
          ) -> list[tuple[str, float, tuple[float, float]]]:
    """What `named_ends` gives for CARD with these scores from the card and index networks."""
    frame = np.zeros((300, 400, 3), np.uint8)
    views = LearnedViews(frame, shipped_reader())
    views.scored[outline_key(CARD)] = card
    views.index_scored[outline_key(CARD)] = index
    found = named_ends(frame, [CARD], views, shipped_index_reader(), VisionConfig(), rule)
    return [(n.reading.name, n.reading.confidence, (float(n.tip[0]), float(n.tip[1])))
            for n in found]


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
