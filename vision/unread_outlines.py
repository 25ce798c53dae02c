"""Unread outlines fitted again: each whole outline no stage named, refitted to the card's own
edges (`vision.outline_fit`) and, where larger than the cards read, looked in for cards of
straight lines (`vision.outline_lines`); each outline so found is read as any outline is."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.card_size import beside_known_cards, card_shaped
from vision.cards import CardObservation, Image, Quad
from vision.config import VisionConfig
from vision.deblur_outline import long_side
from vision.detect import is_even
from vision.doubt import on_one_card
from vision.finder_corners import short_side
from vision.learned import decide
from vision.learned_check import checked_by_learned
from vision.learned_first import LearnedViews
from vision.learned_large import shrunk
from vision.model import GlyphModel
from vision.outline_fit import fitted_outline
from vision.outline_lines import cards_within
from vision.read import read_outline


def fitted_unread(frame: Image, observations: list[CardObservation], model: GlyphModel,
                  config: VisionConfig, views: LearnedViews | None,
                  elsewhere: Sequence[CardObservation] = ()) -> list[CardObservation]:
    """The observations with each whole outline left unread by every stage fitted to the
    card's own edges (`vision.outline_fit`), and one larger than the cards read looked in for
    cards of straight lines (`vision.outline_lines`), each read there as any outline is (the
    glyph reader, then the learned check). It is replaced only where these name one card and
    nothing named lies there (the cards' size is judged with `elsewhere` too: cards settled
    before); a card covering under `rest_share` of it is added beside it instead, and it stays
    unread."""
    fit = config.outline_fit
    unread = [k for k, o in enumerate(observations) if o.whole and o.reading is None]
    if fit is None or not unread:
        return observations
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    # The cards named in the frame, those settled before (`elsewhere`) too, give the cards'
    # size.
    read = [o.corners for o in (*observations, *elsewhere) if o.whole and o.reading is not None]
    width = float(np.median([short_side(q) for q in read])) if read else None
    card_area = float(np.median([_area(q) for q in read])) if read else 0.0
    tried: list[tuple[int, CardObservation]] = []
    alone: list[tuple[int, CardObservation]] = []
    """Cards of the lines within an outline, each checked apart: several quads of one card
    would each be named by the network alone, and a name so given twice is given to none."""
    for k in unread:
        corners = observations[k].corners
        fitted = fitted_outline(gray, corners, fit)
        # An outline no larger than the cards read holds no more than one card: the lines in
        # it are its own sides.
        lines = (cards_within(gray, corners, config, width, fit.lines_within,
                              fit.lines_min_inside)
                 if fit.lines_within and _area(corners) > fit.lines_min_area * card_area
                 else [])
        for quad in [fitted, *lines]:
            if quad is None or beside_known_cards(quad, read, config) or not (
                    card_shaped(quad, None, config, (config.min_aspect, config.max_aspect))
                    and is_even(quad, config.max_side_ratio)):
                continue
            seen = _read_refitted(frame, quad, model, config, views)
            (tried if quad is fitted else alone).append((k, seen))
    if not tried and not alone:
        return observations
    found = [o for _, o in tried]
    if views is not None:
        found = checked_by_learned(frame, found, config, views) if found else []
        found += [checked_by_learned(frame, [o], config, views)[0] for _, o in alone]
    else:
        found += [o for _, o in alone]
    tried += alone
    named: dict[int, list[CardObservation]] = {}
    for (k, _), observation in zip(tried, found, strict=True):
        if observation.reading is not None:
            named.setdefault(k, []).append(observation)
    out: list[CardObservation | None] = list(observations)
    beside: list[CardObservation] = []
    for k, choices in named.items():
        # A name from one end yields to a card read whole in the same outline.
        choices = [o for o in choices if not o.one_end] or choices
        if len({o.name for o in choices}) > 1:
            continue  # the fit and the lines name different cards: it stays unread
        observation = choices[0]
        on = [n for n, other in enumerate(out) if n != k and other is not None
              and other.reading is not None and on_one_card(observation.corners, other.corners)]
        # A card named there already: the fit is a piece of it, or of another card.
        if any(out[n].whole or out[n].name != observation.name for n in on):  # type: ignore[union-attr]
            continue
        if _area(observation.corners) < fit.rest_share * _area(observations[k].corners):
            # The outline held more than this card (a card on a card): it stays unread.
            beside.append(observation)
        else:
            out[k] = observation
        # A loose corner of the same name on the fitted card is that card's index.
        for n in on:
            out[n] = None
    return [o for o in out if o is not None] + beside


def _area(quad: Quad) -> float:
    """A quad's area in pixels."""
    return float(cv2.contourArea(np.asarray(quad, np.float32).reshape(-1, 1, 2)))


def _read_refitted(frame: Image, quad: Quad, model: GlyphModel, config: VisionConfig,
                   views: LearnedViews | None) -> CardObservation:
    """A refitted outline read by the glyph reader (above the learned reader's size, backed by
    the network on a shrunk view too)."""
    reading, confidence = read_outline(frame, quad, model, config)
    if views is not None and long_side(quad) > config.learned_max_length:
        # A close-up: the network, shown it shrunk, must back the glyph name here too.
        small, part = shrunk(frame, quad, config.learned_large_length)
        rule = views.reader.rule
        reading = decide(reading, views.reader.scores(small, [part])[0], rule.threshold,
                         rule.support, rule.courts)
        confidence = reading.confidence if reading is not None else 0.0
    return CardObservation(quad, reading, round(confidence, 3))
