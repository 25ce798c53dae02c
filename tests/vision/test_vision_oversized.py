"""An outline far longer than the frame's other cards keeps no name."""

from __future__ import annotations

import numpy as np

from vision.cards import CardObservation, Reading, parse_card
from vision.config import VisionConfig
from vision.pipeline import oversized_unnamed


def _card(name: str | None, long_side: float, x: float = 0.0,
          whole: bool = True) -> CardObservation:
    """A named (or unread) outline of the given long side."""
    corners = np.array([[x, 0], [x + long_side / 1.4, 0], [x + long_side / 1.4, long_side],
                        [x, long_side]], np.float32)
    if name is None:
        return CardObservation(corners, None, 0.0, whole=whole)
    rank, suit = parse_card(name)
    return CardObservation(corners, Reading(rank, suit, 0.9), 0.9, whole=whole)


def test_an_outline_twice_as_long_as_the_others_keeps_no_name() -> None:
    ratio = VisionConfig().oversized_outline
    assert ratio == 2.0
    frame = [_card("9C", 140), _card("JH", 136, 200), _card("QS", 290, 400)]
    assert [o.name for o in oversized_unnamed(frame, ratio)] == ["9C", "JH", None]
    # One other named card is enough to judge by; a little longer (perspective) is a card.
    assert [o.name for o in oversized_unnamed(frame[1:], ratio)] == ["JH", None]
    near = [_card("9C", 140), _card("JH", 136, 200), _card("QS", 250, 400)]
    assert [o.name for o in oversized_unnamed(near, ratio)] == ["9C", "JH", "QS"]


def test_a_card_alone_unread_outlines_and_loose_corners_are_no_measure() -> None:
    alone = [_card("QS", 400)]
    assert oversized_unnamed(alone, 2.0)[0].name == "QS"
    # Unread outlines and loose corners neither judge nor are judged.
    frame = [_card(None, 60), _card("9C", 140, 100, whole=False), _card("AD", 300, 300),
             _card(None, 500, 600)]
    assert [o.name for o in oversized_unnamed(frame, 2.0)] == [None, "9C", "AD", None]
    small = [_card("9C", 70, whole=False), _card("AD", 300, 300)]
    assert [o.name for o in oversized_unnamed(small, 2.0)] == ["9C", "AD"]
