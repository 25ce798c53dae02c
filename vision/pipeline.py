"""The whole recognition pipeline: find every card in a frame and read it."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from vision.card_size import CARD_ASPECT, card_shaped, known_width
from vision.cards import (
    NEXT_CORNER,
    CardObservation,
    Image,
    Quad,
    Rank,
    Reading,
    inside,
    side_lengths,
)
from vision.config import VisionConfig
from vision.corners import (
    CardCorner,
    cards_of_index,
    corner_views,
    find_corners,
)
from vision.deblur_outline import long_side
from vision.decide import decided
from vision.deck_limit import within_deck
from vision.deck_match import read_known_deck
from vision.detect import MaskSet, card_masks, is_even, with_learned_faces
from vision.doubt import doubt_region, in_doubt, merged, on_one_card
from vision.faces import JOKER, FaceSet, builtin_faces
from vision.finder_index import find_by_index
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
from vision.propose import find_cards
from vision.read import read_outline, read_views

CornerRead = tuple[CardObservation, np.ndarray, float]
"""A card read at a loose corner: the observation, the corner's tip and the card's extent."""


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
                     index_finder=None)
    again = clock.prefixed("second look: ")
    with again.stage("masks"):
        height, width = frame.shape[:2]
        region = doubt_region(first, width, height, finder.reach) if finder.reach else None
        masks = with_learned_faces(colour, finder, region)
    return merged(first, _recognise(frame, model, second, again, known, masks, scores))


@lru_cache(maxsize=64)
def config_with(config: VisionConfig, changes: tuple[tuple[str, Any], ...]) -> VisionConfig:
    """`replace(config, **dict(changes))`, kept: each frame derives the same few settings from
    its config, and a replace of the whole config costs about 50 us."""
    return replace(config, **dict(changes))


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
    loose_found: list[CardCorner] = []
    if config.read_corners:
        with clock.stage("loose corners"):
            observations += read_loose_corners(frame, masks, quads, observations, model, config,
                                               loose_found)
    if config.read_corners and config.index_finder:
        with clock.stage("index finder"):
            observations += find_by_index(frame, masks, observations, model, config)
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
                exclude = _cards_area(masks, read, width) if read else None
                # The loose corners' search found them (away from the cards read then); those
                # now on a card read are left out. A corner found again in another mask is
                # shown to the networks once.
                found = (loose_found if config.read_corners
                         else find_corners(masks, config, width, exclude))
                loose: list[CardCorner] = []
                for corner in found:
                    if exclude is not None and _on_area(masks, exclude, corner.tip):
                        continue
                    if not _repeats(corner, loose, width, config):
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
    width = float(np.median([_short_side(q) for q in read])) if read else None
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


def _short_side(quad: Quad) -> float:
    """Length of the shorter side of a card outline."""
    sides = side_lengths(quad - quad[NEXT_CORNER])
    return float(min(sides[0] + sides[2], sides[1] + sides[3]) / 2)


def typical_width(read: list[Quad], quads: list[Quad], config: VisionConfig) -> float | None:
    """The typical card width: of the cards read, or else of the unread outlines.

    An unread outline can be a blob over several cards or a scrap of one, so with a known card
    width (`VisionConfig.card_length`) only outlines near it count (the known width itself when
    none is); without one, the median of them all; None when there are none."""
    if read:
        return float(np.median([_short_side(q) for q in read]))
    known = known_width(config)
    if known is not None:
        band = config.known_card_band
        sized = [w for w in (_short_side(q) for q in quads) if band <= w / known <= 1 / band]
        return float(np.median(sized)) if sized else known
    widths = [_short_side(q) for q in quads]
    return float(np.median(widths)) if widths else None


def corner_widths(read_width: float | None, typical: float | None, corner: CardCorner,
                  config: VisionConfig) -> list[float]:
    """Card widths to try at a corner: the read cards' width; or, when no card was read, the
    unread outlines' typical width, then the corner's own shorter edge. None is narrower than
    the card's longest visible edge allows (a card's side is at most its height)."""
    if read_width is not None:
        widths = [read_width]
    elif typical is not None:
        widths = [typical, corner.shorter_edge]
    else:
        widths = [corner.shorter_edge]
    if not config.corner_width_from_edge:
        return widths
    least = corner.longer_edge * config.card_width / config.card_height
    out: list[float] = []
    for width in widths:
        width = max(width, least)
        if all(abs(width - other) > 0.05 * other for other in out):
            out.append(width)
    return out


def read_loose_corners(
    frame: Image, masks: MaskSet, quads: list[Quad], found: list[CardObservation],
    model: GlyphModel, config: VisionConfig, seen: list[CardCorner] | None = None,
) -> list[CardObservation]:
    """Read cards of which only a corner shows, away from the cards already read; the corners
    found are added to `seen` when it is given."""
    read = [o.corners for o in found if o.reading is not None]
    typical = typical_width(read, quads, config)
    exclude = _cards_area(masks, read, typical) if typical else None
    # A loose corner is read at the level it is named from.
    named_from = config_with(config, (("min_confidence", config.min_loose_confidence),))
    readings: list[CornerRead] = []
    tried: list[CardCorner] = []
    corners = find_corners(masks, config, typical if read else None, exclude)
    if seen is not None:
        seen.extend(corners)
    for corner in corners:
        if _repeats(corner, tried, typical or corner.shorter_edge, config):
            continue
        for width in corner_widths(typical if read else None, typical, corner, config):
            found_here = _read_corner(frame, corner, width, model, named_from)
            if found_here is not None:
                readings.append(found_here)
                break
        tried.append(corner)
    kept: list[CornerRead] = []
    named = [(o.name, o.corners.mean(axis=0)) for o in found if o.name]
    readings = _without_conflicts(readings, config)
    for observation, tip, width in sorted(readings, key=lambda item: -item[0].confidence):
        reach = config.same_card_reach * width
        same_card = [(t, w) for o, t, w in kept if o.name == observation.name]
        if any(np.linalg.norm(tip - t) < config.same_card_reach * max(width, w)
               for t, w in same_card):
            continue
        if any(n == observation.name and np.linalg.norm(tip - c) < reach for n, c in named):
            continue
        kept.append((observation, tip, width))
    return [o for o, _, _ in kept]


def _repeats(corner: CardCorner, tried: list[CardCorner], width: float,
             config: VisionConfig) -> bool:
    """Whether a corner is one already tried, found again (in another mask): its tip within
    `corner_repeat_reach` card widths of that one's and both its edges within
    `corner_repeat_angle` degrees of that one's."""
    reach = config.corner_repeat_reach * width
    cosine = float(np.cos(np.deg2rad(config.corner_repeat_angle)))
    return any(
        float(np.linalg.norm(corner.tip - other.tip)) < reach
        and float(corner.first @ other.first) >= cosine
        and float(corner.second @ other.second) >= cosine
        for other in tried
    )


