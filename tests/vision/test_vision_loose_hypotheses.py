"""Loose corners at an unread outline of a card's shape: no index view its own reading looked
at is read again (`pipeline.fresh_hypotheses`)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.config import VisionConfig
from vision.corners import CardCorner, corner_views, find_corners
from vision.detect import MaskSet, order_corners
from vision.pipeline import fresh_hypotheses

CONFIG = VisionConfig()
SIZE = (600, 600)


def _card(angle: float, width: float) -> np.ndarray:
    """A card outline of the deck's aspect, turned `angle` degrees, in the middle of the frame."""
    height = width * CONFIG.card_height / CONFIG.card_width
    box = np.asarray(cv2.boxPoints(((300.0, 300.0), (width, height), angle)), np.float32)
    return order_corners(box)


def _corners_of(card: np.ndarray, width: float) -> list[CardCorner]:
    """The loose corners the corner search finds on the card drawn alone in a mask."""
    mask = np.zeros(SIZE, np.uint8)
    cv2.fillConvexPoly(mask, np.round(card).astype(np.int32), 255)
    corners = find_corners(MaskSet([mask], scale=1.0, pad=0), CONFIG, width)
    assert len(corners) == 4
    return corners


def _views_inside(corner: CardCorner, hypotheses: tuple[bool, ...], card: np.ndarray,
                  width: float) -> bool:
    """Whether every view read at the corner lies on the card."""
    frame = np.zeros((*SIZE, 3), np.uint8)
    contour = card.reshape(-1, 1, 2).astype(np.float32)
    for _, outline in corner_views(frame, corner, width, CONFIG, hypotheses):
        centre = outline.mean(axis=0)
        if cv2.pointPolygonTest(contour, (float(centre[0]), float(centre[1])), False) < 0:
            return False
    return True


def _across_short_side(corner: CardCorner, first_is_short: bool, card: np.ndarray,
                       width: float) -> bool:
    """Whether the view of that hypothesis runs across the card's short side, as an index does."""
    frame = np.zeros((*SIZE, 3), np.uint8)
    _, outline = next(corner_views(frame, corner, width, CONFIG, (first_is_short,)))
    across = outline[1] - outline[0]
    sides = [card[1] - card[0], card[2] - card[1]]
    short = min(sides, key=lambda side: float(np.linalg.norm(side)))
    cosine = abs(float(across @ short)) / float(np.linalg.norm(across) * np.linalg.norm(short))
    return cosine > 0.95


def _own_index_corner(card: np.ndarray, tip: np.ndarray) -> bool:
    """Whether a tip is at one of the two corners whose index views the outline itself reads
    (the corners at the start of each short side, as `glyphs.index_views` cuts them)."""
    pts = card if np.linalg.norm(card[1] - card[0]) <= np.linalg.norm(card[2] - card[1]) \
        else np.roll(card, -1, axis=0)
    return min(float(np.linalg.norm(pts[k] - tip)) for k in (0, 2)) < 3.0


@pytest.mark.parametrize("angle", [0.0, 17.0, 35.0, 62.0, 90.0])
@pytest.mark.parametrize("width", [63.0, 93.0, 160.0])
def test_no_view_is_read_again_at_an_outline_of_the_read_cards_size(
        angle: float, width: float) -> None:
    card = _card(angle, width)
    corners = _corners_of(card, width)
    assert sum(_own_index_corner(card, c.tip) for c in corners) == 2
    for corner in corners:
        assert fresh_hypotheses(corner, [card], width, CONFIG) == ()


@pytest.mark.parametrize("angle", [0.0, 28.0, 75.0])
@pytest.mark.parametrize("scale", [0.9, 1.1])
def test_an_outline_of_another_size_keeps_the_views_across_its_short_sides(
        angle: float, scale: float) -> None:
    width = 80.0
    card = _card(angle, width * scale)
    for corner in _corners_of(card, width):
        kept = fresh_hypotheses(corner, [card], width, CONFIG)
        if not _own_index_corner(card, corner.tip):
            # No index but a four-index deck's, which prints the same at the index corners.
            assert kept == ()
            continue
        # One view, of an index printed on the card at that corner.
        assert len(kept) == 1
        assert _views_inside(corner, kept, card, width)
        assert _across_short_side(corner, kept[0], card, width)
        assert not _across_short_side(corner, not kept[0], card, width)


@pytest.mark.parametrize("angle", [0.0, 40.0])
def test_corners_away_from_unread_outlines_keep_both_views(angle: float) -> None:
    width = 80.0
    card = _card(angle, width)
    for corner in _corners_of(card, width):
        assert fresh_hypotheses(corner, [], width, CONFIG) == (True, False)
        moved = _card(angle, width) + np.array([250.0, 0.0], np.float32)
        assert fresh_hypotheses(corner, [moved], width, CONFIG) == (True, False)


@pytest.mark.parametrize("angle", [0.0, 33.0, 81.0])
@pytest.mark.parametrize("along", [0.3, 0.5, 0.7])
def test_corners_along_an_unread_outlines_side_are_read_as_any_other(angle: float,
                                                                     along: float) -> None:
    width = 80.0
    card = _card(angle, width)
    side = card[2] - card[1]
    tip = (card[1] + along * side).astype(np.float32)
    unit = (side / np.linalg.norm(side)).astype(np.float32)
    inward = np.array([unit[1], -unit[0]], np.float32)
    corner = CardCorner(tip, unit, inward, 20.0, 30.0)
    assert fresh_hypotheses(corner, [card], width, CONFIG) == (True, False)
