"""The learned index reader: a small CNN over a card's index corner, a second opinion."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.card_size import card_shaped
from vision.cards import CardObservation, Image, Quad, Reading
from vision.config import VisionConfig
from vision.corners import cards_of_index
from vision.learned import (
    DATA,
    RANK_CLASSES,
    SUIT_CLASSES,
    CardScores,
    ModelFileError,
    oriented,
    read_onnx,
    reading_of,
    rectify_index,
    scored_quads,
    with_fresh_names,
)

INDEX_MODEL_PATH = DATA / "index.onnx"


@dataclass(frozen=True)
class IndexReader:
    """The shipped index network with its manifest (input size, classes, threshold)."""

    net: Any
    manifest: dict[str, Any]

    @property
    def threshold(self) -> float:
        """Where a card both readers name alike is named (above 1: never)."""
        return float(self.manifest.get("threshold", 2.0))

    @property
    def loose_support(self) -> float:
        """Where a weak loose corner's reading is backed by the index view of its corner (above
        1: never)."""
        return float(self.manifest.get("loose_support", 2.0))

    def scores(self, frame: Image, quads: list[Quad]) -> list[CardScores]:
        """Class probabilities of the index corners of every quad (both ends), in one pass."""
        return scored_quads(self.net, self.manifest, frame, quads, rectify_index)


def named_by_both(card: CardScores, index: CardScores, threshold: float) -> Reading | None:
    """The euchre card both readers name in both views, when the weaker of their joint
    probabilities is `threshold` or more; else None."""
    whole, corner = card.agreed(), index.agreed()
    if whole is None or corner is None or whole[0] != corner[0]:
        return None
    reading = reading_of(whole[0], min(whole[1], corner[1]))
    if reading is None or not reading.is_euchre or reading.confidence < threshold:
        return None
    return reading


def load_index_reader(path: Path = INDEX_MODEL_PATH) -> IndexReader:
    """Load an index model and the manifest beside it (`NAME.json`), checking they match."""
    manifest_path = path.with_suffix(".json")
    try:
        manifest = json.loads(manifest_path.read_text())
        net = read_onnx(path)
    except (OSError, ValueError, cv2.error) as error:
        raise ModelFileError(f"cannot load the index reader {str(path)!r}: {error}") from error
    if (tuple(manifest.get("rank_classes", ())) != RANK_CLASSES
            or tuple(manifest.get("suit_classes", ())) != SUIT_CLASSES
            or manifest.get("view") != "index"):
        raise ModelFileError(f"{str(manifest_path)!r} is not an index reader of these classes")
    net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
    return IndexReader(net, manifest)


@cache
def shipped_index_reader() -> IndexReader:
    """The index reader shipped in vision/data, loaded once."""
    return load_index_reader(INDEX_MODEL_PATH)


def named_with_index(frame: Image, observations: list[CardObservation],
                     card_scores: dict[int, CardScores], reader: IndexReader,
                     config: VisionConfig,
                     index_scores: Callable[[list[Quad]], list[CardScores]] | None = None,
                     ) -> list[CardObservation]:
    """The observations with each unnamed whole card of a card's shape the card reader has
    scores for (by position) named where the index reader names it alike (`named_by_both`).
    (An outline
    spanning two cards has the index of one at its corner.) `index_scores` gives the index
    reader's scores of quads seen before (by default the reader looks afresh)."""
    unread = [k for k in sorted(card_scores)
              if observations[k].whole and observations[k].reading is None
              and card_shaped(observations[k].corners, None, config)]
    found: dict[int, CardObservation] = {}
    scores_of = index_scores or (lambda quads: reader.scores(frame, quads))
    for k, index in zip(unread, scores_of([observations[k].corners for k in unread]),
                        strict=True):
        reading = named_by_both(card_scores[k], index, reader.threshold)
        if reading is not None:
            found[k] = replace(observations[k], reading=reading, confidence=reading.confidence)
    return with_fresh_names(observations, found)


