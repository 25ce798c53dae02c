"""Known-deck reading: each outlined card matched against the enrolled faces of the deck.

A card is named from the profile only when its best match leads every other card's by
`min_margin` and no independent cue contradicts it: the index ink's colour, judged against the
card's own white, and the glyph reader's own reading. Where the glyph reader read another card,
the profile's name stands only when it leads by `override_margin`; otherwise the card is left
unreadable. Where the glyph reader read the card the profile surely names, the two cues agree:
the name keeps the surer of their confidences.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING

import cv2
import numpy as np
import numpy.typing as npt

from vision.cards import CardObservation, Image, Quad, Reading, inside, parse_card
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
    """Grey views (N, H, W) softened, so a pixel of misfit matters less."""
    soft = [cv2.GaussianBlur(image.astype(np.float32), (0, 0), sigma) for image in images]
    return np.stack(soft).astype(np.float32)


def _unit_rows(images: npt.NDArray[np.float32]) -> Vectors:
    """Each view as a row less its mean, scaled to length one (correlation by a dot product)."""
    rows = images.reshape(len(images), -1)
    rows = rows - rows.mean(axis=1, keepdims=True)
    return _renormed(rows)


def windows(images: npt.NDArray[np.float32], shift: int) -> npt.NDArray[np.float32]:
    """(N * (2 shift + 1)^2, H - 2 shift, W - 2 shift): every window of each view shifted by up
    to `shift` pixels either way, image by image."""
    height, width = images.shape[1:3]
    inner_h, inner_w = height - 2 * shift, width - 2 * shift
    out = [images[:, dy:dy + inner_h, dx:dx + inner_w]
           for dy in range(2 * shift + 1) for dx in range(2 * shift + 1)]
    return np.stack(out, axis=1).reshape(-1, inner_h, inner_w, *images.shape[3:])


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
        self.means = [share * v.mean(axis=0) for v in (grey, colour, index)]
        self.grey, self.colour, self.index = (
            _renormed(v - m) for v, m in zip((grey, colour, index), self.means, strict=True))
        views = (self.grey, self.colour, self.index)
        self._enrolled = [np.vstack([v, m]) for v, m in zip(views, self.means, strict=True)]
        self._to_mean = [v @ m for v, m in zip(views, self.means, strict=True)]
        self._mean_square = [float(m @ m) for m in self.means]
        self.distinct = sorted({str(n) for n in deck.names})
        codes = np.searchsorted(self.distinct, deck.names.astype(str))
        self._order = np.argsort(codes, kind="stable")
        self._starts = np.searchsorted(codes[self._order], np.arange(len(self.distinct)))

    def similarities(self, card: Image, with_ink: bool = True
                     ) -> tuple[npt.NDArray[np.float32], list[FaceViews]]:
        """(samples,) best similarity of a rectified card to each enrolled sample, either way
        up and at the best shift, and the card's views (upright as outlined, then turned; the
        ink left out unless `with_ink`)."""
        upright = views_of(card, self.config, with_ink)
        turned = FaceViews(upright.grey[::-1, ::-1], upright.colour[::-1, ::-1],
                           index_view(card[::-1, ::-1], self.config), None)
        return self.view_scores([upright, turned]), [upright, turned]

    def view_scores(self, views: list[FaceViews]) -> npt.NDArray[np.float32]:
        """(samples,) best similarity of a card's views (either way up) to each sample."""
        shift, config = self.config.shift, self.config
        grey = self._correlated(0, windows(softened(np.stack([v.grey for v in views]),
                                                    config.grey_sigma), shift))
        index = self._correlated(2, windows(softened(np.stack([v.index for v in views]),
                                                     config.index_sigma), shift))
        colour = self._correlated(1, colour_vectors(np.stack([v.colour for v in views]),
                                                    config.chroma_weight))
        w_grey, w_colour, w_index = config.weights
        per_turn = (len(self.names), len(views), -1)
        scores = (w_grey * grey.reshape(per_turn).max(axis=2) + w_colour * colour
                  + w_index * index.reshape(per_turn).max(axis=2))
        best: npt.NDArray[np.float32] = scores.max(axis=1).astype(np.float32)
        return best

    def _correlated(self, view: int, rows: npt.NDArray[np.float32]) -> Vectors:
        """(samples, rows) similarity of the enrolled vectors of one view (0 grey, 1 colour,
        2 index) to rows of the card's, each row taken as the enrolled ones were: less its
        mean, scaled to length one (u), less the deck's share (m) and scaled again."""
        rows = rows.reshape(len(rows), -1)
        rows = rows - rows.mean()
        centre = rows.mean(axis=1)
        spread = np.sqrt(np.maximum(np.einsum("ij,ij->i", rows, rows)
                                    - rows.shape[1] * centre * centre, 0.0))
        spread_unit = np.maximum(spread, 1e-6)
        enrolled = self._enrolled[view]
        dots = (enrolled @ rows.T - np.outer(enrolled.sum(axis=1), centre)) / spread_unit
        to_sample, to_mean = dots[:-1], dots[-1]
        length = np.sqrt(np.maximum((spread / spread_unit) ** 2 - 2 * to_mean
                                    + self._mean_square[view], 0.0))
        out: Vectors = ((to_sample - self._to_mean[view][:, None])
                        / np.maximum(length, 1e-6)).astype(np.float32)
        return out

    @cached_property
    def sibling(self) -> dict[str, float]:
        """Per enrolled card, how similar its nearest other card of the deck looks to it."""
        out: dict[str, float] = {}
        for k, name in enumerate(self.names):
            views = FaceViews(self.deck.grey[k], self.deck.colour[k], self.deck.index[k], None)
            scores = self.view_scores([views, views])
            others = scores[self.names != name]
            out[str(name)] = max(out.get(str(name), -1.0), float(others.max(initial=-1.0)))
        return out

    def match(self, frame: Image, corners: Quad, scales: tuple[float, ...] = (),
              seen: DeckMatch | None = None) -> DeckMatch | None:
        """The enrolled card nearest the outlined one; None when the profile is empty. The
        outline is also seen scaled about its centre by each of `scales`, every card keeping
        its best similarity over them, as over shifts; the ink is the outline's own. `seen`
        is the outline's match as outlined, if known: it is not looked at again."""
        if not len(self.names):
            return None
        points = np.asarray(corners, np.float32)
        centre = points.mean(axis=0)
        if seen is None:
            scores, views = self.similarities(rectified(frame, corners, self.config))
            ink = views[0].ink
        else:
            scores = np.array([seen.scores[name] for name in self.names.tolist()], np.float32)
            ink = seen.ink
        for scale in scales:
            scaled = (centre + (points - centre) * scale).astype(np.float32)
            scores = np.maximum(scores, self.similarities(rectified(frame, scaled, self.config),
                                                          False)[0])
        best_each = np.maximum.reduceat(scores[self._order], self._starts).tolist()
        per_name = dict(zip(self.distinct, best_each, strict=True))
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
                and match.name[1:] not in self.contradicted_suits(
                    match.ink, config.ink_pick_margin if clear else None))

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

    def ink_contradicts(self, name: str, ink: npt.NDArray[np.float32] | None) -> bool:
        """Whether the ink seen lies nearer the enrolled ink of a suit of another colour than
        that of the named card's suit (by `ink_margin`); never when either is unknown."""
        return name[1:] in self.contradicted_suits(ink)

    def contradicted_suits(self, ink: npt.NDArray[np.float32] | None,
                           margin: float | None = None) -> frozenset[str]:
        """The enrolled suits whose ink the seen ink contradicts (`ink_contradicts`): it lies
        nearer the ink of a suit of another colour by `margin` (`ink_margin` unless given)."""
        suits, table, apart = self._inks
        if ink is None or not suits:
            return frozenset()
        margin = self.config.ink_margin if margin is None else margin
        step = table - np.asarray(ink, np.float32)
        distance = np.sqrt((step * step).sum(axis=1))
        return frozenset(suit for k, suit in enumerate(suits) if apart[k].any()
                         and float(distance[apart[k]].min()) + margin < float(distance[k]))

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
    `override_margin`, leaves it when ahead by less than `min_margin` (the profile cannot tell
    the two apart), and otherwise leaves it unreadable. `contradicted` tells that the card
    does not show the ink of the glyph reader's suit: the profile names it when sure, else it
    is unreadable. `twins` tells that the glyph reader's card and the profile's are twins
    (`DeckMatcher.twins`): the profile does not rename one into the other unless
    `renames_twins`."""
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
    if lead < config.min_margin:
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
    reader: LearnedReader | None = None,
) -> list[CardObservation]:
    """Every whole card outline read again against the enrolled deck (no deck: unchanged),
    but those whose ids are in `read_before` (read against it when first seen). With the card
    network (`reader`), a card named from the profile alone must have the rank the network
    sees (`DeckMatchConfig.network_rank_support`).

    A loose corner inside an outline named with the profile is that card's own corner: read as
    the same card it is a duplicate, read as another it is contradicted; either way it is
    dropped."""
    if deck is None or not len(deck):
        return observations
    matcher = matcher_for(deck, config)
    out = []
    for observation in observations:
        match = matcher.match(frame, observation.corners) if observation.whole and id(
            observation) not in read_before else None
        if match is not None and config.outline_scales and (
                observation.name is None or observation.name in match.scores) and (
                not matcher.is_sure(match) or match.margin < config.override_margin):
            # An outline a little inside the card (a soft edge) or outside it shows the
            # enrolled faces shrunk or grown: a doubtful match is looked at again scaled. Not
            # where the glyph reader read a card the profile lacks: the best of several looks
            # makes a stranger look more like an enrolled card than the sibling rule allows.
            match = matcher.match(frame, observation.corners, config.outline_scales, match)
        if match is not None:
            floor = matcher.sibling[match.name] - config.stranger_slack
            contradicted = (observation.name is not None
                            and matcher.ink_contradicts(observation.name, match.ink))
            unread = observation.name is None
            twins = observation.name is not None and matcher.twins(observation.name, match.name)
            observation = deck_reading(observation, match, matcher.is_sure(match), floor,
                                       config, contradicted, twins)
            if ink_vetoes(observation, match, matcher, config) or (
                    unread and observation.name not in (None, JOKER) and reader is not None
                    and reader.scores(frame, [observation.corners])[0].rank_support(
                        observation.name[:-1]) < config.network_rank_support):
                observation = replace(observation, reading=None, confidence=0.0)
        out.append(observation)
    named = [o for o in out if o.whole and o.name is not None]
    return [o for o in out if o.whole or not any(
        inside(o.corners.mean(axis=0), other.corners) for other in named)]


