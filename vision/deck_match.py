"""Known-deck reading: each outlined card matched against the enrolled faces of the deck.

A card is named from the profile only when its best match leads every other card's by
`min_margin` and no independent cue contradicts it: the index ink's colour, judged against the
card's own white, and the glyph reader's own reading. Where the glyph reader read another card,
the profile's name stands only when it leads by `override_margin`; otherwise the card is left
unreadable. Where the glyph reader read the card the profile surely names, the two cues agree:
the name keeps the surer of their confidences.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING

import cv2
import numpy as np
import numpy.typing as npt

from vision.cards import CardObservation, Image, Quad, Reading, inside, parse_card
from vision.deblur_outline import long_side
from vision.deck_config import DeckMatchConfig
from vision.deck_faces import (
    DeckFaces,
    FaceViews,
    Vectors,
    colour_vectors,
    index_view,
    rectified,
    views_of,
)
from vision.faces import JOKER

if TYPE_CHECKING:
    from vision.learned import LearnedReader

DEFAULT = DeckMatchConfig()
MOST_CHANNELS = 128
"""The most channels of one image OpenCV's Python bindings take."""


@dataclass(frozen=True)
class DeckMatch:
    """The best enrolled card for an outline, how similar each card looks, and the ink seen."""

    name: str
    scores: dict[str, float]
    ink: npt.NDArray[np.float32] | None
    ruled_out: frozenset[str] = frozenset()
    """Suits whose ink the card's ink contradicts (`DeckMatcher.contradicted_suits`): their
    cards are neither the best nor the next."""

    @property
    def similarity(self) -> float:
        """How similar the best card looks."""
        return self.scores[self.name]

    @property
    def margin(self) -> float:
        """The best card's lead over the next card of a suit not ruled out."""
        others = [score for name, score in self.scores.items()
                  if name != self.name and name[1:] not in self.ruled_out]
        return self.similarity - max(others, default=0.0)


def softened(images: npt.NDArray[np.uint8], sigma: float) -> npt.NDArray[np.float32]:
    """Grey views (N, H, W) softened, so a pixel of misfit matters less (all at once, as
    channels of one image), each less its mean."""
    stack = np.ascontiguousarray(np.moveaxis(images, 0, -1), dtype=np.float32)
    blurred = [np.asarray(cv2.GaussianBlur(np.ascontiguousarray(stack[:, :, k:k + MOST_CHANNELS]),
                                           (0, 0), sigma), np.float32).reshape(*stack.shape[:2], -1)
               for k in range(0, len(images), MOST_CHANNELS)]
    # One part as it is: a copy of it costs more than the blur.
    soft = blurred[0] if len(blurred) == 1 else np.concatenate(blurred, axis=2)
    pixels = soft.reshape(-1, len(images))
    soft -= np.full(len(pixels), 1 / len(pixels), np.float32) @ pixels
    centred: npt.NDArray[np.float32] = np.moveaxis(soft, -1, 0)
    return centred


def _unit_rows(images: npt.NDArray[np.float32]) -> Vectors:
    """Each view as a row less its mean, scaled to length one (correlation by a dot product)."""
    rows = images.reshape(len(images), -1)
    rows = rows - rows.mean(axis=1, keepdims=True)
    return _renormed(rows)


def shifted(templates: npt.NDArray[np.float32], shift: int) -> Vectors:
    """(T * (2 shift + 1), H * (W + 2 shift)): each template (T, H, W) set in a frame of `shift`
    zero columns either side, at every place across it, so that a dot product with `H` rows of
    a view is one with a window of them shifted by up to `shift` pixels either way."""
    count, height, width = templates.shape
    side = 2 * shift + 1
    out = np.zeros((count, side, height, width + 2 * shift), np.float32)
    for dx in range(side):
        out[:, dx, :, dx:dx + width] = templates
    return out.reshape(count * side, -1)


def centres(images: npt.NDArray[np.float32], shift: int) -> npt.NDArray[np.float32]:
    """Each view less a strip of `shift` pixels at every edge."""
    height, width = images.shape[1:3]
    inner: npt.NDArray[np.float32] = images[:, shift:height - shift, shift:width - shift]
    return inner


def _renormed(vectors: Vectors) -> Vectors:
    """Each row scaled to length one."""
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit: Vectors = (vectors / np.maximum(norms, 1e-6)).astype(np.float32)
    return unit


