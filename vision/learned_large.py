"""The learned reader's look at close-up cards the glyph reader left unread, shrunk to its size."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np

from vision.card_size import beside_known_cards, card_shaped
from vision.cards import CardObservation, Image, Quad
from vision.config import VisionConfig
from vision.deblur_outline import long_side
from vision.learned import LearnedReader, reading_of, with_fresh_names
from vision.learned_index import IndexReader, named_by_both


def shrunk(frame: Image, quad: Quad, length: float) -> tuple[Image, Quad]:
    """The part of the frame around a quad, shrunk by area averaging so that the quad's long
    side is `length` pixels, and the quad in that part's pixels."""
    pts = np.asarray(quad, np.float32).reshape(4, 2)
    height, width = frame.shape[:2]
    x0, y0 = (max(0, int(np.floor(v)) - 2) for v in pts.min(axis=0))
    x1 = min(width, int(np.ceil(float(pts[:, 0].max()))) + 3)
    y1 = min(height, int(np.ceil(float(pts[:, 1].max()))) + 3)
    scale = min(1.0, length / max(long_side(pts), 1.0))
    part = frame[y0:max(y1, y0 + 1), x0:max(x1, x0 + 1)]
    size = (max(1, round(part.shape[1] * scale)), max(1, round(part.shape[0] * scale)))
    small = cv2.resize(part, size, interpolation=cv2.INTER_AREA)
    factor = np.array([size[0] / part.shape[1], size[1] / part.shape[0]], np.float32)
    return small, ((pts - np.array([x0, y0], np.float32)) * factor).astype(np.float32)


def named_large(frame: Image, observations: list[CardObservation], reader: LearnedReader,
                config: VisionConfig, index: IndexReader | None = None,
                elsewhere: Sequence[CardObservation] = ()) -> list[CardObservation]:
    """The observations with each unnamed whole card of a card's shape longer than
    `learned_max_length` (none `beside_known_cards`) named by the network, shown it shrunk to
    `learned_large_length`, where both views agree on a euchre card at the reader's `threshold`
    (a joker is known by its face alone: shown a book cover, the network saw one), or, given
    the index reader, where both readers name it alike (`named_by_both`); `elsewhere`: the
    cards settled before."""
    length = config.learned_large_length
    named = [o.corners for o in (*observations, *elsewhere) if o.whole and o.reading is not None]
    unread = [k for k, o in enumerate(observations)
              if o.whole and o.reading is None and long_side(o.corners) > config.learned_max_length
              and card_shaped(o.corners, None, config)
              and not beside_known_cards(o.corners, named, config)]
    found: dict[int, CardObservation] = {}
    for k in unread:
        small, quad = shrunk(frame, observations[k].corners, length)
        scores = reader.scores(small, [quad])[0]
        agreed = scores.agreed()
        reading = (reading_of(*agreed) if agreed is not None
                   and agreed[1] >= reader.rule.threshold else None)
        if reading is None and index is not None:
            reading = named_by_both(scores, index.scores(small, [quad])[0], index.threshold)
        if reading is not None and reading.is_euchre:
            found[k] = replace(observations[k], reading=reading, confidence=reading.confidence)
    return with_fresh_names(observations, found)
