"""Names the readers must not give: the card network alone naming the visible piece of a covered
card as a whole card, and the glyph reader's court rank where both networks read another court
(`pipeline._covered_pieces_unnamed`, `pipeline._courts_outvoted`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np

from tools.drawn_deck import camera_look
from tools.scenes import paste_card, table_background
from tools.synthetic import artwork_cards
from vision.cards import CardObservation, Image, Quad, Reading, parse_card
from vision.config import VisionConfig
from vision.learned import RANK_CLASSES, SUIT_CLASSES, CardScores
from vision.model import GlyphModel
from vision.pipeline import _courts_outvoted, _covered_pieces_unnamed, recognise


def _quad(x: float, y: float, width: float, height: float) -> Quad:
    return np.array([[x, y], [x + width, y], [x + width, y + height], [x, y + height]],
                    np.float32)


def _seen(quad: Quad, name: str | None, whole: bool = True) -> CardObservation:
    reading = Reading(*parse_card(name), 0.9) if name else None
    return CardObservation(quad, reading, 0.9 if name else 0.0, whole=whole)


def test_a_squat_piece_beside_a_card_named_loses_the_name_the_network_alone_gave() -> None:
    card = _quad(100, 100, 60, 90)
    piece = _quad(45, 110, 58, 55)  # squat, touching the card's left side
    before = [_seen(card, "KH"), _seen(piece, None)]
    after = [_seen(card, "KH"), _seen(piece, "9D")]
    kept = _covered_pieces_unnamed(after, before, 1.2)
    assert [o.name for o in kept] == ["KH", None]


def test_card_shaped_or_lone_or_glyph_read_outlines_keep_their_names() -> None:
    card = _quad(100, 100, 60, 90)
    shaped = _quad(30, 100, 60, 90)  # a card's shape beside it
    lone = _quad(300, 100, 58, 55)  # squat, far from any card
    glyph = _quad(45, 110, 58, 55)  # squat, touching, but the glyph reader named it
    before = [_seen(card, "KH"), _seen(shaped, None), _seen(lone, None), _seen(glyph, "TD")]
    after = [_seen(card, "KH"), _seen(shaped, "9D"), _seen(lone, "9C"), _seen(glyph, "TD")]
    kept = _covered_pieces_unnamed(after, before, 1.2)
    assert [o.name for o in kept] == ["KH", "9D", "9C", "TD"]


def _scores(name: str, level: float) -> CardScores:
    """Scores whose two views both name `name`, each at `level` (rank and suit each its
    square root)."""
    share = float(np.sqrt(level))
    rank = np.full((2, len(RANK_CLASSES)), (1 - share) / (len(RANK_CLASSES) - 1), np.float32)
    suit = np.full((2, len(SUIT_CLASSES)), (1 - share) / (len(SUIT_CLASSES) - 1), np.float32)
    rank[:, RANK_CLASSES.index(name[0])] = share
    suit[:, SUIT_CLASSES.index(name[1])] = share
    return CardScores(rank, suit)


def test_a_glyph_court_both_networks_read_as_another_court_is_withdrawn() -> None:
    card = _quad(100, 100, 60, 90)
    glyph = [_seen(card, "JH")]
    found: list[CardScores | None] = [_scores("KH", 0.95)]
    out = _courts_outvoted(glyph, glyph, found, 0.8, lambda quads: [_scores("KH", 0.9)])
    assert out[0].reading is None


def _always(scores: CardScores) -> Callable[[list[Quad]], list[CardScores]]:
    """An index reader that gives these scores to every quad shown."""
    return lambda quads: [scores for _ in quads]


def test_a_glyph_court_stands_where_the_index_network_reads_it_or_doubts() -> None:
    card = _quad(100, 100, 60, 90)
    glyph = [_seen(card, "JH")]
    found: list[CardScores | None] = [_scores("KH", 0.95)]
    for index in (_scores("JH", 0.9), _scores("KH", 0.6)):
        out = _courts_outvoted(glyph, glyph, found, 0.8, _always(index))
        assert out[0].name == "JH"
    # The card network unsure, or reading another suit: nothing to outvote.
    for other in (_scores("KH", 0.7), _scores("KS", 0.95)):
        out = _courts_outvoted(glyph, glyph, [other], 0.8, lambda quads: [_scores("KH", 0.9)])
        assert out[0].name == "JH"


def _covered(faces: dict[str, Image], card: str, over: str | None, long_side: float,
             seed: int) -> Image:
    """A card lying across the view (turned about a right angle), alone or with another card
    over part of it."""
    rng = np.random.default_rng(seed)
    frame = table_background(480, 400, seed=seed)
    paste_card(frame, faces[card], (240.0, 200.0), long_side, 90.0 + float(rng.uniform(-20, 20)))
    if over is not None:
        step = float(rng.choice([-1.0, 1.0])) * 0.55 * long_side
        paste_card(frame, faces[over], (240.0 + step, 200.0 + 0.2 * step), long_side,
                   float(rng.uniform(-25, 25)))
    return camera_look(frame, rng)


COVERS = ("KH", "QS", "AD", "JC", "9H", None)
"""The cards laid over the one lying across the view (None: it lies alone)."""


def test_the_guards_withdraw_wrong_names_of_covered_cards_and_no_right_one(
        shared_dir: Path) -> None:
    """svg-cards faces, every euchre card lying across the view under a king, a jack and
    alone, at 140 and 95 px, read with the two guards and without: a name given only with them
    is one of the cards shown (a court the networks name once its glyph rank is withdrawn),
    some wrong names are withdrawn, none right, and most cards are named."""
    faces = dict(artwork_cards(shared_dir / "vision" / "artwork"))
    model, config = GlyphModel.load(), VisionConfig()
    bare = replace(config, covered_piece_aspect=None, courts_outvoted=None)
    named = scenes = withdrawn = 0
    for long_side in (140, 95):
        for k, card in enumerate(rank + suit for rank in "9TJQKA" for suit in "CDHS"):
            for over in ("KH", "JC", None):
                if card == over:
                    continue
                frame = _covered(faces, card, over, long_side, 500 + 6 * k + COVERS.index(over))
                guarded = {o.name for o in recognise(frame, model, config) if o.name}
                unguarded = {o.name for o in recognise(frame, model, bare) if o.name}
                shown = {card, over}
                assert guarded - unguarded <= shown, (card, over, guarded, unguarded)
                assert not (unguarded - guarded) & shown, (card, over, guarded, unguarded)
                withdrawn += len(unguarded - guarded)
                named += card in guarded
                scenes += 1
    assert withdrawn >= 1
    assert named >= scenes // 2
