"""Corners that disagree: an unsure dissenter is set aside only when unsure of what it disputes."""

from __future__ import annotations

from vision.config import VisionConfig
from vision.guess import Guess
from vision.read import CornerReading, _combined

CONFIG = VisionConfig()


def _corner(rank: Guess, suit: Guess) -> CornerReading:
    """A corner reading with the confidence the reader gives those guesses."""
    above = [(g.similarity - CONFIG.min_similarity) / CONFIG.similarity_span for g in (rank, suit)]
    margins = [rank.margin / CONFIG.rank_full_margin, suit.margin / CONFIG.suit_full_margin]
    confidence = min(min(1.0, max(0.0, a)) * min(1.0, max(0.0, m))
                     for a, m in zip(above, margins, strict=True))
    return CornerReading(rank=rank, suit=suit, confidence=confidence)


def test_sure_suit_of_an_unsure_corner_vetoes_the_other_suit() -> None:
    sure = _corner(Guess("A", 0.95, 0.26), Guess("C", 0.86, 0.06))
    # The rank is barely read, so the corner is unsure; its spade is read surely.
    dissent = _corner(Guess("A", 0.77, 0.05), Guess("S", 0.93, 0.06))
    assert dissent.confidence < CONFIG.min_corner_confidence <= sure.confidence
    assert _combined([sure, dissent], CONFIG) == (None, 0.0)


def test_unsure_suit_of_an_unsure_corner_is_set_aside() -> None:
    sure = _corner(Guess("A", 0.95, 0.26), Guess("S", 0.93, 0.06))
    dissent = _corner(Guess("A", 0.95, 0.26), Guess("C", 0.72, 0.01))
    reading, _ = _combined([sure, dissent], CONFIG)
    assert reading is not None and reading.name == "AS"
