"""The learned check: every name the glyph reader gave kept only where the networks' cues agree.

The card network must back each whole card's glyph name (`vision.learned.checked`); a loose
corner too weak to be named alone is shown to it as the card it implies, and to the index
network. Then the index network vouches for glyph names and keeps names read at one end, the
pips count a name kept by one end, the index network names outlines the glyph reader left
unread, and close-ups are shown shrunk (`vision.learned_index`, `vision.learned_large`).
"""

from __future__ import annotations

from collections.abc import Sequence

from vision.card_size import card_shaped
from vision.cards import CardObservation, Image
from vision.config import VisionConfig
from vision.corners import cards_of_index
from vision.deblur_outline import long_side
from vision.learned import CardScores, checked, shipped_reader, surer_of
from vision.learned_first import LearnedViews
from vision.learned_index import (
    index_support,
    kept_by_one_end,
    named_with_index,
    shipped_index_reader,
    vouched_by_index,
)
from vision.learned_large import named_large
from vision.pips import checked_by_pips


def checked_by_learned(frame: Image, observations: list[CardObservation],
                       config: VisionConfig, views: LearnedViews | None = None,
                       elsewhere: Sequence[CardObservation] = ()) -> list[CardObservation]:
    """Every card named only where the learned reader's cues agree (vision.learned); `views`
    holds the scores of outlines the network has seen already, `elsewhere` the cards settled
    before (for the cards' length)."""
    views = views or LearnedViews(frame, shipped_reader())
    rule = views.reader.rule
    whole = [k for k, o in enumerate(observations) if o.whole]
    large = {k for k in whole if long_side(observations[k].corners) > config.learned_max_length}
    whole = [k for k in whole if k not in large]
    # A loose corner too weak to be named alone is shown to the network as the card it implies.
    loose = [k for k, o in enumerate(observations) if not o.whole and o.reading is not None
             and rule.loose_backed <= o.confidence < rule.loose]
    quads = [observations[k].corners for k in whole]
    for k in loose:
        quads += cards_of_index(observations[k].corners, config)
    found = views.scores(quads)
    scores: list[CardScores | None] = [None] * len(observations)
    for k, card_scores in zip(whole, found, strict=False):
        scores[k] = card_scores
    for n, k in enumerate(loose):
        scores[k] = surer_of(found[len(whole) + 2 * n:len(whole) + 2 * n + 2],
                             observations[k].reading, rule.courts)
    backed: frozenset[int] = frozenset()
    if config.learned_index and loose:
        index = shipped_index_reader()
        readings = [observations[k].reading for k in loose]
        support = index_support(frame, [observations[k].corners for k in loose],
                                [r for r in readings if r is not None], index, config,
                                lambda quads: views.index_scores(index, quads))
        backed = frozenset(k for k, level in zip(loose, support, strict=True)
                           if level >= index.loose_support)
    out = checked(observations, scores, rule, backed)
    if config.learned_index and config.index_vouch is not None:
        out = vouched_by_index(observations, out, config.index_vouch,
                               lambda quads: views.index_scores(shipped_index_reader(), quads))
    out = [observations[k] if k in large else o for k, o in enumerate(out)]
    if config.learned_index:
        index = shipped_index_reader()
        if config.index_one_end is not None:
            out = kept_by_one_end(observations, out, dict(zip(whole, found, strict=False)),
                                  lambda quads: views.index_scores(index, quads),
                                  config.index_one_end,
                                  lambda quad: card_shaped(quad, None, config))
            if config.pip_count is not None:
                # Counted now, not only at the end: a name the pips withdraw then would have
                # kept the same name from a card's corner found meanwhile.
                pip_count = config.pip_count
                out = [checked_by_pips(frame, [o], pip_count, views.pips)[0] if o.one_end
                       else o for o in out]
        out = named_with_index(frame, out, dict(zip(whole, found, strict=False)), index, config,
                               lambda quads: views.index_scores(index, quads))
    if config.learned_large_length > 0:
        out = named_large(frame, out, views.reader, config,
                          shipped_index_reader() if config.learned_index else None, elsewhere)
    return out
