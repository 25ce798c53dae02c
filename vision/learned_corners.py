"""Loose corners named by both networks: the index corner of a card left unread (under another
card, in a fan), shown to each network as the card it implies."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from vision.cards import CardObservation, Image, Quad, Rank, Reading
from vision.config import LearnedCornersConfig, VisionConfig
from vision.corners import CardCorner
from vision.learned import CardScores, reading_of
from vision.learned_first import LearnedViews
from vision.learned_index import IndexReader


@dataclass(frozen=True)
class CornerName:
    """One hypothesis at a loose corner named by both networks."""

    reading: Reading
    tip: np.ndarray
    index_box: Quad


def implied_card(corner: CardCorner, first_is_short: bool, width: float, aspect: float) -> Quad:
    """The whole card `width` wide and `aspect` times as long whose top-left corner
    (`first_is_short`) or top-right corner is the corner's tip, clockwise from its top-left."""
    if first_is_short:
        across, down, top_left = corner.first, corner.second, corner.tip
    else:
        across, down, top_left = -corner.second, corner.first, corner.tip + corner.second * width
    height = width * aspect
    return np.array([top_left, top_left + across * width,
                     top_left + across * width + down * height, top_left + down * height],
                    np.float32)


def index_box(card: Quad, config: VisionConfig) -> Quad:
    """The index corner of an upright card (`index_width` x `index_height` of it), as the loose
    corners' outlines are."""
    top_left = card[0]
    across, down = card[1] - card[0], card[3] - card[0]
    wide, deep = across * config.index_width, down * config.index_height
    return np.array([top_left, top_left + wide, top_left + wide + deep, top_left + deep],
                    np.float32)


def upright_reading(card: CardScores, index: CardScores) -> Reading | None:
    """The card both networks name in the upright view, with the lower of their probabilities
    of it; None where they differ or name no card of a suit."""
    name = card.names()[0]
    if name != index.names()[0]:
        return None
    reading = reading_of(name, 1.0)
    if reading is None or reading.suit is None:
        return None
    level = min(card.view_support(0, reading), index.view_support(0, reading))
    return reading_of(name, level)


def widths_at(corner: CardCorner, width: float, rule: LearnedCornersConfig) -> list[float]:
    """The card widths tried at a corner: the typical card width, and each of the corner's
    visible edges within `rule.edge_match` of it (an outline grown by blur or shadow makes the
    typical width a little too wide; a card's top edge seen whole is its width)."""
    widths = [width]
    for edge in (corner.shorter_edge, corner.longer_edge):
        if (abs(edge - width) <= rule.edge_match * width
                and all(abs(edge - other) > 0.03 * other for other in widths)):
            widths.append(edge)
    return widths


def worth_naming(reading: Reading, rule: LearnedCornersConfig) -> bool:
    """Whether both networks' reading at a corner names its card: `rule.least` or more, and
    never a nine (a ten's pips seen sideways are a nine to both)."""
    return reading.rank != Rank.NINE and reading.confidence >= rule.least


def named_corners(frame: Image, corners: list[CardCorner], views: LearnedViews,
                  index: IndexReader, width: float, config: VisionConfig,
                  rule: LearnedCornersConfig) -> list[CornerName]:
    """The hypotheses asked at each corner (top-left, True, and top-right, False, at the widths
    `widths_at` gives) whose card both networks name in their upright view at `rule.least` or
    more, never a nine (`VisionConfig.learned_corners`)."""
    aspect = config.card_height / config.card_width
    hypotheses = [(corner, implied_card(corner, first_is_short, across, aspect))
                  for corner in corners for across in widths_at(corner, width, rule)
                  for first_is_short in (True, False)]
    # The index network's small views go first; the card network sees only what it names.
    named = [(corner, quad, at_index) for (corner, quad), at_index
             in zip(hypotheses, views.index_scores(index, [q for _, q in hypotheses]),
                    strict=True)
             if (reading := index_reading(at_index)) is not None and worth_naming(reading, rule)]
    found = []
    for (corner, quad, at_index), card in zip(named, views.scores([q for _, q, _ in named]),
                                              strict=True):
        both = upright_reading(card, at_index)
        if both is not None and worth_naming(both, rule):
            found.append(CornerName(both, corner.tip, index_box(quad, config)))
    return found


def index_reading(at_index: CardScores) -> Reading | None:
    """The card of a suit the index network names in its upright view, at its probability."""
    reading = reading_of(at_index.names()[0], 1.0)
    if reading is None or reading.suit is None:
        return None
    return replace(reading, confidence=round(at_index.view_support(0, reading), 3))


def named_at_corners(frame: Image, observations: list[CardObservation],
                     corners: list[CardCorner], views: LearnedViews, index: IndexReader,
                     width: float, config: VisionConfig,
                     rule: LearnedCornersConfig) -> list[CardObservation]:
    """The observations with a card added, not whole, for each name `named_corners` gives at
    the corners that `fresh_names` keeps."""
    found = named_corners(frame, corners, views, index, width, config, rule)
    return observations + [CardObservation(n.index_box, n.reading, n.reading.confidence,
                                           whole=False)
                           for n in fresh_names(found, rule.rival_reach * width)]


def fresh_names(found: list[CornerName], reach: float) -> list[CornerName]:
    """The names found, but where another name is found within `reach` pixels of the corner
    (one corner read two ways); a name found at several corners is kept once, at its surest."""
    kept: dict[str, CornerName] = {}
    for name in sorted(found, key=lambda n: -n.reading.confidence):
        card = name.reading.name
        rivals = [other for other in found if other.reading.name != card
                  and float(np.linalg.norm(other.tip - name.tip)) < reach]
        if card in kept or rivals:
            continue
        kept[card] = name
    return list(kept.values())
