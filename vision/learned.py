"""The learned card reader: a small CNN over the rectified card, run through OpenCV's dnn."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.cards import CardObservation, Image, Quad, Rank, Reading, Suit
from vision.errors import VisionError
from vision.foreshortening import long_pair

DATA = Path(__file__).resolve().parent / "data"
MODEL_PATH = DATA / "reader.onnx"
RANK_CLASSES = ("9", "T", "J", "Q", "K", "A", "low", "JK", "none")
"""Rank head: the euchre ranks, any rank 2-8, the joker, and no card face at all."""
SUIT_CLASSES = ("C", "D", "H", "S", "none")
"""Suit head: the four suits, or none (joker, card back, blank, not a card)."""
COURTS = ("J", "Q", "K")
VIEW_WIDTH = 64
VIEW_HEIGHT = 96
INDEX_WIDTH = 32
INDEX_HEIGHT = 48
INDEX_BOX = (-0.02, -0.02, 0.30, 0.34)
"""The part of an upright card an index view shows (left, top, right, bottom as shares of the
card's width and height): the index at its top-left corner, with room for an outline a little
off."""

Floats = npt.NDArray[np.float32]


class ModelFileError(VisionError, OSError):
    """The learned reader's model or manifest is missing or does not match."""


def oriented(quad: Quad, size: tuple[int, int] | None = None) -> Quad:
    """The quad's corners clockwise on screen (y down), starting at a corner of a short side
    (`foreshortening.long_pair`, in a frame of `size` when given)."""
    pts = np.asarray(quad, np.float32).reshape(4, 2)
    x, y = pts[:, 0], pts[:, 1]
    area = float(np.dot(x, y[_NEXT]) - np.dot(x[_NEXT], y))
    if area < 0:
        pts = np.ascontiguousarray(pts[::-1])
    start = 0 if long_pair(pts, size) == 1 else 1
    return np.ascontiguousarray(pts[_TURNS[start]], np.float32)


_NEXT = np.array([1, 2, 3, 0])
"""Each corner's next corner (a quad's corners rolled by one)."""
_TURNS = (np.array([0, 1, 2, 3]), np.array([1, 2, 3, 0]), np.array([2, 3, 0, 1]))
"""A quad's corners starting at corner 0, 1 or 2."""


def view_corners(quad: Quad, size: tuple[int, int], end: int) -> Quad:
    """The quad's corners as the view of one end shows them (`rectify`: 0 upright, 1 turned
    180 degrees), clockwise from that view's top-left, where its index is (a frame of `size`)."""
    return np.ascontiguousarray(oriented(quad, size)[_TURNS[2 * end]])


def rectify(frame: Image, quad: Quad, width: int = VIEW_WIDTH,
            height: int = VIEW_HEIGHT) -> tuple[Image, Image]:
    """The card upright and turned 180 degrees, each warped to width x height from the frame."""
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    return _both_ends(frame, quad, target, (width, height), cv2.INTER_AREA)


def _both_ends(frame: Image, quad: Quad, target: Floats, size: tuple[int, int],
               flags: int) -> tuple[Image, Image]:
    """The frame warped so that the card's corners (upright, then turned 180 degrees) land on
    `target`, each to `size`."""
    pts = oriented(quad, (frame.shape[1], frame.shape[0]))
    views = []
    for start in (0, 2):
        matrix = cv2.getPerspectiveTransform(pts[_TURNS[start]], target)
        views.append(cv2.warpPerspective(frame, matrix, size, flags=flags,
                                         borderMode=cv2.BORDER_REPLICATE))
    return views[0], views[1]


def rectify_index(frame: Image, quad: Quad, width: int = INDEX_WIDTH,
                  height: int = INDEX_HEIGHT) -> tuple[Image, Image]:
    """The top-left index corner (`INDEX_BOX`) of the card upright and turned 180 degrees, each
    warped to width x height straight from the frame, at more detail than the whole view."""
    left, top, right, bottom = INDEX_BOX
    xs = [(u - left) / (right - left) * width for u in (0.0, 1.0)]
    ys = [(v - top) / (bottom - top) * height for v in (0.0, 1.0)]
    target = np.array([[xs[0], ys[0]], [xs[1], ys[0]], [xs[1], ys[1]], [xs[0], ys[1]]],
                      np.float32)
    return _both_ends(frame, quad, target, (width, height), cv2.INTER_LINEAR)


def as_blob(views: list[Image]) -> Floats:
    """A batch of BGR views as the network's input (N, 3, H, W): each channel of each view
    standardised over the view, so the ink is judged against the card's own paper and light."""
    # OpenCV lays the views out channel by channel as float32 (unscaled, so exact), one copy.
    batch: Floats = np.asarray(cv2.dnn.blobFromImages(views, 1.0, swapRB=False, crop=False),
                               np.float32)
    batch /= np.float32(255.0)
    count, channels, height, width = batch.shape
    # Each channel of each view is one contiguous row: its statistics are summed along it.
    rows = batch.reshape(count * channels, height * width)
    mean = rows.mean(axis=1, keepdims=True)
    spread = rows.std(axis=1, keepdims=True)
    rows -= mean
    rows /= np.sqrt(spread * spread + np.float32(0.0025))
    blob: Floats = rows.reshape(count, channels, height, width)
    return blob


def softmax(logits: Floats) -> Floats:
    """Row-wise softmax."""
    shifted = logits - logits.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    probabilities: Floats = (exp / exp.sum(axis=1, keepdims=True)).astype(np.float32)
    return probabilities


@dataclass(frozen=True)
class CardScores:
    """The learned reader's class probabilities for one card, in both orientations."""

    rank: Floats
    """(2, len(RANK_CLASSES)): upright view, then turned view."""
    suit: Floats
    """(2, len(SUIT_CLASSES))."""

    def names(self) -> tuple[str, str]:
        """The name each view gives (rank class + suit class)."""
        return self._names

    def agreed(self) -> tuple[str, float] | None:
        """The name both views give and the lower of their joint probabilities, when they agree."""
        return self._agreement

    @cached_property
    def _names(self) -> tuple[str, str]:
        """`names`, worked out once (the stages ask it of one card many times)."""
        first, second = (_name(int(np.argmax(self.rank[k])), int(np.argmax(self.suit[k])))
                         for k in (0, 1))
        return first, second

    @cached_property
    def _agreement(self) -> tuple[str, float] | None:
        """`agreed`, worked out once."""
        first, second = self._names
        if first != second:
            return None
        probability = min(float(self.rank[k].max() * self.suit[k].max()) for k in (0, 1))
        return first, probability

    def support(self, rank: str, suit: str | None, courts: bool = False) -> float:
        """The lower over both views of the probability given to one card (with `courts`, a
        jack, queen or king is given the probability of any court card of its suit)."""
        ranks = ([RANK_CLASSES.index(r) for r in COURTS] if courts and rank in COURTS else
                 [RANK_CLASSES.index(rank) if rank in RANK_CLASSES else RANK_CLASSES.index("low")])
        s = SUIT_CLASSES.index(suit or "none")
        return float(min(self.rank[k][ranks].sum() * self.suit[k][s] for k in (0, 1)))

    def rank_support(self, rank: str) -> float:
        """The lower over both views of the probability given to a rank, whatever the suit (a
        jack, queen or king: the probability of any court card)."""
        ranks = ([RANK_CLASSES.index(r) for r in COURTS] if rank in COURTS else
                 [RANK_CLASSES.index(rank) if rank in RANK_CLASSES else RANK_CLASSES.index("low")])
        return float(min(self.rank[k][ranks].sum() for k in (0, 1)))

    def view_support(self, view: int, reading: Reading) -> float:
        """The probability one view (0 upright, 1 turned) gives a reading's card."""
        rank = reading.rank.value if reading.rank.value in RANK_CLASSES else "low"
        suit = SUIT_CLASSES.index(reading.suit.value if reading.suit else "none")
        return float(self.rank[view][RANK_CLASSES.index(rank)] * self.suit[view][suit])


def _name(rank: int, suit: int) -> str:
    r, s = RANK_CLASSES[rank], SUIT_CLASSES[suit]
    if r == "JK":
        return "JK"
    if r == "none" or s == "none":
        return "none" if r == "none" else f"{r}?"
    return r + s


def reading_of(name: str, probability: float) -> Reading | None:
    """A Reading for a euchre name or the joker; None for anything else."""
    if name == "JK":
        return Reading(Rank.JOKER, None, round(probability, 3))
    if len(name) != 2 or name[0] not in "9TJQKA" or name[1] not in "CDHS":
        return None
    return Reading(Rank(name[0]), Suit(name[1]), round(probability, 3))


def decide(glyph: Reading | None, scores: CardScores, threshold: float,
           support: float, courts: bool = False, overrule: float = 0.0,
           overrule_threshold: float = 1.0) -> Reading | None:
    """A card's name where the cues agree, else None (present but unreadable).

    A glyph reading of a euchre card stands when both learned views give its card at least
    `support` (a rank 2-8 is not named: the network tells only that it is low; a joker matched
    by its whole face stands, as the network knows no house joker); a card the
    glyph reader left unread is named when both views agree on a euchre card (or the joker)
    with a joint probability of at least `threshold`. With `courts`, a glyph jack, queen or king
    is backed by the network's probability of any court card of its suit: the figure art of a
    deck it never saw misleads its rank, while the glyph reader reads the index letter.
    A glyph reading below `overrule` confidence that the network does not back gives way to
    the network's name when both views agree on it at `overrule_threshold` or more."""
    if glyph is not None:
        if glyph.rank is Rank.JOKER:
            return glyph  # named by its whole face against a known joker, which no index shows
        suit = glyph.suit.value if glyph.suit else None
        backing = scores.support(glyph.rank.value, suit, courts) if glyph.is_euchre else 0.0
        if glyph.is_euchre and backing >= support:
            return Reading(glyph.rank, glyph.suit, round(backing, 3))
        if glyph.confidence >= overrule:
            return None
        threshold = max(threshold, overrule_threshold)
    agreed = scores.agreed()
    if agreed is None or agreed[1] < threshold:
        return None
    return reading_of(*agreed)


@dataclass(frozen=True)
class Rule:
    """When a card is named: thresholds calibrated on held-out photos (the manifest's)."""

    threshold: float = 0.9
    """A card the glyph reader leaves unread is named when both views agree at this or more."""
    support: float = 0.5
    """A glyph reading of a whole card stands when both views give its card this or more."""
    loose: float = 0.0
    """A card read at a loose corner (no whole outline for the network) keeps its name from
    this glyph confidence on; above 1 no loose corner is named."""
    glyph: bool = True
    """False: whole cards are named by the network alone (for comparison)."""
    courts: bool = False
    """A glyph jack, queen or king is backed by the network's belief in any court card of its
    suit (`decide`)."""
    loose_backed: float = 2.0
    """A card read at a loose corner below `loose` keeps its name from this glyph confidence on
    when the network, shown the whole card the corner implies (`corners.cards_of_index`), gives
    that card `loose_support` or more (above 1: never)."""
    loose_support: float = 1.0
    overrule: float = 0.0
    """A glyph reading below this confidence that the network does not back gives way to the
    network's own name (0: never)."""
    overrule_threshold: float = 1.0
    """The joint probability both views must give a name to overrule a weak glyph reading."""


def surer_of(candidates: list[CardScores], reading: Reading | None,
             courts: bool = False) -> CardScores | None:
    """Of the scores of a loose corner's candidate cards, those backing its reading most."""
    if reading is None or not candidates:
        return None
    suit = reading.suit.value if reading.suit else None
    return max(candidates, key=lambda s: s.support(reading.rank.value, suit, courts))


def _loose_backed(observation: CardObservation, scores: CardScores | None, rule: Rule) -> bool:
    """Whether a loose corner's reading is backed by the network's view of its implied card."""
    reading = observation.reading
    if scores is None or reading is None or observation.confidence < rule.loose_backed:
        return False
    suit = reading.suit.value if reading.suit else None
    return scores.support(reading.rank.value, suit, rule.courts) >= rule.loose_support


def checked(observations: list[CardObservation], scores: list[CardScores | None],
            rule: Rule, backed: frozenset[int] = frozenset()) -> list[CardObservation]:
    """The observations with each name kept only where the cues agree (`scores` per
    observation, None for those the network did not see; for a loose corner, the scores of the
    card it implies; `backed`, the positions of loose corners whose reading another cue
    backs)."""
    out = []
    for k, (observation, card_scores) in enumerate(zip(observations, scores, strict=True)):
        if not observation.whole or card_scores is None:
            keep = (observation.reading is not None and observation.reading.is_euchre
                    and (observation.confidence >= rule.loose or k in backed
                         or _loose_backed(observation, card_scores, rule)))
            out.append(observation if keep else replace(observation, reading=None,
                                                        confidence=0.0))
            continue
        glyph = observation.reading if rule.glyph else None
        reading = decide(glyph, card_scores, rule.threshold, rule.support, rule.courts,
                         rule.overrule, rule.overrule_threshold)
        out.append(replace(observation, reading=reading,
                           confidence=reading.confidence if reading else 0.0))
    return out


def with_fresh_names(observations: list[CardObservation],
                     found: dict[int, CardObservation]) -> list[CardObservation]:
    """The observations with those of `found` (by position) put in."""
    return [found.get(k, o) for k, o in enumerate(observations)]


@dataclass(frozen=True)
class LearnedReader:
    """The shipped network with its manifest (input size, classes, calibration)."""

    net: Any
    manifest: dict[str, Any]
    rule: Rule = field(default_factory=Rule)

    def scores(self, frame: Image, quads: list[Quad]) -> list[CardScores]:
        """Class probabilities of every quad of a frame, all views in one forward pass."""
        return scored_quads(self.net, self.manifest, frame, quads, rectify)


def scored_quads(net: Any, manifest: dict[str, Any], frame: Image, quads: list[Quad],
                 views_of: Callable[[Image, Quad, int, int], tuple[Image, Image]]
                 ) -> list[CardScores]:
    """A network's class probabilities for both ends of every quad (`views_of` at the
    manifest's input size), all in one forward pass."""
    if not quads:
        return []
    width, height = manifest["input_width"], manifest["input_height"]
    views: list[Image] = []
    for quad in quads:
        views.extend(views_of(frame, quad, width, height))
    net.setInput(as_blob(views))
    rank_logits, suit_logits = net.forward(["rank", "suit"])
    ranks = softmax(np.asarray(rank_logits, np.float32))
    suits = softmax(np.asarray(suit_logits, np.float32))
    return [CardScores(ranks[k:k + 2], suits[k:k + 2]) for k in range(0, len(views), 2)]


def load_reader(path: Path = MODEL_PATH) -> LearnedReader:
    """Load a reader model and the manifest beside it (`NAME.json`), checking they match."""
    manifest_path = path.with_suffix(".json")
    try:
        manifest = json.loads(manifest_path.read_text())
        net = read_onnx(path)
    except (OSError, ValueError, cv2.error) as error:
        raise ModelFileError(f"cannot load the learned reader {str(path)!r}: {error}") from error
    if (tuple(manifest.get("rank_classes", ())) != RANK_CLASSES
            or tuple(manifest.get("suit_classes", ())) != SUIT_CLASSES):
        raise ModelFileError(f"{str(manifest_path)!r} lists other classes than this reader's")
    net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
    rule = Rule(float(manifest.get("threshold", 0.9)), float(manifest.get("support", 0.5)),
                float(manifest.get("loose", 0.0)), courts=bool(manifest.get("courts", False)),
                loose_backed=float(manifest.get("loose_backed", 2.0)),
                loose_support=float(manifest.get("loose_support", 1.0)),
                overrule=float(manifest.get("overrule", 0.0)),
                overrule_threshold=float(manifest.get("overrule_threshold", 1.0)))
    return LearnedReader(net, manifest, rule)


def read_onnx(path: Path) -> Any:
    """The network of an ONNX file, on OpenCV's classic engine where there is a choice (it
    fuses each convolution with its batch norm and activation: 0.7 of the time of the newer
    engine for the shipped reader on one core)."""
    engine = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
    if engine is None:
        return cv2.dnn.readNetFromONNX(str(path))
    return cv2.dnn.readNetFromONNX(str(path), engine=engine)


@cache
def shipped_reader() -> LearnedReader:
    """The reader shipped in vision/data, loaded once."""
    return load_reader(MODEL_PATH)
