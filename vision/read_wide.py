"""Outlines left unread read again in wider index views, for decks with large indices."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from vision.cards import CardObservation, Image, Quad, Reading, inside
from vision.config import VisionConfig
from vision.deblur_outline import grown_outline, short_side
from vision.glyphs import index_views
from vision.model import GlyphModel
from vision.read import read_views
from vision.read_search import at_border, card_shaped


def read_wide_indices(frame: Image, observations: list[CardObservation], model: GlyphModel,
                      config: VisionConfig) -> list[CardObservation]:
    """The observations with each unread whole outline of a card's shape and size, holding no
    corner read loose and no corner on the frame's border (a region the frame cuts), read again
    in the index views of `wide_index_windows` in turn."""
    if not config.wide_index_windows:
        return observations
    loose = [o.corners.mean(axis=0) for o in observations if not o.whole]
    read = [short_side(o.corners) for o in observations if o.whole and o.reading is not None]
    widest = config.wide_index_max_width * float(np.median(read)) if read else math.inf
    result = []
    for observation in observations:
        if (observation.reading is None and observation.whole
                and short_side(observation.corners) <= widest
                and card_shaped(observation.corners, None, config, config.wide_index_aspects)
                and not any(at_border(point, frame.shape, config) for point in observation.corners)
                and not any(inside(point, observation.corners) for point in loose)):
            found = _read_wide(frame, observation.corners, model, config)
            if found is not None:
                observation = replace(observation, reading=found,
                                      confidence=found.confidence)
        result.append(observation)
    return result


def _read_wide(frame: Image, corners: Quad, model: GlyphModel,
               config: VisionConfig) -> Reading | None:
    """The first reading in the wider views of an outline, moved inward by each of
    `wide_index_insets` in turn (an outline that takes in a strip of table at the card's corner
    joins the table's ink to the index)."""
    width = short_side(corners)
    for inset in config.wide_index_insets:
        outline = grown_outline(corners, -inset * width) if inset else corners
        for window in config.wide_index_windows:
            reading, confidence = read_views(index_views(frame, outline, config, window),
                                             model, config)
            if reading is not None:
                return replace(reading, confidence=round(confidence, 3))
    return None
