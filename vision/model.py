"""Nearest-neighbour glyph classifier over stored feature vectors, saved as an .npz file."""

from __future__ import annotations

import math
import zipfile
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np
import numpy.typing as npt

from vision.cards import Image
from vision.deck_faces import DeckFaces
from vision.errors import ProfileError
from vision.faces import FaceSet
from vision.features import Vector, glyph_features
from vision.guess import Guess

DEFAULT_MODEL = Path(__file__).with_name("data") / "glyph_model.npz"


@dataclass(frozen=True)
class GlyphSet:
    """Labelled glyph feature vectors of one kind (ranks or suits)."""

    features: npt.NDArray[np.float32]
    labels: npt.NDArray[np.str_]

    def classify(self, glyph: Image, allowed: frozenset[str] | None = None,
                 vetoes: frozenset[str] = frozenset()) -> Guess | None:
        """Return the nearest label (optionally among `allowed`) with its margin."""
        vector = glyph_features(glyph)
        return self.classify_vector(vector, allowed, vetoes)

    def classify_vector(
        self, vector: Vector, allowed: frozenset[str] | None = None,
        vetoes: frozenset[str] = frozenset(),
    ) -> Guess | None:
        """Nearest label for a feature vector; None when no label is allowed, or when one of
        `vetoes` (labels that are no answer) is nearer than every allowed label. Vetoes do not
        count in the margin."""
        if self.features.shape[0] == 0:
            return None
        names, grouped, starts = self._label_groups
        best: list[float] = np.maximum.reduceat(grouped @ vector, starts).tolist()
        top, first, second, veto = -math.inf, -1, -math.inf, -math.inf
        for index, (name, similarity) in enumerate(zip(names, best, strict=True)):
            if name in vetoes:
                veto = max(veto, similarity)
            elif allowed is not None and name not in allowed:
                continue
            elif similarity > top:
                top, first, second = similarity, index, top
            elif similarity > second:
                second = similarity
        if first < 0 or veto > top:
            return None
        return Guess(label=names[first], similarity=top,
                     margin=top - (second if second > -math.inf else 0.0))

    @cached_property
    def _label_groups(
        self,
    ) -> tuple[list[str], npt.NDArray[np.float32], npt.NDArray[np.intp]]:
        """The distinct labels, the vectors grouped by label, and where each group starts."""
        names, codes = np.unique(self.labels, return_inverse=True)
        order = np.argsort(codes, kind="stable")
        starts = np.searchsorted(codes[order], np.arange(len(names)))
        return [str(n) for n in names], np.ascontiguousarray(self.features[order]), starts

    @classmethod
    def from_glyphs(cls, glyphs: list[Image], labels: list[str]) -> GlyphSet:
        """Build a set from glyph images and their labels."""
        if not glyphs:
            return cls(np.zeros((0, 1), np.float32), np.array([], dtype=str))
        features = np.stack([glyph_features(g) for g in glyphs]).astype(np.float32)
        return cls(features, np.array(labels))


@dataclass(frozen=True)
class GlyphModel:
    """Rank and suit glyph sets used to read corner indices, and known whole faces (jokers)."""

    ranks: GlyphSet
    suits: GlyphSet
    faces: FaceSet = field(default_factory=FaceSet.empty)
    deck: DeckFaces | None = None
    """The whole faces of an enrolled deck (`deck_faces.py`); None without a deck profile."""

    def save(self, path: Path) -> None:
        """Write the model as a compressed .npz file."""
        arrays: dict[str, npt.NDArray[np.generic]] = {
            "rank_features": self.ranks.features,
            "rank_labels": self.ranks.labels,
            "suit_features": self.suits.features,
            "suit_labels": self.suits.labels,
            "face_vectors": self.faces.vectors,
            "face_names": self.faces.names,
        }
        if self.deck is not None:
            arrays.update(self.deck.arrays())
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: Path = DEFAULT_MODEL) -> GlyphModel:
        """Read a model saved by `save`."""
        try:
            with np.load(path, allow_pickle=False) as data:
                ranks = GlyphSet(data["rank_features"], data["rank_labels"])
                suits = GlyphSet(data["suit_features"], data["suit_labels"])
                faces = (FaceSet(data["face_vectors"], data["face_names"])
                         if "face_vectors" in data else FaceSet.empty())
                deck = DeckFaces.from_arrays(data) if "deck_names" in data else None
        except FileNotFoundError:
            raise ProfileError(f"{str(path)!r}: no such deck profile or model file") from None
        except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile) as error:
            raise ProfileError(
                f"{str(path)!r} is not a deck profile or glyph model (an .npz written by "
                f"`cardtable deck enroll`): {type(error).__name__}") from error
        return cls(ranks, suits, faces, deck)
