"""The answer of a nearest-neighbour match: the best label, how close, and by what margin."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Guess:
    """The best label for a glyph or a face, its similarity, and its margin over the next label."""

    label: str
    similarity: float
    margin: float
