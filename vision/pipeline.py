"""The whole recognition pipeline: find every card in a frame and read it."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace

import cv2
import numpy as np

from vision.card_size import card_shaped
from vision.cards import CardObservation, Image, Quad, Rank, Reading, inside
from vision.config import VisionConfig, config_with
from vision.corners import CardCorner, cards_of_index, find_corners
from vision.deblur_outline import long_side
from vision.decide import decided
from vision.deck_limit import within_deck
from vision.deck_match import read_known_deck
from vision.detect import MaskSet, card_masks, is_even, with_learned_faces
from vision.doubt import doubt_region, in_doubt, merged, on_one_card
from vision.faces import JOKER, FaceSet, builtin_faces
from vision.finder_corners import cards_area, on_area, repeats, short_side, typical_width
from vision.learned import CardScores, checked, decide, shipped_reader, surer_of
from vision.learned_corners import named_at_corners
from vision.learned_first import LearnedViews, learned_views, outline_key, sharing
from vision.learned_index import (
    index_support,
    kept_by_one_end,
    named_with_index,
    shipped_index_reader,
    vouched_by_index,
)
from vision.learned_large import named_large, shrunk
from vision.model import GlyphModel
from vision.outline_fit import fitted_outline
from vision.outline_lines import cards_within
from vision.pips import checked_by_pips
from vision.propose import PartSearch, find_cards, part_finders_of
from vision.read import read_outline


def read_frame(
    frame: Image, model: GlyphModel, config: VisionConfig | None = None,
    stages: StageClock | None = None, settled: Sequence[CardObservation] = (),
    scores: LearnedViews | None = None,
) -> list[CardObservation]:
    """Return an observation for every card found in a BGR frame, each name with the
    confidence of the stage that gave it (`recognise`: with the decision's instead; the CPU
    time of each stage added to `stages` when given).

    `settled` are named cards the caller knows to lie still as they were read (a tracker's
    placed cards where the view did not change): an outline found where one of them lies
    (`same_outline`) is that observation itself, returned as it is and not read again. One
    the frame's edge cuts (the watcher reading a part of its view) is returned as it is, and
    what is found on it is a part of it, not read.

    With the learned finder looking only in doubt (`LearnedFinderConfig.in_doubt`), the frame
    is read first without it; where that leaves something unread, it is read again with it,
    and only the fresh names of that second look are added (`vision.doubt.merged`).

    The networks' scores of the frame's quads are kept in `scores` when given (the frame's
    own, `learned_first.sharing`), for every look and for the decision after."""
    config = config or VisionConfig()
    finder = config.learned_finder
    if finder is None or not finder.in_doubt:
        return _recognise(frame, model, config, stages, settled, scores=scores)
    clock = stages or StageClock(enabled=False)
    colour_only = config_with(config, (("learned_finder", None),))
    with clock.stage("masks"):
        colour = card_masks(frame, colour_only)
    first = _recognise(frame, model, colour_only, clock, settled, colour, scores)
    if not in_doubt(first):
        return first
    known = [*settled, *(o for o in first if o.name and o.whole)]
    # The first look searched the light for indices already: the second adds the outlines
    # the learned finder sees.
    second = replace(config, learned_finder=replace(finder, in_doubt=False),
                     finders=tuple(name for name in config.finders if name != "index"))
    again = clock.prefixed("second look: ")
    with again.stage("masks"):
        height, width = frame.shape[:2]
        region = doubt_region(first, width, height, finder.reach) if finder.reach else None
        masks = with_learned_faces(colour, finder, region)
    return merged(first, _recognise(frame, model, second, again, known, masks, scores))



def _recognise(
    frame: Image, model: GlyphModel, config: VisionConfig,
    stages: StageClock | None, settled: Sequence[CardObservation],
    masks: MaskSet | None = None, scores: LearnedViews | None = None,
) -> list[CardObservation]:
    """One look at the frame with the given settings (`recognise`), in `masks` when they are
    made already, the networks' scores kept in `scores` when given."""
    clock = stages or StageClock(enabled=False)
    faces = builtin_faces() + model.faces
    if masks is None:
        with clock.stage("masks"):
            masks = card_masks(frame, config)
    observations = []
    with clock.stage("outlines"):
        quads = find_cards(frame, config, masks)
    # A settled card the frame's edge cuts is kept as it was read; an outline found on it is a
    # part of it.
    cut = [o for o in settled if not within_frame(o.corners, frame)]
    quads = [q for q in quads if not any(inside(np.mean(q, axis=0), o.corners) for o in cut)]
    observations += cut
    kept: set[int] = {id(o) for o in cut}
    views = sharing(frame, shipped_reader(), scores) if config.learned_reader else None
    if views is not None and config.learned_first:
        with clock.stage("learned first"):
            views = learned_views(frame, [q for q in quads if not any(
                same_outline(o.corners, q) for o in settled)], views.reader, config,
                shipped_index_reader() if config.learned_index else None, scores)
    sure = views.is_sure if views is not None else _never
    first_look = config_with(config, (("second_look_shifts", ()), ("blurred_outline_growth", 0.0)))
    provisional: set[bytes] = set()
    """Outlines the glyph reader left unread that carry the network's sure name meanwhile."""
    with clock.stage("read outlines"):
        for corners in quads:
            known = next((o for o in settled if same_outline(o.corners, corners)), None)
            if known is not None and id(known) not in kept:
                kept.add(id(known))
                observations.append(known)
                continue
            if (config.card_length
                    and long_side(corners) > config.known_card_longest * config.card_length):
                observations.append(CardObservation(corners, None, 0.0))
                continue
            alone = views.alone_reading(corners) if views is not None else None
            if (config.learned_skip_plain and alone is not None and views is not None
                    and (alone.rank in (Rank.NINE, Rank.TEN, Rank.ACE)
                         or views.court_backed(corners))):
                # A glyph reading could only agree, or be vetoed: the network names it alone.
                observations.append(CardObservation(corners, alone, alone.confidence))
                provisional.add(outline_key(corners))
                continue
            if (config.learned_skip_plain and config.learned_skip_agreed is not None
                    and views is not None
                    and views.agreed_at(corners) >= config.learned_skip_agreed):
                # Both networks name it: the learned check names it by them.
                both = views.sure_reading(corners)
                observations.append(CardObservation(corners, both,
                                                    both.confidence if both else 0.0))
                provisional.add(outline_key(corners))
                continue
            reading, confidence = read_outline(frame, corners, model,
                                               first_look if sure(corners) else config)
            if reading is None and faces.has_joker:
                reading, confidence = read_joker(frame, corners, faces, config)
            if reading is None and views is not None and sure(corners):
                # Named for the searches that follow, as a card read is; the learned check
                # then names it by the network alone.
                reading = views.sure_reading(corners)
                confidence = reading.confidence if reading else 0.0
                provisional.add(outline_key(corners))
            observations.append(CardObservation(corners, reading, round(confidence, 3)))
    parts = PartSearch(frame, masks, model, config, quads, observations)
    part_finders = part_finders_of(config)
    for part_finder in part_finders:
        with clock.stage(f"{part_finder.name} finder"):
            observations += part_finder.read(parts)
    if views is not None:
        with clock.stage("learned check"):
            observations = [replace(o, reading=None, confidence=0.0)
                            if o.whole and outline_key(o.corners) in provisional else o
                            for o in observations]
            seen = views
            observations = _apart(observations, kept, lambda fresh: checked_by_learned(
                frame, fresh, config, seen))
    if config.outline_fit is not None:
        with clock.stage("fitted outlines"):
            settled_here = [o for o in observations if id(o) in kept]
            observations = _apart(observations, kept, lambda fresh: fitted_unread(
                frame, fresh, model, config, views, settled_here))
    if config.learned_corners is not None and views is not None and config.learned_index:
        read = [o.corners for o in observations if o.reading is not None and o.whole]
        width = typical_width(read, quads, config)
        if width is not None:
            with clock.stage("network corners"):
                exclude = cards_area(masks, read, width) if read else None
                # The loose corners' search found them (away from the cards read then); those
                # now on a card read are left out. A corner found again in another mask is
                # shown to the networks once.
                found = (parts.corners if any(f.name == "corners" for f in part_finders)
                         else find_corners(masks, config, width, exclude))
                loose: list[CardCorner] = []
                for corner in found:
                    if exclude is not None and on_area(masks, exclude, corner.tip):
                        continue
                    if not repeats(corner, loose, width, config):
                        loose.append(corner)
                observations = named_at_corners(frame, observations, loose, views,
                                                shipped_index_reader(), width, config,
                                                config.learned_corners)
    with clock.stage("known deck"):
        observations = read_known_deck(frame, observations, model.deck, read_before=kept,
                                       reader=views.reader if views is not None else None)
    if config.pip_count is not None:
        pip_count = config.pip_count
        with clock.stage("pips"):
            observations = _apart(observations, kept, lambda fresh: checked_by_pips(
                frame, fresh, pip_count, views.pips if views is not None else None))
    return observations


