"""The evidence today's readers give for each name a frame's observations carry (a side channel:
the names and their confidences are left as they are)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

import numpy as np

from vision.cards import CardObservation, Image, Quad, Rank, Reading, Suit
from vision.config import PipCountConfig, VisionConfig
from vision.corners import cards_of_index
from vision.deblur_outline import long_side
from vision.index_ink import IndexInk, corner_ink, index_inks
from vision.learned import COURTS, RANK_CLASSES, SUIT_CLASSES, CardScores, shipped_reader
from vision.learned_first import LearnedViews
from vision.learned_index import shipped_index_reader
from vision.pips import PIP_RANKS, PipReads, read_once

FEATURES = (
    "confidence", "whole", "one_end", "card_low", "card_high", "card_agree", "index_low",
    "index_high", "pips", "ink", "length", "repeated", "spade_chroma", "club_redness",
    "heart_redness", "diamond_chroma", "card_low_rank", "card_no_card",
)
"""The cues of one name, in the order `as_vector` gives them: today's confidence; whether the
outline is the whole card and whether it was named from one end; the card network's probability
of the name at its weaker end (of a jack, queen or king: of any court card of the suit) and at
its stronger end, and whether both ends' first choice is the name; the index network's at its
weaker (courts alike) and stronger end; whether the pips count the rank (+1, -1 against, 0
untold; an ace named on a whole outline without its lone middle pip: -1); whether the index
ink's colour is the suit's (`vision.index_ink`: both ends of a whole card, a loose corner's at
the index of the card it implies; +1, -1 against, 0 untold); how far the outline's length is
from the frame's card length (log ratio, 0 unknown); whether another observation of the frame
carries the same name; the index ink's colour measured against the named suit (`_suit_ink_cues`:
a spade's chroma, a club's redness, a heart's redness, a diamond's chroma; 0 for the other
suits' cues); the card network's probability of a rank 2-8 and of no card face at all (at the
end that sees more of it, a loose corner's at its end). Probabilities as log-odds."""

Evidence = dict[str, float]


def log_odds(probability: float, floor: float = 1e-4) -> float:
    """The log-odds of a probability kept within [floor, 1 - floor]."""
    p = min(max(probability, floor), 1.0 - floor)
    return math.log(p / (1.0 - p))


def as_vector(evidence: Evidence) -> np.ndarray:
    """The evidence as a vector in the order of `FEATURES`."""
    return np.array([evidence[name] for name in FEATURES], np.float64)


def frame_evidence(frame: Image, observations: Sequence[CardObservation],
                   config: VisionConfig, weighed: Sequence[bool] | None = None,
                   scores: LearnedViews | None = None) -> list[Evidence | None]:
    """The evidence for each named observation of a frame (None where unnamed, or left out by
    `weighed`; every observation's name still counts for `repeated`): the card and index
    networks see every weighed named whole outline, and both cards a loose corner's index
    implies (`corners.cards_of_index`), in one pass each; the quads `scores` (the frame's own
    cache, as the reading stages left it) holds already are not shown to them again."""
    named = [k for k, o in enumerate(observations)
             if o.reading is not None and (weighed is None or weighed[k])]
    quads: list[Quad] = []
    spans: dict[int, tuple[int, int]] = {}
    for k in named:
        outline = observations[k].corners
        hypotheses = [outline] if observations[k].whole else list(cards_of_index(outline, config))
        spans[k] = (len(quads), len(quads) + len(hypotheses))
        quads.extend(hypotheses)
    cache = scores if scores is not None else LearnedViews(frame, shipped_reader())
    card = cache.scores(quads) if quads else []
    index = cache.index_scores(shipped_index_reader(), quads) if quads else []
    counts = Counter(o.name for o in observations if o.name is not None)
    pips = config.pip_count or PipCountConfig()
    out: list[Evidence | None] = [None] * len(observations)
    for k in named:
        observation = observations[k]
        reading = observation.reading
        assert reading is not None
        start, end = spans[k]
        card_low, card_high, agree = _network_cues(card[start:end], reading, observation.whole)
        index_low, index_high, _ = _network_cues(index[start:end], reading, observation.whole)
        inks = (index_inks(frame, observation.corners, pips) if observation.whole
                else [corner_ink(frame, quads[start], pips)])
        out[k] = {
            "confidence": log_odds(observation.confidence),
            "whole": float(observation.whole),
            "one_end": float(observation.one_end),
            "card_low": card_low, "card_high": card_high, "card_agree": agree,
            "index_low": index_low, "index_high": index_high,
            "pips": _pip_cue(frame, observation, pips, cache.pips) if observation.whole else 0.0,
            "ink": _ink_cue(observation, inks, pips),
            "length": _length_cue(observation, config),
            "repeated": float(counts[reading.name] > 1),
            **_suit_ink_cues(reading, inks),
            **_other_card_cues(card[start:end], reading, observation.whole),
        }
    return out


def _network_cues(scores: Sequence[CardScores], reading: Reading, whole: bool
                  ) -> tuple[float, float, float]:
    """A network's log-odds for the name at its weaker end (a court's: for any court card of
    its suit) and at its stronger end, and whether both ends' first choice is the name (over a
    loose corner's implied cards, the one backing it most, judged at its better-backed end only:
    the far end may lie covered)."""
    chosen = _best_card(scores, reading)
    if chosen is None:
        return log_odds(0.0), log_odds(0.0), 0.0
    card, weak, strong = chosen
    views = (weak, strong) if whole else (strong,)
    court = reading.rank.value in COURTS
    low = min(_court_support(card, view, reading) if court else card.view_support(view, reading)
              for view in views)
    agree = float(all(name == reading.name for name in card.names()))
    return log_odds(low), log_odds(card.view_support(strong, reading)), agree


def _other_card_cues(scores: Sequence[CardScores], reading: Reading, whole: bool
                     ) -> Evidence:
    """The card network's log-odds of a rank 2-8 (`card_low_rank`) and of no card face
    (`card_no_card`), at whichever end gives them more (a loose corner's: its better-backed end),
    on the card backing the name most."""
    chosen = _best_card(scores, reading)
    if chosen is None:
        return {"card_low_rank": log_odds(0.0), "card_no_card": log_odds(0.0)}
    card, weak, strong = chosen
    views = (weak, strong) if whole else (strong,)
    return {"card_low_rank": log_odds(max(float(card.rank[v][LOW_RANK]) for v in views)),
            "card_no_card": log_odds(max(float(card.rank[v][NO_CARD]) for v in views))}


COURT_RANKS = tuple(RANK_CLASSES.index(rank) for rank in COURTS)
LOW_RANK = RANK_CLASSES.index("low")
NO_CARD = RANK_CLASSES.index("none")


def _best_card(scores: Sequence[CardScores], reading: Reading
               ) -> tuple[CardScores, int, int] | None:
    """Of the scores of a whole outline or of a loose corner's implied cards, the card backing
    the name most (at its stronger end, then its weaker), with its weaker and stronger view."""
    best: tuple[tuple[float, float], CardScores, int, int] | None = None
    for card in scores:
        support = [card.view_support(view, reading) for view in (0, 1)]
        strong = int(support[1] > support[0])
        key = (log_odds(support[strong]), log_odds(support[1 - strong]))
        if best is None or key > best[0]:
            best = (key, card, 1 - strong, strong)
    return None if best is None else best[1:]


def _court_support(card: CardScores, view: int, reading: Reading) -> float:
    """The probability one view gives any court card of the reading's suit."""
    suit = SUIT_CLASSES.index(reading.suit.value if reading.suit else "none")
    return float(card.rank[view][list(COURT_RANKS)].sum() * card.suit[view][suit])


def _suit_ink_cues(reading: Reading, inks: Sequence[IndexInk | None]) -> Evidence:
    """The index ink measured against the named suit (`inks`: both ends of a whole card, a
    loose corner's one): a spade's chroma at its most (spades are black in four-colour decks
    too), a club's redness at its most, a heart's redness at its least, a diamond's chroma at
    its least (diamonds may be blue, never black); each cue 0 where the name is of another
    suit or no end was judged."""
    cues = dict.fromkeys(SUIT_INK_CUES.values(), 0.0)
    judged = [ink for ink in inks if ink is not None]
    if reading.suit is None or not judged:
        return cues
    suit = reading.suit.value
    if suit == "S":
        cues["spade_chroma"] = max(ink.chroma if ink.warm_chroma is None else ink.warm_chroma
                                   for ink in judged)
    elif suit == "C":
        cues["club_redness"] = max(ink.redness for ink in judged)
    elif suit == "H":
        cues["heart_redness"] = min(ink.redness for ink in judged)
    else:
        cues["diamond_chroma"] = min(ink.chroma for ink in judged)
    return cues


SUIT_INK_CUES = {"S": "spade_chroma", "C": "club_redness", "H": "heart_redness",
                 "D": "diamond_chroma"}
"""Each suit's ink cue (`_suit_ink_cues`)."""


RED = frozenset("HD")


def _pip_cue(frame: Image, observation: CardObservation, config: PipCountConfig,
             reads: PipReads) -> float:
    """+1 where the pips count the named rank (one middle pip for an ace), -1 where they count
    another number or an ace shows no lone middle pip, 0 where the count cannot be told or the
    card is a court."""
    reading = observation.reading
    assert reading is not None
    rank = reading.rank.value
    if rank == "A":
        ace = read_once(frame, observation.corners, config, True, reads)
        return 1.0 if ace is not None else -1.0
    if rank not in PIP_RANKS:
        return 0.0
    pips = read_once(frame, observation.corners, config, False, reads)
    if pips is None:
        return 0.0
    return 1.0 if pips.count == PIP_RANKS[rank] else -1.0


def _ink_cue(observation: CardObservation, inks: Sequence[IndexInk | None],
             config: PipCountConfig) -> float:
    """The index ink's colour (`inks`: both ends of a whole card, a loose corner's one) against
    the named suit's, judged on the card's own white: +1 where every end judged agrees, -1
    where every end judged disagrees, else 0."""
    reading = observation.reading
    assert reading is not None
    if reading.suit is None:
        return 0.0
    red = reading.suit.value in RED
    votes = []
    for ink in inks:
        if ink is None:
            continue
        if ink.redness >= config.red_redness:
            votes.append(1.0 if red else -1.0)
        elif ink.chroma <= config.black_chroma:
            votes.append(-1.0 if red else 1.0)
    if votes and all(v > 0 for v in votes):
        return 1.0
    if votes and all(v < 0 for v in votes):
        return -1.0
    return 0.0


def _length_cue(observation: CardObservation, config: VisionConfig) -> float:
    """How far a whole outline's length is from the frame's card length (absolute log ratio;
    0 where the length is not known or the outline is a loose corner's)."""
    if not observation.whole or not config.card_length:
        return 0.0
    return abs(math.log(max(long_side(observation.corners), 1.0) / config.card_length))


EUCHRE_NAMES = tuple(rank + suit for rank in "9TJQKA" for suit in "CDHS")


def proposals(frame: Image, observations: Sequence[CardObservation]) -> list[Reading | None]:
    """For each whole outline left unread, the euchre card the card network backs most at its
    weaker end (None for the others): a name for the decision to weigh, not given."""
    unread = [k for k, o in enumerate(observations) if o.reading is None and o.whole]
    out: list[Reading | None] = [None] * len(observations)
    if not unread:
        return out
    for k, card in zip(unread, shipped_reader().scores(frame, [observations[k].corners
                                                                for k in unread]), strict=True):
        support = {name: card.support(name[0], name[1]) for name in EUCHRE_NAMES}
        best = max(support, key=lambda name: support[name])
        out[k] = Reading(Rank(best[0]), Suit(best[1]), round(support[best], 3))
    return out
