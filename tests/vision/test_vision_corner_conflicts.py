"""Loose corners read as different cards where they are one card are both dropped."""

from __future__ import annotations

import numpy as np

from vision.card_size import CARD_ASPECT
from vision.cards import CardObservation, Rank, Reading, Suit
from vision.config import VisionConfig
from vision.finder_corners import _without_conflicts, implied_centre

WIDTH = 70.0
LENGTH = WIDTH / CARD_ASPECT
INDEX = (15.0, 35.0)
"""An index box's width and height at this card width."""


def _unit(angle: float) -> np.ndarray:
    return np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))], np.float32)


def _loose(name: str, tip: np.ndarray, across: np.ndarray, down: np.ndarray,
           confidence: float) -> tuple[CardObservation, np.ndarray, float]:
    """A loose corner's reading: the index box at `tip`, `across` the card and `down` it."""
    box = np.array([tip, tip + across * INDEX[0], tip + across * INDEX[0] + down * INDEX[1],
                    tip + down * INDEX[1]], np.float32)
    reading = Reading(Rank(name[0]), Suit(name[1]), confidence)
    return CardObservation(box, reading, confidence, whole=False), tip, WIDTH


def _card(centre: tuple[float, float], angle: float) -> tuple[np.ndarray, ...]:
    """The top-left tip of a card, its bottom-right tip, and its across and down directions."""
    across, down = _unit(angle), _unit(angle + 90)
    middle = np.array(centre, np.float32)
    top_left = middle - across * WIDTH / 2 - down * LENGTH / 2
    return top_left, top_left + across * WIDTH + down * LENGTH, across, down


def test_the_implied_centre_is_the_cards_from_either_index_corner() -> None:
    top_left, bottom_right, across, down = _card((300.0, 200.0), 25.0)
    for observation, tip, width in (_loose("KS", top_left, across, down, 0.85),
                                    _loose("KS", bottom_right, -across, -down, 0.85)):
        assert np.allclose(implied_centre(observation, tip, width), (300.0, 200.0), atol=0.01)


def test_one_cards_two_corners_read_as_two_cards_name_neither() -> None:
    top_left, bottom_right, across, down = _card((300.0, 200.0), 10.0)
    readings = [_loose("KS", top_left, across, down, 0.85),
                _loose("KC", bottom_right, -across, -down, 0.826)]
    assert _without_conflicts(readings, VisionConfig()) == []
    # The same name at both corners is one card read twice, not a conflict.
    twice = [readings[0], _loose("KS", bottom_right, -across, -down, 0.8)]
    assert len(_without_conflicts(twice, VisionConfig())) == 2
    # A name much surer than the other stands.
    surer = [_loose("KS", top_left, across, down, 0.95),
             _loose("KC", bottom_right, -across, -down, 0.6)]
    assert [o.name for o, _, _ in _without_conflicts(surer, VisionConfig())] == ["KS"]


def test_the_corners_of_a_fans_cards_are_not_one_card() -> None:
    # Each card of a fan lies a third of a card width to the right of the one beneath it.
    readings = []
    for k, name in enumerate(("9H", "TH", "JH")):
        top_left, _, across, down = _card((300.0 + k * WIDTH / 3, 200.0), 0.0)
        readings.append(_loose(name, top_left, across, down, 0.8))
    assert [o.name for o, _, _ in _without_conflicts(readings, VisionConfig())] == [
        "9H", "TH", "JH"]