class DeckMatcher:
    """Enrolled faces turned into correlation vectors once, then matched against outlines.

    The enrolled views lose `shift` pixels at each edge and are correlated with every window of
    the outlined card's views within that shift, so an outline a little off still matches."""

    def __init__(self, deck: DeckFaces, config: DeckMatchConfig = DEFAULT) -> None:
        self.deck, self.config = deck, config
        self.names = deck.names
        shift = config.shift
        grey = _unit_rows(centres(softened(deck.grey, config.grey_sigma), shift))
        colour = colour_vectors(deck.colour, config.chroma_weight)
        index = _unit_rows(centres(softened(deck.index, config.index_sigma), shift))
        # What every card of the deck shares (white, border, where the index sits) is taken
        # out of every view, so the correlation weighs what tells the cards apart.
        share = config.common_share
        means = [share * v.mean(axis=0) for v in (grey, colour, index)]
        enrolled = [_renormed(v - m) for v, m in zip((grey, colour, index), means, strict=True)]
        self._to_mean = [v @ m for v, m in zip(enrolled, means, strict=True)]
        self._mean_square = [float(m @ m) for m in means]
        self._sums = [np.append(v.sum(axis=1), m.sum()) for v, m in zip(enrolled, means,
                                                                       strict=True)]
        shapes = [(deck.grey.shape[1] - 2 * shift, deck.grey.shape[2] - 2 * shift),
                  (1, colour.shape[1]),
                  (deck.index.shape[1] - 2 * shift, deck.index.shape[2] - 2 * shift)]
        # Per view, the samples, the deck's share and ones, shifted, as columns.
        self._templates = [
            shifted(np.vstack([v, m, np.ones_like(m)]).reshape(-1, *shape), place).T.copy()
            for v, m, shape, place in zip(enrolled, means, shapes, (shift, 0, shift),
                                          strict=True)]
        self.distinct = sorted({str(n) for n in deck.names})
        codes = np.searchsorted(self.distinct, deck.names.astype(str))
        self._order = np.argsort(codes, kind="stable")
        self._starts = np.searchsorted(codes[self._order], np.arange(len(self.distinct)))

    def looks(self, frame: Image, outlines: Sequence[Quad], with_ink: bool = True
              ) -> tuple[npt.NDArray[np.float32], list[npt.NDArray[np.float32] | None]]:
        """(outlines, samples) best similarity of each outlined card to each enrolled sample,
        either way up and at the best shift, and each card's ink (None unless `with_ink`)."""
        views, inks = [], []
        for corners in outlines:
            card = rectified(frame, corners, self.config)
            upright = views_of(card, self.config, with_ink)
            views += [upright, FaceViews(upright.grey[::-1, ::-1], upright.colour[::-1, ::-1],
                                         index_view(card[::-1, ::-1], self.config), None)]
            inks.append(upright.ink)
        scores = self.view_scores(views).reshape(len(self.names), len(outlines), 2).max(axis=2)
        return scores.T, inks

    def view_scores(self, views: list[FaceViews]) -> npt.NDArray[np.float32]:
        """(samples, views) best similarity of each view, at the best shift, to each sample."""
        config = self.config
        grey = self._correlated(0, softened(np.stack([v.grey for v in views]), config.grey_sigma))
        colour = self._correlated(1, colour_vectors(np.stack([v.colour for v in views]),
                                                    config.chroma_weight)[:, None])
        index = self._correlated(2, softened(np.stack([v.index for v in views]),
                                             config.index_sigma))
        w_grey, w_colour, w_index = config.weights
        scores: npt.NDArray[np.float32] = (w_grey * grey + w_colour * colour
                                           + w_index * index).astype(np.float32)
        return scores

    def _correlated(self, view: int, images: npt.NDArray[np.float32]) -> Vectors:
        """(samples, images) best similarity over the shifts of one view's enrolled vectors
        (0 grey, 1 colour, 2 index) to the card's images (N, H, W), each window taken as the
        enrolled ones were: less its mean, scaled to length one (u), less the deck's share (m)
        and scaled again; by dot products of rows of the images with the shifted templates."""
        templates, count = self._templates[view], len(images)
        side = templates.shape[1] // (len(self._sums[view]) + 1)
        height = templates.shape[0] // images.shape[2]
        down = images.shape[1] - height + 1
        strips = np.concatenate([images[:, dy:dy + height].reshape(count, -1)
                                 for dy in range(down)])
        # Per image, template (the samples, the deck's share m, ones) and place (down, across),
        # and each window's sum of squares (by the ones).
        dots = (strips @ templates).reshape(down, count, -1, side).transpose(1, 2, 0, 3).reshape(
            count, -1, down * side)
        squares = ((strips * strips) @ templates[:, -side:]).reshape(
            down, count, side).transpose(1, 0, 2).reshape(count, -1)
        size = float(templates[:, -1].sum())
        centre = dots[:, -1] / size
        spread = np.sqrt(np.maximum(squares - size * centre * centre, 0.0))
        unit = np.maximum(spread, 1e-6)
        centred = (dots[:, :-1] - self._sums[view][:, None] * centre[:, None]) / unit[:, None]
        to_sample, to_mean = centred[:, :-1], centred[:, -1]
        length = np.sqrt(np.maximum((spread / unit) ** 2 - 2 * to_mean
                                    + self._mean_square[view], 0.0))
        best = ((to_sample - self._to_mean[view][:, None]) / np.maximum(length, 1e-6)[:, None])
        out: Vectors = best.max(axis=2).T.astype(np.float32)
        return out

    @cached_property
    def sibling(self) -> dict[str, float]:
        """Per enrolled card, how similar its nearest other card of the deck looks to it."""
        views = [FaceViews(self.deck.grey[k], self.deck.colour[k], self.deck.index[k], None)
                 for k in range(len(self.names))]
        scores = self.view_scores(views)
        out: dict[str, float] = {}
        for k, name in enumerate(self.names):
            others = scores[self.names != name, k]
            out[str(name)] = max(out.get(str(name), -1.0), float(others.max(initial=-1.0)))
        return out

    def match(self, frame: Image, corners: Quad) -> DeckMatch | None:
        """The enrolled card nearest the outlined one; None when the profile is empty."""
        return self.matches(frame, [corners])[0] if len(self.names) else None

    def matches(self, frame: Image, outlines: Sequence[Quad], scales: tuple[float, ...] = (),
                seen: Sequence[DeckMatch] = ()) -> list[DeckMatch]:
        """The enrolled card nearest each outlined one. Each outline is also seen scaled about
        its centre by each of `scales`, every card keeping its best similarity over them, as
        over shifts; the ink is the outline's own. `seen` holds the outlines' matches as
        outlined, if known: they are not looked at again."""
        if not outlines:
            return []
        if seen:
            names = self.names.tolist()
            scores = np.array([[m.scores[name] for name in names] for m in seen], np.float32)
            inks = [m.ink for m in seen]
        else:
            scores, inks = self.looks(frame, outlines)
        if scales:
            middles = [np.asarray(c, np.float32).mean(axis=0) for c in outlines]
            scaled = [centre + (np.asarray(c, np.float32) - centre) * scale
                      for c, centre in zip(outlines, middles, strict=True) for scale in scales]
            more = self.looks(frame, scaled, False)[0]
            scores = np.maximum(scores, more.reshape(len(outlines), len(scales), -1).max(axis=1))
        best_each = np.maximum.reduceat(scores[:, self._order], self._starts, axis=1).tolist()
        return [self._judged(dict(zip(self.distinct, row, strict=True)), ink)
                for row, ink in zip(best_each, inks, strict=True)]

    def _judged(self, per_name: dict[str, float],
                ink: npt.NDArray[np.float32] | None) -> DeckMatch:
        """The match of a card with these best similarities per card name and this ink."""
        ruled_out = self.contradicted_suits(ink)
        best = best_card(per_name, self.contradicted_suits(ink, self.config.ink_pick_margin),
                         self.config.ink_overrule)
        return DeckMatch(best, per_name, ink,
                         ruled_out if best[1:] not in ruled_out else frozenset())

    def is_sure(self, match: DeckMatch) -> bool:
        """Whether a match may name its card: it leads the next card by `min_margin`, looks at
        least as like its card as `sibling_slack` below the card's nearest sibling in the deck
        does (a card not enrolled, such as a 2-8, looks less like it), and its ink agrees: a
        match leading by `override_margin` gives way only to ink that is clearly of another
        colour (`ink_pick_margin`), since the ink of a small index is a few pixels."""
        config = self.config
        clear = match.margin >= config.override_margin
        return (match.similarity >= config.min_similarity
                and match.similarity >= self.sibling[match.name] - config.sibling_slack
                and self.ink_margin(match) >= config.min_margin
                and not self.ink_contradicts(match.name, match.ink,
                                             config.ink_pick_margin if clear else None))

    def ink_margin(self, match: DeckMatch) -> float:
        """The best card's lead over the next card whose suit's ink the card does not
        contradict: a card of the same figure in a suit of another colour (a four-colour
        deck's diamond and spade) is told apart by its ink, not its face."""
        ruled_out = self.contradicted_suits(match.ink)
        others = [score for name, score in match.scores.items()
                  if name != match.name and name[1:] not in ruled_out]
        return match.similarity - max(others, default=0.0)

    def twins(self, first: str, second: str) -> bool:
        """Whether two cards are twins: the same rank, in two suits of one ink (by their
        enrolled inks where both are known, else black clubs and spades, red diamonds and
        hearts)."""
        if first == second or first[:-1] != second[:-1] or JOKER in (first, second):
            return False
        suits, _, apart = self._inks
        one, other = first[-1], second[-1]
        if one in suits and other in suits:
            return not bool(apart[suits.index(one), suits.index(other)])
        return {one, other} in ({"C", "S"}, {"D", "H"})

    def ink_contradicts(self, name: str, ink: npt.NDArray[np.float32] | None,
                        margin: float | None = None) -> bool:
        """Whether the ink seen lies nearer the enrolled ink of a suit of another colour than
        that of the named card's suit (by `margin`, `ink_margin` unless given), and than the
        card's own enrolled ink (a figure reaching into the index, as a jack's blue hat);
        never when either is unknown."""
        if ink is None or name[1:] not in self.contradicted_suits(ink, margin):
            return False
        suits, table, apart = self._inks
        mine = suits.index(name[1:])
        own = self.deck.ink[self.deck.names == name]
        inks = np.vstack([table[mine][None, :], own[~np.isnan(own).any(axis=1)]])
        nearest_own = float(np.hypot(*(inks - ink).T).min())
        others = np.hypot(*(table[apart[mine]] - ink).T)
        margin = self.config.ink_margin if margin is None else margin
        return bool((others + margin < nearest_own).any())

    def contradicted_suits(self, ink: npt.NDArray[np.float32] | None,
                           margin: float | None = None) -> frozenset[str]:
        """The enrolled suits whose ink the seen ink contradicts (`ink_contradicts`): it lies
        nearer the ink of a suit of another colour by `margin` (`ink_margin` unless given)."""
        suits, table, apart = self._inks
        if ink is None or not suits:
            return frozenset()
        margin = self.config.ink_margin if margin is None else margin
        across, down = (float(v) for v in ink)
        distance = [math.hypot(a - across, b - down) for a, b in table.tolist()]
        return frozenset(suit for suit, own, far in zip(suits, distance, apart.tolist(),
                                                        strict=True)
                         if any(f and other + margin < own
                                for f, other in zip(far, distance, strict=True)))

    @cached_property
    def _inks(self) -> tuple[list[str], npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """The enrolled suits with an ink, their inks, and which pairs have different colours
        (inks `ink_separation` or more apart)."""
        inks = self.deck.suit_inks
        suits = sorted(inks)
        table = (np.stack([inks[suit] for suit in suits]).astype(np.float32) if suits
                 else np.zeros((0, 2), np.float32))
        step = table[:, None, :] - table[None, :, :]
        apart = np.sqrt((step * step).sum(axis=2)) >= self.config.ink_separation
        return suits, table, apart


def best_card(scores: dict[str, float], ruled_out: frozenset[str], overrule: float) -> str:
    """The enrolled card an outline is most like; where the ink rules out that card's suit,
    the best card of a suit not ruled out, if the faces put it less than `overrule` behind: a
    card of the same figure in a suit of another colour (a four-colour deck's diamond and spade)
    is told apart by its ink where the faces hardly differ, and where they differ clearly a few
    pixels of ink do not overrule them."""
    best = max(scores, key=lambda name: scores[name])
    allowed = [name for name in scores if name[1:] not in ruled_out]
    if best[1:] not in ruled_out or not allowed:
        return best
    inked = max(allowed, key=lambda name: scores[name])
    return inked if scores[best] - scores[inked] < overrule else best


@lru_cache(maxsize=4)
def matcher_for(deck: DeckFaces, config: DeckMatchConfig = DEFAULT) -> DeckMatcher:
    """The matcher of a deck profile, built once per profile."""
    return DeckMatcher(deck, config)


def deck_reading(
    observation: CardObservation, match: DeckMatch, sure: bool, sibling: float,
    config: DeckMatchConfig, contradicted: bool = False, twins: bool = False,
) -> CardObservation:
    """The observation as the profile's match leaves it: named from the profile, left as the
    glyph reader read it, or made unreadable where the profile contradicts the glyph reader.

    `sure` tells whether the match may name its card; `sibling` is the similarity it needs
    where the glyph reader named a card the profile does not hold. Where the glyph reader
    named another enrolled card, the profile renames it when sure and ahead of it by
    `override_margin`, leaves it when not sure of its own card or ahead by less than
    `min_margin` (the profile cannot tell), and otherwise leaves it unreadable.
    `contradicted` tells that the card does not show the ink of the glyph reader's suit: the
    profile names it when sure, else it is unreadable. `twins` tells that the glyph reader's
    card and the profile's are twins (`DeckMatcher.twins`): unless `renames_twins`, the
    profile neither renames one into the other nor withdraws the name (the faces hardly tell
    twins apart; the index readers can)."""
    generic = observation.name
    if generic == match.name and generic != JOKER and sure:
        return _backed(observation, match)
    if generic == match.name or JOKER in (generic, match.name):
        return observation
    if generic is not None and generic not in match.scores:
        # Read as a card the profile has never seen (a 2-8, a card not enrolled): named from
        # the profile only when the match looks as like its card as its nearest sibling does.
        # Never as its twin: the profile, lacking the card, cannot tell it from its twin.
        return (_named(observation, match)
                if sure and match.similarity >= sibling and (config.renames_twins or not twins)
                else observation)
    if generic is None:
        return _named(observation, match) if sure else observation
    if contradicted:
        # Read in a suit whose ink the card does not show: the profile names it, or no one;
        # not as the twin, whose suit shows the same ink.
        return (_named(observation, match) if sure and (config.renames_twins or not twins)
                else replace(observation, reading=None, confidence=0.0))
    # The glyph reader named another card of the deck than the profile's best.
    lead = match.similarity - match.scores[generic]
    if sure and lead >= config.override_margin and (config.renames_twins or not twins):
        return _named(observation, match)
    if not sure or lead < config.min_margin or (twins and not config.renames_twins):
        return observation  # the profile cannot tell the two apart: it contradicts nothing
    return replace(observation, reading=None, confidence=0.0)  # it does not bear it out


def ink_vetoes(observation: CardObservation, match: DeckMatch, matcher: DeckMatcher,
               config: DeckMatchConfig) -> bool:
    """Whether a name, whoever gave it, is no name because the card does not show its suit's
    ink; never where the profile's faces and colours name that very card clearly (ahead by
    `override_margin`, and as like it as its nearest sibling is, less `sibling_slack`): the
    ink of a small index is a few pixels, mixed with the paper's."""
    if observation.name is None:
        return False
    if (match.name == observation.name and match.margin >= config.override_margin
            and match.similarity >= matcher.sibling[match.name] - config.sibling_slack):
        return False
    return matcher.ink_contradicts(observation.name, match.ink)


def _named(observation: CardObservation, match: DeckMatch) -> CardObservation:
    """The observation named as the profile's best card."""
    rank, suit = parse_card(match.name)
    confidence = _match_confidence(match)
    return replace(observation, reading=Reading(rank, suit, confidence), confidence=confidence)


def _backed(observation: CardObservation, match: DeckMatch) -> CardObservation:
    """The observation, read as the card the profile surely names too, at the surer of the two
    confidences: the enrolled face and the generic readers are independent cues that agree."""
    confidence = max(observation.confidence, _match_confidence(match))
    if observation.reading is None or confidence == observation.confidence:
        return observation
    return replace(observation, reading=replace(observation.reading, confidence=confidence),
                   confidence=confidence)


def _match_confidence(match: DeckMatch) -> float:
    """The confidence of a name the profile gives: 0.7 and its lead over the next card."""
    return round(min(1.0, 0.7 + match.margin), 3)


def read_known_deck(
    frame: Image, observations: list[CardObservation], deck: DeckFaces | None,
    config: DeckMatchConfig = DEFAULT, read_before: Collection[int] = (),
    reader: LearnedReader | None = None, card_length: float | None = None,
) -> list[CardObservation]:
    """Every whole card outline read again against the enrolled deck (no deck: unchanged),
    but those whose ids are in `read_before` (read against it when first seen) and those
    another whole outline shares area with (`touched`: the faces seen may be partly another
    card's), each also seen at the frame's `card_length` when known (`at_card_length`). With
    the card network (`reader`), a name the profile gives that the generic readers did not
    must have the rank the network sees (`DeckMatchConfig.network_rank_support`); else the
    generic reading stands (none, where the card lacks its suit's ink).

    A loose corner inside an outline named with the profile is that card's own corner: read as
    the same card it is a duplicate, read as another it is contradicted; either way it is
    dropped."""
    if deck is None or not len(deck):
        return observations
    matcher = matcher_for(deck, config)
    fresh = [k for k, o in enumerate(observations)
             if o.whole and id(o) not in read_before and not touched(k, observations)]
    found = dict(zip(fresh, matcher.matches(frame, [observations[k].corners for k in fresh]),
                     strict=True))
    for k in fresh:
        found[k] = at_card_length(matcher, frame, observations[k].corners, found[k], card_length)
    # An outline a little inside the card (a soft edge) or outside it shows the enrolled faces
    # shrunk or grown: a doubtful match is looked at again scaled. Not where the glyph reader
    # read a card the profile lacks: the best of several looks makes a stranger look more like
    # an enrolled card than the sibling rule allows.
    sure = {k: matcher.is_sure(match) for k, match in found.items()}
    doubtful = [k for k, match in found.items() if config.outline_scales and (
        observations[k].name is None or observations[k].name in match.scores) and (
        not sure[k] or match.margin < config.override_margin)]
    found.update(zip(doubtful, matcher.matches(
        frame, [observations[k].corners for k in doubtful], config.outline_scales,
        [found[k] for k in doubtful]), strict=True))
    sure.update((k, matcher.is_sure(found[k])) for k in doubtful)
    out = []
    for k, observation in enumerate(observations):
        match = found.get(k)
        if match is not None:
            floor = matcher.sibling[match.name] - config.stranger_slack
            contradicted = (observation.name is not None
                            and matcher.ink_contradicts(observation.name, match.ink))
            generic = observation
            twins = observation.name is not None and matcher.twins(observation.name, match.name)
            observation = deck_reading(observation, match, sure[k], floor, config,
                                       contradicted, twins)
            if ink_vetoes(observation, match, matcher, config):
                observation = replace(observation, reading=None, confidence=0.0)
            elif (observation.name not in (None, JOKER, generic.name) and reader is not None
                    and reader.scores(frame, [observation.corners])[0].rank_support(
                        observation.name[:-1]) < config.network_rank_support):
                observation = (replace(observation, reading=None, confidence=0.0)
                               if contradicted else generic)
        out.append(observation)
    named = [o for o in out if o.whole and o.name is not None]
    return [o for o in out if o.whole or not any(
        inside(o.corners.mean(axis=0), other.corners) for other in named)]




def touched(k: int, observations: Sequence[CardObservation]) -> bool:
    """Whether another whole outline shares area with observation `k`'s without lying wholly
    inside it (a part of its own face): the faces seen in it may be partly another card's."""
    outline = observations[k].corners
    own = np.asarray(outline, np.float32).reshape(-1, 1, 2)
    for j, other in enumerate(observations):
        if j == k or not other.whole or all(inside(p, outline) for p in other.corners):
            continue
        area, _ = cv2.intersectConvexConvex(
            own, np.asarray(other.corners, np.float32).reshape(-1, 1, 2))
        if float(area) > 1.0:
            return True
    return False


def at_card_length(matcher: DeckMatcher, frame: Image, corners: Quad, match: DeckMatch,
                   card_length: float | None) -> DeckMatch:
    """The match of an outline also seen scaled to the frame's card length, when known and
    the outline's length is off it beyond `outline_scales` (a frame line printed inside the
    card's edge taken for its edge): every card keeping its best similarity over both."""
    scales = matcher.config.outline_scales
    if not card_length or not scales:
        return match
    ratio = card_length / max(1.0, long_side(corners))
    if min(scales) <= ratio <= max(scales):
        return match
    return matcher.matches(frame, [corners], (ratio,), [match])[0]
