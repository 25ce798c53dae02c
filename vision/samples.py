"""What enrolling learns of one card lying in a frame: its index, read and split, and its face."""

from __future__ import annotations

from dataclasses import dataclass

from vision.cards import Image, Quad, Reading
from vision.config import VisionConfig
from vision.deck_config import DeckMatchConfig
from vision.deck_faces import FaceViews, face_views
from vision.faces import FaceVector, face_vector
from vision.glyphs import index_views, split_index
from vision.model import GlyphModel
from vision.read import read_views


@dataclass(frozen=True)
class IndexSample:
    """The two index corners of one card, warped flat, and what a model reads there."""

    views: list[Image]
    reading: Reading | None
    confidence: float

    def glyphs(self, config: VisionConfig) -> list[tuple[Image, Image]]:
        """The (rank, suit) glyph images of each corner that splits; empty when none does."""
        found = (split_index(view, config) for view in self.views)
        return [(glyphs.rank, glyphs.suit) for glyphs in found if glyphs is not None]


def index_sample(frame: Image, quad: Quad, model: GlyphModel, config: VisionConfig) -> IndexSample:
    """The card's index corners and the model's reading of them."""
    views = index_views(frame, quad, config)
    reading, confidence = read_views(views, model, config)
    return IndexSample(views, reading, confidence)


def face_sample(frame: Image, quad: Quad) -> tuple[FaceVector, FaceViews]:
    """The card's face as a deck profile keeps it: its face vector and its whole-face views."""
    return face_vector(frame, quad), face_views(frame, quad, DeckMatchConfig())