def within_frame(corners: Quad, frame: Image) -> bool:
    """Whether the outline lies inside the frame."""
    quad = np.asarray(corners, np.float32).reshape(-1, 2)
    height, width = frame.shape[:2]
    return bool(quad.min() >= 0 and quad[:, 0].max() <= width and quad[:, 1].max() <= height)


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
            if quad is None or not (card_shaped(quad, None, config,
                                                (config.min_aspect, config.max_aspect))
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


def same_outline(known: Quad, found: Quad, reach: float = 0.03) -> bool:
    """Whether two outlines are one card lying still: every corner of one within `reach` of
    the card's long side of a corner of the other, in turn."""
    limit = reach * long_side(known)
    known_points = np.asarray(known, np.float32).reshape(4, 2)
    found_points = np.asarray(found, np.float32).reshape(4, 2)
    # Corners each within the limit put the centres within it too: most pairs end here.
    centres = found_points.mean(axis=0) - known_points.mean(axis=0)
    if float(centres @ centres) > limit * limit:
        return False
    for turn in range(4):
        apart = np.linalg.norm(np.roll(found_points, turn, axis=0) - known_points, axis=1)
        if float(apart.max()) <= limit:
            return True
    return False


def _apart(observations: list[CardObservation], kept: set[int],
           stage: Callable[[list[CardObservation]], list[CardObservation]]
           ) -> list[CardObservation]:
    """The observations after a stage that sees only those not kept from before (`kept`:
    their ids); the kept ones come first, unchanged."""
    if not kept:
        return stage(observations)
    before = [o for o in observations if id(o) in kept]
    return before + stage([o for o in observations if id(o) not in kept])


class StageClock:
    """CPU time (this thread's) and calls per stage of recognition, summed over calls."""

    def __init__(self, enabled: bool = True, prefix: str = "") -> None:
        self.enabled = enabled
        self.prefix = prefix
        self.seconds: dict[str, float] = {}
        self.calls: dict[str, int] = {}

    def prefixed(self, prefix: str) -> StageClock:
        """The same clock, its stages named with `prefix` before them (a second look)."""
        other = StageClock(self.enabled, self.prefix + prefix)
        other.seconds, other.calls = self.seconds, self.calls
        return other

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        """Time the block as stage `name`."""
        if not self.enabled:
            yield
            return
        start = time.thread_time()
        try:
            yield
        finally:
            key = self.prefix + name
            self.seconds[key] = self.seconds.get(key, 0.0) + time.thread_time() - start
            self.calls[key] = self.calls.get(key, 0) + 1


def _never(quad: Quad) -> bool:
    """No outline is named surely (no learned reader)."""
    return False


def checked_by_learned(frame: Image, observations: list[CardObservation],
                       config: VisionConfig, views: LearnedViews | None = None
                       ) -> list[CardObservation]:
    """Every card named only where the learned reader's cues agree (vision.learned); `views`
    holds the scores of outlines the network has seen already."""
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
                                  (config.index_one_end_glyph, config.index_one_end,
                                   config.index_one_end_suit),
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
                          shipped_index_reader() if config.learned_index else None)
    return out


