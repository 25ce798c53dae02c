"""The deck constraint: no card named more often in a frame than the deck holds it, judged on
rendered play-area views with a card laid twice."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tools.decision_data import artwork_face
from tools.drawn_deck import camera_look
from tools.scenes import paste_card, table_background
from tools.table_frame import frame_size
from vision.cards import CardObservation, Rank, Reading, Suit
from vision.config import VisionConfig
from vision.deck_limit import within_deck
from vision.live import LiveConfig, view_config
from vision.model import GlyphModel
from vision.pipeline import recognise

TWICE = ("AH", "KS", "9D", "JC")


def _twice(name: str, length: float, seed: int) -> np.ndarray:
    """A play-area view with the card `name` laid twice, apart, and one other card."""
    rng = np.random.default_rng(seed)
    width, height = frame_size(length)
    frame = table_background(width, height, seed=seed)
    other = "QH" if name != "QH" else "TS"
    for k, card in enumerate((name, other, name)):
        centre = ((k + 0.6) * length * 1.6, height / 2 + float(rng.uniform(-10, 10)))
        paste_card(frame, artwork_face(card), centre, length, float(rng.uniform(-30, 30)))
    return camera_look(frame, rng)


def _names(frame: np.ndarray, length: float, copies: int) -> list[str]:
    """The names the table's view settings give the frame with `copies` of each card."""
    config = replace(view_config(VisionConfig(), LiveConfig()), card_length=length,
                     copies=copies)
    return [o.name for o in recognise(frame, GlyphModel.load(), config) if o.name]


@pytest.mark.parametrize("length", [140.0, 95.0])
def test_one_deck_names_a_card_once_and_a_double_deck_twice(length: float) -> None:
    single = double = 0
    for seed, name in enumerate(TWICE):
        frame = _twice(name, length, seed)
        once = _names(frame, length, copies=1)
        assert once.count(name) <= 1
        single += once.count(name)
        double += _names(frame, length, copies=2).count(name)
    assert single >= len(TWICE) - 1  # each frame's card is still named once
    assert double >= single + len(TWICE) - 1  # and twice where the deck holds two


def _seen(name: str, confidence: float, whole: bool = True) -> CardObservation:
    """An observation named `name` at `confidence`."""
    quad = np.zeros((4, 2), np.float32)
    return CardObservation(quad, Reading(Rank(name[0]), Suit(name[1]), confidence), confidence,
                           whole=whole)


def test_the_whole_and_more_confident_keep_the_name() -> None:
    seen = [_seen("AH", 0.9, whole=False), _seen("AH", 0.8), _seen("KS", 0.7), _seen("AH", 0.95)]
    kept = within_deck(seen, copies=1)
    assert [o.name for o in kept] == [None, "KS", "AH"]  # the loose corner dropped
    assert kept[0].confidence == 0.0 and kept[0].corners is seen[1].corners
    assert [o.name for o in within_deck(seen, copies=2)] == ["AH", "KS", "AH"]
    assert within_deck(seen, copies=3) == seen


def test_a_deck_without_cards_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one copy"):
        within_deck([], copies=0)
