"""The whole recognition pipeline: find every card in a frame and read it."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace

import numpy as np

from vision.card_size import longer_than_a_card
from vision.cards import CardObservation, Image, Quad, Rank, Reading, inside
from vision.config import VisionConfig, config_with
from vision.corners import CardCorner, find_corners
from vision.deblur_outline import long_side
from vision.decide import decided
from vision.deck_limit import within_deck
from vision.deck_match import read_known_deck
from vision.detect import MaskSet, card_masks, with_learned_faces
from vision.doubt import doubt_region, in_doubt, merged
from vision.faces import JOKER, FaceSet, builtin_faces
from vision.finder_corners import cards_area, on_area, repeats, typical_width
from vision.learned import shipped_reader
from vision.learned_check import checked_by_learned
from vision.learned_corners import named_at_corners
from vision.learned_first import LearnedViews, learned_views, outline_key, sharing
from vision.learned_index import shipped_index_reader
from vision.model import GlyphModel
from vision.pips import checked_by_pips
from vision.propose import PartSearch, find_cards, part_finders_of
from vision.read import read_outline
from vision.unread_outlines import fitted_unread

LOOKED_REACH = 0.1
"""How far (in card lengths) the corners of an outline a second look has seen may move, as a
changing light redraws it, and still be found again as it was."""


def read_frame(
    frame: Image, model: GlyphModel, config: VisionConfig | None = None,
    stages: StageClock | None = None, settled: Sequence[CardObservation] = (),
    scores: LearnedViews | None = None, looked: Sequence[CardObservation] = (),
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
    and only the fresh names of that second look are added (`vision.doubt.merged`). What a
    second look has seen before (`looked`: observations it left in doubt) leaves no doubt
    where it is found again as it was (`same_outline` within `LOOKED_REACH`, with the same name
    or none).

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
    doubtful = [o for o in first if not any(
        o.name == seen.name and same_outline(seen.corners, o.corners, LOOKED_REACH)
        for seen in looked)]
    if not in_doubt(doubtful):
        return first
    known = [*settled, *(o for o in first if o.name and o.whole)]
    # The first look searched the light for indices already: the second adds the outlines
    # the learned finder sees.
    second = replace(config, learned_finder=replace(finder, in_doubt=False),
                     finders=tuple(name for name in config.finders if name != "index"))
    again = clock.prefixed("second look: ")
    with again.stage("masks"):
        height, width = frame.shape[:2]
        region = doubt_region(doubtful, width, height, finder.reach) if finder.reach else None
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
            if longer_than_a_card(corners, config):
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
            before = [o for o in observations if id(o) in kept]
            observations = _apart(observations, kept, lambda fresh: checked_by_learned(
                frame, fresh, config, seen, before))
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
                                       reader=views.reader if views is not None else None,
                                       card_length=config.card_length)
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
    looked: Sequence[CardObservation] = (),
) -> list[CardObservation]:
    """Return an observation for every card found in a BGR frame (`read_frame`), each fresh
    name's confidence the calibrated probability that it is right (`vision.decide.decided`,
    knowing the model's enrolled deck: the table takes names from the decision's threshold),
    and no card named more often than the deck holds it (`vision.deck_limit.within_deck`)."""
    config = config or VisionConfig()
    scores = LearnedViews(frame, shipped_reader())
    observations = read_frame(frame, model, config, stages, settled, scores, looked)
    with (stages or StageClock(enabled=False)).stage("decision"):
        return within_deck(decided(frame, observations, config, settled, model.deck, scores),
                           config.copies)
