"""Typed results of card recognition: ranks, suits, readings and observations."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import cv2
import numpy as np
import numpy.typing as npt
from cv2.typing import MatLike

from vision.errors import CardNameError

Image = MatLike
"""A BGR or single-channel image as OpenCV returns it."""

Quad = npt.NDArray[np.float32]
"""Four card corners, shape (4, 2), in the frame's pixels, clockwise from the top-left."""
NEXT_CORNER = np.array([1, 2, 3, 0])
"""Each corner's next one round a quad: side k runs from corner k to corner NEXT_CORNER[k]
(`quad[NEXT_CORNER]` is `np.roll(quad, -1, axis=0)`, without its Python cost)."""
PREVIOUS_CORNER = np.array([3, 0, 1, 2])
"""Each corner's previous one round a quad (`np.roll(quad, 1, axis=0)`)."""


def side_lengths(steps: npt.NDArray[np.floating]) -> npt.NDArray[np.floating]:
    """The length of each row of `steps`, as `np.linalg.norm(steps, axis=1)` computes it."""
    lengths: npt.NDArray[np.floating] = np.sqrt((steps * steps).sum(axis=1))
    return lengths


def inside(point: npt.NDArray[np.floating] | tuple[float, float], outline: Quad) -> bool:
    """Whether a point lies inside (or on) a quad."""
    contour = np.asarray(outline, np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(contour, (float(point[0]), float(point[1])), False) >= 0


class Rank(Enum):
    """Card ranks as written in card notation (T is ten)."""

    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"
    JOKER = "JK"

    @property
    def is_euchre(self) -> bool:
        """True for the ranks of a euchre deck, 9 to ace."""
        return self.value in EUCHRE_RANKS


class Suit(Enum):
    """The four French suits."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def is_red(self) -> bool:
        """True for hearts and diamonds."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)


EUCHRE_RANKS = frozenset({*"9TJQKA", "JK"})


@dataclass(frozen=True)
class Reading:
    """What a card index says, with the confidence of the reading (0 to 1)."""

    rank: Rank
    suit: Suit | None
    """None for the joker, which has no suit."""
    confidence: float

    @property
    def name(self) -> str:
        """Card notation such as 'TH', or 'JK' for the joker."""
        return self.rank.value + (self.suit.value if self.suit else "")

    @property
    def is_euchre(self) -> bool:
        """True when the card belongs to a euchre deck."""
        return self.rank.is_euchre


@dataclass(frozen=True)
class CardObservation:
    """A card found in a frame: its outline and, when it could be read, its reading."""

    corners: Quad
    reading: Reading | None
    confidence: float
    whole: bool = True
    """True when `corners` outline the whole card; False when only a visible index corner."""
    one_end: bool = False
    """True when named from one end only, the other lying under something unread (a card
    beneath it, say): the frame is looked at again there."""

    @property
    def name(self) -> str | None:
        """Card notation, or None when the card is present but unreadable."""
        return self.reading.name if self.reading else None


def parse_card(text: str) -> tuple[Rank, Suit]:
    """Parse card notation such as 'JH', 'TH' or '10H' into rank and suit."""
    cleaned = text.strip().upper()
    if cleaned.startswith("10"):
        cleaned = "T" + cleaned[2:]
    if len(cleaned) != 2:
        raise CardNameError(f"not a card name: {text!r}")
    try:
        return Rank(cleaned[0]), Suit(cleaned[1])
    except ValueError:
        raise CardNameError(f"not a card name: {text!r}") from None