def read_joker(
    frame: Image, corners: Quad, faces: FaceSet, config: VisionConfig
) -> tuple[Reading | None, float]:
    """The joker, when the outlined card's face matches a known joker face closely enough."""
    match = faces.match(frame, corners)
    if (match is None or match.label != JOKER or match.similarity < config.min_joker_similarity
            or match.margin < config.min_face_margin):
        return None, 0.0
    span = 1.0 - config.min_joker_similarity
    confidence = 0.5 + 0.5 * min(1.0, (match.similarity - config.min_joker_similarity) / span)
    return Reading(Rank.JOKER, None, round(confidence, 3)), confidence


def recognise(
    frame: Image, model: GlyphModel, config: VisionConfig | None = None,
    stages: StageClock | None = None, settled: Sequence[CardObservation] = (),
) -> list[CardObservation]:
    """Return an observation for every card found in a BGR frame (`read_frame`), each fresh
    name's confidence the calibrated probability that it is right (`vision.decide.decided`,
    knowing the model's enrolled deck: the table takes names from the decision's threshold),
    and no card named more often than the deck holds it (`vision.deck_limit.within_deck`)."""
    config = config or VisionConfig()
    scores = LearnedViews(frame, shipped_reader())
    observations = read_frame(frame, model, config, stages, settled, scores)
    with (stages or StageClock(enabled=False)).stage("decision"):
        return within_deck(decided(frame, observations, config, settled, model.deck, scores),
                           config.copies)
