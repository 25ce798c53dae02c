"""The deck constraint: a frame names no card more often than the deck holds it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from vision.cards import CardObservation


def within_deck(observations: Sequence[CardObservation], copies: int = 1
                ) -> list[CardObservation]:
    """The observations with each name kept by at most `copies` of them (a whole outline
    before a loose corner, then the more confident); of the others, a whole outline is left
    unread in place (a card lies there) and a loose corner is dropped (most often the index of
    the card named)."""
    if copies < 1:
        raise ValueError(f"a deck holds at least one copy of each card, not {copies}")
    order = sorted(range(len(observations)),
                   key=lambda k: (not observations[k].whole, -observations[k].confidence))
    kept: dict[str, int] = {}
    out: list[CardObservation | None] = list(observations)
    for k in order:
        observation = observations[k]
        if observation.name is None:
            continue
        if kept.get(observation.name, 0) < copies:
            kept[observation.name] = kept.get(observation.name, 0) + 1
        elif observation.whole:
            out[k] = replace(observation, reading=None, confidence=0.0)
        else:
            out[k] = None
    return [o for o in out if o is not None]
