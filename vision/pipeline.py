"""The whole recognition pipeline: find every card in a frame and read it."""

from __future__ import annotations

from vision.cards import CardObservation
from vision.config import VisionConfig
from vision.detect import Image, find_cards
from vision.glyphs import index_views
from vision.model import GlyphModel
from vision.read import read_views


def recognise(
    frame: Image, model: GlyphModel, config: VisionConfig | None = None
) -> list[CardObservation]:
    """Return an observation for every card found in a BGR frame."""
    config = config or VisionConfig()
    observations = []
    for corners in find_cards(frame, config):
        reading, confidence = read_views(index_views(frame, corners, config), model, config)
        observations.append(CardObservation(corners, reading, round(confidence, 3)))
    return observations
