"""The learned reader's look at every whole card before the glyph reader's rescue stages."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vision.card_size import card_shaped
from vision.cards import Image, Quad, Reading
from vision.config import VisionConfig
from vision.deblur_outline import long_side
from vision.learned import COURTS, CardScores, LearnedReader, reading_of
from vision.learned_index import IndexReader, named_by_both
from vision.pips import PipReads


def _key(quad: Quad) -> bytes:
    """A quad's identity in the cache: its corners' bytes."""
    return np.ascontiguousarray(quad, np.float32).tobytes()


@dataclass
class LearnedViews:
    """The network's scores of a frame's outlines, each quad scored once, and which of them it
    names surely (both views at `sure_at` or more on a euchre card or the joker)."""

    frame: Image
    reader: LearnedReader
    sure_at: float = 2.0
    """Above 1: no card is sure (the rescue stages run everywhere)."""
    scored: dict[bytes, CardScores] = field(default_factory=dict)
    agreed: dict[bytes, Reading] = field(default_factory=dict)
    """Outlines the card reader alone is not sure of that both readers name alike
    (`vision.learned_index.named_by_both`): sure as well."""
    index_scored: dict[bytes, CardScores] = field(default_factory=dict)
    """The index reader's scores of the outlines it has been shown."""
    index_backed: set[bytes] = field(default_factory=set)
    """Outlines of a court the card reader names surely that the index reader names alike
    (`court_backed`)."""
    pips: PipReads = field(default_factory=dict)
    """The pips read on the frame's outlines (`vision.pips.read_once`), for the pip stage and
    the decision's cue alike."""

    def scores(self, quads: list[Quad]) -> list[CardScores]:
        """The scores of each quad; those not scored before are scored in one pass."""
        fresh = list({_key(q): q for q in quads if _key(q) not in self.scored}.items())
        for (key, _), found in zip(fresh, self.reader.scores(self.frame, [q for _, q in fresh]),
                                   strict=True):
            self.scored[key] = found
        return [self.scored[_key(q)] for q in quads]

    def index_scores(self, index: IndexReader, quads: list[Quad]) -> list[CardScores]:
        """The index reader's scores of each quad; those not scored before are scored in one
        pass."""
        fresh = list({_key(q): q for q in quads if _key(q) not in self.index_scored}.items())
        for (key, _), found in zip(fresh, index.scores(self.frame, [q for _, q in fresh]),
                                   strict=True):
            self.index_scored[key] = found
        return [self.index_scored[_key(q)] for q in quads]

    def is_sure(self, quad: Quad) -> bool:
        """Whether the network, shown this outline before, names its card surely."""
        return self.sure_reading(quad) is not None

    def alone_reading(self, quad: Quad) -> Reading | None:
        """The card the card network alone names surely in this outline, shown it before."""
        found = self.scored.get(_key(quad))
        agreed = found.agreed() if found is not None else None
        return (reading_of(*agreed) if agreed is not None and agreed[1] >= self.sure_at
                else None)

    def agreed_at(self, quad: Quad) -> float:
        """The lower joint probability at which both readers name this outline alike where
        the card reader alone is not sure of it; 0 where they do not."""
        agreed = self.agreed.get(_key(quad))
        return agreed.confidence if agreed is not None else 0.0

    def court_backed(self, quad: Quad) -> bool:
        """Whether the card reader names a court surely in this outline and the index reader,
        shown it at the first look, names it alike."""
        return _key(quad) in self.index_backed

    def sure_reading(self, quad: Quad) -> Reading | None:
        """The card the network names surely in this outline, shown it before; else None."""
        return self.alone_reading(quad) or self.agreed.get(_key(quad))


def sharing(frame: Image, reader: LearnedReader, cache: LearnedViews | None,
            sure_at: float = 2.0) -> LearnedViews:
    """Views of the frame that keep their scores and pip readings in `cache`'s (the frame's
    own, when it is of this frame and reader): each quad is shown to each network and counted
    once, whichever stage asks."""
    if cache is None or cache.frame is not frame or cache.reader is not reader:
        return LearnedViews(frame, reader, sure_at)
    return LearnedViews(frame, reader, sure_at, scored=cache.scored,
                        index_scored=cache.index_scored, pips=cache.pips)


def outline_key(quad: Quad) -> bytes:
    """An outline's identity across stages: its corners' bytes."""
    return _key(quad)


def learned_views(frame: Image, quads: list[Quad], reader: LearnedReader,
                  config: VisionConfig, index: IndexReader | None = None,
                  cache: LearnedViews | None = None) -> LearnedViews:
    """The network's look at every outline of its size (`learned_max_length`) when
    `learned_first` is set, and the index reader's (when given) at those of a card's shape it
    is not sure of; otherwise views in which no card is sure. Scores are kept in `cache`'s
    (`sharing`)."""
    rule = reader.rule
    if not config.learned_first:
        return sharing(frame, reader, cache)
    views = sharing(frame, reader, cache, rule.threshold)
    sized = [q for q in quads if long_side(q) <= config.learned_max_length]
    views.scores(sized)
    if index is not None:
        shaped = [q for q in sized if card_shaped(q, None, config)]
        unsure = [q for q in shaped if not views.is_sure(q)]
        courts = [q for q in shaped if config.learned_skip_courts and _sure_court(views, q)]
        corners = views.index_scores(index, unsure + courts)
        for quad, corner in zip(unsure, corners, strict=False):
            both = named_by_both(views.scored[_key(quad)], corner, index.threshold)
            if both is not None:
                views.agreed[_key(quad)] = both
        for quad, corner in zip(courts, corners[len(unsure):], strict=True):
            both = named_by_both(views.scored[_key(quad)], corner, index.threshold)
            alone = views.alone_reading(quad)
            if both is not None and alone is not None and both.name == alone.name:
                views.index_backed.add(_key(quad))
    return views


def _sure_court(views: LearnedViews, quad: Quad) -> bool:
    """Whether the card reader alone names a jack, queen or king surely in this outline."""
    alone = views.alone_reading(quad)
    return alone is not None and alone.rank.value in COURTS
