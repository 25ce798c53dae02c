"""The nearest-neighbour glyph model: classification, colour restriction, saving and loading."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import cv2
import numpy as np
import pytest

from tools.synthetic import suit_shape
from vision.errors import ProfileError
from vision.features import glyph_features, glyphs_features
from vision.glyphs import normalise_glyph
from vision.model import GlyphModel, GlyphSet


def _suits() -> GlyphSet:
    glyphs = [normalise_glyph(suit_shape(s, w), 32) for s in "CDHS" for w in (0.8, 1.0)]
    return GlyphSet.from_glyphs(glyphs, [s for s in "CDHS" for _ in (0.8, 1.0)])


@pytest.mark.parametrize("suit", list("CDHS"))
def test_drawn_suits_are_told_apart(suit: str) -> None:
    guess = _suits().classify(normalise_glyph(suit_shape(suit, 0.9), 32))
    assert guess is not None
    assert guess.label == suit
    assert guess.margin > 0


def test_allowed_labels_restrict_the_answer() -> None:
    heart = normalise_glyph(suit_shape("H", 0.9), 32)
    guess = _suits().classify(heart, frozenset("CS"))
    assert guess is not None and guess.label in {"C", "S"}
    assert _suits().classify(heart, frozenset("X")) is None


def test_model_round_trips_through_npz(tmp_path: Path) -> None:
    model = GlyphModel(ranks=_suits(), suits=_suits())
    path = tmp_path / "model.npz"
    model.save(path)
    loaded = GlyphModel.load(path)
    assert np.array_equal(loaded.suits.features, model.suits.features)
    assert loaded.ranks.labels.tolist() == model.ranks.labels.tolist()


def test_loading_a_missing_model_names_the_path(tmp_path: Path) -> None:
    missing = tmp_path / "nope.npz"
    with pytest.raises(ProfileError, match=r"nope\.npz"):
        GlyphModel.load(missing)


def test_shipped_model_has_every_rank_and_suit() -> None:
    model = GlyphModel.load()
    # Besides the ranks and suits: a lone 1 (of a ten) and round blobs, which are no card.
    assert set(model.ranks.labels.tolist()) == set("23456789TJQKA1")
    assert set(model.suits.labels.tolist()) == set("CDHSO")


@pytest.mark.parametrize("suit", ["C", "S"])
@pytest.mark.parametrize(("sigma", "level"), [(1.2, 70), (1.6, 150)])
def test_soft_black_suits_keep_apart(suit: str, sigma: float, level: int) -> None:
    shape = suit_shape(suit, 0.9)
    small = cv2.resize(shape, (shape.shape[1] // 4, shape.shape[0] // 4),
                       interpolation=cv2.INTER_AREA)
    soft = (cv2.GaussianBlur(small, (0, 0), sigma) > level).astype(np.uint8) * 255
    guess = GlyphModel.load().suits.classify(normalise_glyph(soft, 32), frozenset("CS"))
    assert guess is not None
    assert guess.label == suit


def test_glyphs_described_together_match_each_described_alone() -> None:
    rng = np.random.default_rng(5)
    drawn = [normalise_glyph(suit_shape(suit, 0.9), 32) for suit in "CDHS"]
    # Ink right up to the glyph's sides too, where the filters meet the border.
    noisy = [(rng.random((32, 32)) > 0.6).astype(np.uint8) * 255 for _ in range(3)]
    glyphs = drawn + noisy
    for first, second in pairwise(glyphs):
        together = glyphs_features([first, second])
        alone = [glyph_features(first), glyph_features(second)]
        assert all(np.array_equal(a, b) for a, b in zip(together, alone, strict=True))
    assert np.array_equal(glyphs_features(glyphs)[4], glyph_features(glyphs[4]))
