"""Outlines left unread read again in wider index views, for decks with large indices."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from vision.cards import CardObservation, Image, inside
from vision.config import VisionConfig
from vision.deblur_outline import short_side
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
            for window in config.wide_index_windows:
                views = index_views(frame, observation.corners, config, window)
                reading, confidence = read_views(views, model, config)
                if reading is not None:
                    observation = replace(observation, reading=reading,
                                          confidence=round(confidence, 3))
                    break
        result.append(observation)
    return result