def kept_by_one_end(before: list[CardObservation], after: list[CardObservation],
                    card_scores: dict[int, CardScores],
                    index_scores: Callable[[list[Quad]], list[CardScores]],
                    least_index: float,
                    shaped: Callable[[Quad], bool]) -> list[CardObservation]:
    """`after` with each whole card's glyph reading that the check vetoed (a card the card
    network scored, `card_scores` by position) put back where the index reader backs it at one
    end (a card whose other end lies under another, which the card network sees on it), on
    outlines of a card's shape (`shaped`), the index reader giving the card `least_index` or
    more at one end."""
    vetoed = [k for k, (earlier, now) in enumerate(zip(before, after, strict=True))
              if earlier.whole and now.reading is None and earlier.reading is not None
              and earlier.reading.is_euchre
              and k in card_scores and shaped(earlier.corners)]
    if not vetoed:
        return after
    found: dict[int, CardObservation] = {}
    for k, index in zip(vetoed, index_scores([before[k].corners for k in vetoed]), strict=True):
        reading = before[k].reading
        assert reading is not None
        level = max(index.view_support(view, reading) for view in (0, 1))
        if level >= least_index:
            kept = replace(reading, confidence=round(level, 3))
            found[k] = replace(before[k], reading=kept, confidence=kept.confidence,
                               one_end=True)
    return with_fresh_names(after, found)


def index_support(frame: Image, corners: list[Quad], readings: list[Reading],
                  reader: IndexReader, config: VisionConfig,
                  index_scores: Callable[[list[Quad]], list[CardScores]] | None = None,
                  ) -> list[float]:
    """For each loose corner (its index box, `vision.corners.corner_views`) and its glyph
    reading, the index reader's probability of that card in the index view of the corner: the
    view of a card the corner implies (`cards_of_index`) whose top-left is the corner's tip.
    `index_scores` gives the index reader's scores of quads seen before (as
    `named_with_index`)."""
    quads = [quad for box in corners for quad in cards_of_index(box, config)]
    found = (index_scores or (lambda seen: reader.scores(frame, seen)))(quads)
    out = []
    for n, (box, reading) in enumerate(zip(corners, readings, strict=True)):
        best = 0.0
        for quad, scores in zip(quads[2 * n:2 * n + 2], found[2 * n:2 * n + 2], strict=True):
            pts = oriented(quad, (frame.shape[1], frame.shape[0]))
            for view, start in enumerate((0, 2)):
                tip = np.roll(pts, -start, axis=0)[0]
                if float(np.linalg.norm(np.asarray(box) - tip, axis=1).min()) <= 1.5:
                    best = max(best, scores.view_support(view, reading))
        out.append(best)
    return out


def vouched_by_index(before: list[CardObservation], after: list[CardObservation],
                     level: float, index_scores: Callable[[list[Quad]], list[CardScores]],
                     ) -> list[CardObservation]:
    """`after` (the learned check's verdict on `before`, position by position) with each whole
    card whose glyph name the card network kept below `level` given the confidence the index
    readers agree on: where the glyph reading and the index network's name in both views are
    that card at `level` or more, the lower of the two."""
    chosen = [k for k, (glyph, kept) in enumerate(zip(before, after, strict=True))
              if kept.whole and kept.reading is not None and kept.name == glyph.name
              and kept.confidence < level <= glyph.confidence]
    if not chosen:
        return after
    out = list(after)
    for k, corner in zip(chosen, index_scores([after[k].corners for k in chosen]), strict=True):
        agreed, reading = corner.agreed(), after[k].reading
        if agreed is None or reading is None or agreed[0] != after[k].name or agreed[1] < level:
            continue
        confidence = round(min(before[k].confidence, agreed[1]), 3)
        out[k] = replace(after[k], reading=replace(reading, confidence=confidence),
                         confidence=confidence)
    return out
