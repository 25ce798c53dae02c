"""Nearest-neighbour glyph classifier over stored feature vectors, saved as an .npz file."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
import numpy.typing as npt

from vision.cards import Image
from vision.errors import ProfileError
from vision.features import Vector, glyph_features

DEFAULT_MODEL = Path(__file__).with_name("data") / "glyph_model.npz"


@dataclass(frozen=True)
class Guess:
    """The best label for a glyph, its cosine similarity and the margin to the next label."""

    label: str
    similarity: float
    margin: float


@dataclass(frozen=True)
class GlyphSet:
    """Labelled glyph feature vectors of one kind (ranks or suits)."""

    features: npt.NDArray[np.float32]
    labels: npt.NDArray[np.str_]

    def classify(self, glyph: Image, allowed: frozenset[str] | None = None) -> Guess | None:
        """Return the nearest label (optionally among `allowed`) with its margin."""
        vector = glyph_features(glyph)
        return self.classify_vector(vector, allowed)

    def classify_vector(
        self, vector: Vector, allowed: frozenset[str] | None = None
    ) -> Guess | None:
        """Nearest label for a feature vector; None when no label is allowed."""
        if self.features.shape[0] == 0:
            return None
        similarity = self.features @ vector
        names, order, starts = self._label_groups
        best = np.maximum.reduceat(similarity[order], starts)
        if allowed is not None:
            best[[name not in allowed for name in names]] = -np.inf
        order = np.argsort(-best)
        top = float(best[order[0]])
        if not np.isfinite(top):
            return None
        second = float(best[order[1]]) if len(order) > 1 and np.isfinite(best[order[1]]) else 0.0
        return Guess(label=names[int(order[0])], similarity=top, margin=top - second)

    @cached_property
    def _label_groups(self) -> tuple[list[str], npt.NDArray[np.intp], npt.NDArray[np.intp]]:
        """The distinct labels, an order that groups vectors by label, and where groups start."""
        names, codes = np.unique(self.labels, return_inverse=True)
        order = np.argsort(codes, kind="stable")
        starts = np.searchsorted(codes[order], np.arange(len(names)))
        return [str(n) for n in names], order, starts

    @classmethod
    def from_glyphs(cls, glyphs: list[Image], labels: list[str]) -> GlyphSet:
        """Build a set from glyph images and their labels."""
        if not glyphs:
            return cls(np.zeros((0, 1), np.float32), np.array([], dtype=str))
        features = np.stack([glyph_features(g) for g in glyphs]).astype(np.float32)
        return cls(features, np.array(labels))


@dataclass(frozen=True)
class GlyphModel:
    """Rank and suit glyph sets used to read corner indices."""

    ranks: GlyphSet
    suits: GlyphSet

    def save(self, path: Path) -> None:
        """Write the model as a compressed .npz file."""
        np.savez_compressed(
            path,
            rank_features=self.ranks.features,
            rank_labels=self.ranks.labels,
            suit_features=self.suits.features,
            suit_labels=self.suits.labels,
        )

    @classmethod
    def load(cls, path: Path = DEFAULT_MODEL) -> GlyphModel:
        """Read a model saved by `save`."""
        try:
            with np.load(path, allow_pickle=False) as data:
                ranks = GlyphSet(data["rank_features"], data["rank_labels"])
                suits = GlyphSet(data["suit_features"], data["suit_labels"])
        except (OSError, KeyError, ValueError) as error:
            raise ProfileError(f"cannot load glyph model {str(path)!r}: {error}") from error
        return cls(ranks, suits)
