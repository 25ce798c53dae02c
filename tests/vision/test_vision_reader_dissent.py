"""Corners that disagree: an unsure dissenter is set aside only when unsure of what it disputes."""

from __future__ import annotations

from pathlib import Path

from vision.config import VisionConfig
from vision.glyphs import index_views
from vision.guess import Guess
from vision.imageio import read_image
from vision.model import GlyphModel
from vision.pipeline import recognise
from vision.read import CornerReading, _combined, read_views

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


def test_ace_whose_spade_one_corner_reads_as_a_club_is_not_read_as_a_club(
        shared_dir: Path) -> None:
    frame = read_image(shared_dir / "vision" / "dev" / "edje_train" / "cam_image18.jpg")
    model = GlyphModel.load()
    names = [o.name for o in recognise(frame, model, CONFIG)]
    assert "AC" not in names
    assert "AS" in names
    whole = [o for o in recognise(frame, model, CONFIG) if o.whole]
    reading, _ = read_views(index_views(frame, whole[0].corners, CONFIG), model, CONFIG)
    assert reading is None or reading.name == "AS"
