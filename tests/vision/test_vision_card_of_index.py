"""The whole card a loose corner's index implies, and the network's check of it."""

from __future__ import annotations

import numpy as np
import pytest

from vision.cards import CardObservation, Rank, Reading, Suit
from vision.config import VisionConfig
from vision.corners import CardCorner, cards_of_index, corner_views
from vision.learned import RANK_CLASSES, SUIT_CLASSES, CardScores, Rule, checked


def _card(angle: float, width: float) -> np.ndarray:
    """A card outline of a poker card's proportions, turned by `angle` degrees."""
    turn = np.deg2rad(angle)
    across = np.array([np.cos(turn), np.sin(turn)]) * width
    down = np.array([-np.sin(turn), np.cos(turn)]) * width * 1.4
    start = np.array([300.0, 200.0])
    return np.array([start, start + across, start + across + down, start + down], np.float32)


def _corners(card: np.ndarray, width: float) -> list[tuple[CardCorner, bool]]:
    """The four corners of a card's short ends, each as seen with that end on top: its left
    corner as a top-left one, its right corner as a top-right one (`first_is_short`)."""
    out = []
    for i in (0, 2):
        left, right = card[i], card[(i + 1) % 4]
        across = (right - left) / np.linalg.norm(right - left)
        down = (card[(i + 3) % 4] - left) / np.linalg.norm(card[(i + 3) % 4] - left)
        depth = float(np.linalg.norm(card[(i + 3) % 4] - left))
        out += [(CardCorner(left, across, down, width, depth), True),
                (CardCorner(right, down, -across, width, depth), False)]
    return out


@pytest.mark.parametrize("angle", [0.0, 33.0, 150.0, 260.0])
@pytest.mark.parametrize("width", [64.0, 95.0])
def test_every_corner_of_a_card_implies_that_card(angle: float, width: float) -> None:
    card = _card(angle, width)
    frame = np.zeros((800, 800, 3), np.uint8)
    config = VisionConfig()
    for corner, first_is_short in _corners(card, width):
        for _, outline in corner_views(frame, corner, width, config, (first_is_short,)):
            # One of the two cards it may belong to is this card: the same four points, in
            # some turn of the order; the other is another card beside it.
            apart = sorted(min(float(np.abs(np.roll(implied, k, axis=0) - card).max())
                               for k in range(4))
                           for implied in cards_of_index(outline, config))
            assert apart[0] < 0.02 * width
            assert apart[1] > 0.5 * width


def _scores(name: str, sure: float) -> CardScores:
    rank = np.full((2, len(RANK_CLASSES)), (1 - sure) / (len(RANK_CLASSES) - 1), np.float32)
    suit = np.full((2, len(SUIT_CLASSES)), (1 - sure) / (len(SUIT_CLASSES) - 1), np.float32)
    rank[:, RANK_CLASSES.index(name[0])] = sure
    suit[:, SUIT_CLASSES.index(name[1])] = sure
    return CardScores(rank, suit)


@pytest.mark.parametrize(("confidence", "seen", "named"), [
    (0.9, None, "JS"),      # sure enough alone
    (0.7, None, None),      # too weak alone, nothing seen of its card
    (0.7, "JS", "JS"),      # too weak alone, its card backs it
    (0.7, "9S", None),      # its card says otherwise
    (0.5, "JS", None),      # below the least a backed corner needs
])
def test_a_weak_loose_corner_is_named_only_when_its_card_backs_it(
        confidence: float, seen: str | None, named: str | None) -> None:
    index = np.array([[0, 0], [14, 0], [14, 30], [0, 30]], np.float32)
    corner = CardObservation(index, Reading(Rank.JACK, Suit.SPADES, confidence), confidence,
                             whole=False)
    rule = Rule(0.8, 0.3, 0.8, loose_backed=0.55, loose_support=0.5)
    out = checked([corner], [_scores(seen, 0.95) if seen else None], rule)
    assert out[0].name == named


@pytest.mark.parametrize(("card", "read", "named"), [
    ("JS", "JS", "JS"), ("QH", "QH", "QH"), ("JS", "9D", None), ("QH", "KC", None)])
def test_the_pipeline_names_a_weak_corner_only_when_the_network_sees_its_card(
        card: str, read: str, named: str | None) -> None:
    from pathlib import Path

    import cv2

    from tools.scenes import paste_card, table_background
    from vision.corners import CardCorner
    from vision.learned_check import checked_by_learned

    artwork = Path(__file__).resolve().parents[2] / "vision" / "data" / "artwork"
    face = cv2.imread(str(artwork / f"{card}.png"))
    frame = table_background(400, 300, seed=4)
    paste_card(frame, face, (200.0, 150.0), 140.0, angle=0.0)
    # The face's own top-left corner in the frame, where its index is.
    width = 140.0 * face.shape[1] / face.shape[0]
    tip = np.array([200.0 - width / 2, 150.0 - 70.0], np.float32)
    corner = CardCorner(tip, np.array([1.0, 0.0], np.float32), np.array([0.0, 1.0], np.float32),
                        width, 140.0)
    config = VisionConfig()
    _, outline = next(corner_views(frame, corner, width, config, (True,)))
    weak = CardObservation(outline, Reading(Rank(read[0]), Suit(read[1]), 0.7), 0.7,
                           whole=False)
    out = checked_by_learned(frame, [weak], config)
    assert out[0].name == named
    assert not out[0].whole