def _read_corner(
    frame: Image, corner: CardCorner, width: float, model: GlyphModel, config: VisionConfig,
) -> CornerRead | None:
    """The surest reading of a corner's index views (the first sure one ends the search), with
    the corner's tip and card extent; `config.min_confidence` is the least kept."""
    # A card is at least as wide as two thirds of any straight edge seen on it.
    extent = max(width, corner.longer_edge / 1.5)
    best: CornerRead | None = None
    for view, outline in corner_views(frame, corner, width, config):
        reading, confidence = read_views([view], model, config, config.corner_shifts)
        if reading is not None and (best is None or confidence > best[0].confidence):
            best = CardObservation(outline, reading, round(confidence, 3), whole=False), \
                corner.tip, extent
            if confidence >= config.min_loose_confidence:
                break
    return best


def _without_conflicts(
    readings: list[tuple[CardObservation, np.ndarray, float]], config: VisionConfig
) -> list[tuple[CardObservation, np.ndarray, float]]:
    """Drop readings contradicted by a reading that is not much surer: at the same corner, or
    at another corner of the card it implies (one card's two corners read as two cards)."""
    kept = []
    for observation, tip, width in readings:
        rivals = [
            other for other, other_tip, other_width in readings
            if other.name != observation.name
            and (np.linalg.norm(tip - other_tip) < 0.3 * width
                 or _one_card(observation, tip, other, other_tip, min(width, other_width)))
        ]
        if all(observation.confidence - r.confidence >= config.conflict_margin for r in rivals):
            kept.append((observation, tip, width))
    return kept


def _one_card(first: CardObservation, first_tip: np.ndarray, second: CardObservation,
              second_tip: np.ndarray, width: float) -> bool:
    """Whether two loose corners imply one card `width` wide: their cards' centres lie within
    0.3 of its width (an extent guessed from a long edge is left aside)."""
    apart = (implied_centre(first, first_tip, width)
             - implied_centre(second, second_tip, width))
    return bool(np.linalg.norm(apart) < 0.3 * width)


def implied_centre(observation: CardObservation, tip: np.ndarray, width: float) -> np.ndarray:
    """The centre of the card a loose corner's reading implies: from its tip, half the card's
    width along the index box's shorter side and half its length along the longer."""
    box = np.asarray(observation.corners, np.float32).reshape(4, 2)
    k = int(np.argmin(np.linalg.norm(box - tip, axis=1)))
    sides = box[(k + 1) % 4] - box[k], box[(k + 3) % 4] - box[k]
    lengths = [float(np.linalg.norm(side)) for side in sides]
    if min(lengths) == 0.0:
        return np.asarray(tip, np.float32)
    across, down = (0, 1) if lengths[0] <= lengths[1] else (1, 0)
    centre: np.ndarray = box[k] + (sides[across] / lengths[across] * width / 2
                                   + sides[down] / lengths[down] * width / CARD_ASPECT / 2)
    return centre


def _on_area(masks: MaskSet, area: Image, point: np.ndarray) -> bool:
    """Whether a frame point falls on a non-zero pixel of a mask-sized `area`."""
    x, y = np.round(point * masks.scale + masks.pad).astype(int)
    height, width = area.shape[:2]
    return bool(0 <= x < width and 0 <= y < height and area[y, x])


def _cards_area(masks: MaskSet, quads: list[Quad], width: float) -> Image:
    """Mask of the outlined cards, grown by a tenth of a card width, in mask pixels."""
    area = np.zeros_like(masks.masks[0])
    grow = max(3, round(0.2 * width * masks.scale) | 1)
    for quad in quads:
        points = np.round(quad * masks.scale + masks.pad).astype(np.int32)
        cv2.fillPoly(area, [points], 255)
        # A thick outline with round ends grows the card as a dilation by a disc would.
        cv2.polylines(area, [points], True, 255, grow, cv2.LINE_8)
    return area


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
