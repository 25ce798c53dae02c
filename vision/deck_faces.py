"""Enrolled faces of one known deck: small rectified views of each card, kept as raw pixels.

A profile keeps, per enrolled sample, the whole face in grey (`deck_grey`, 60x40) and in colour
(`deck_colour`, 30x20x3, BGR), the index corner in grey (`deck_index`, 36x24) and the ink colour
of the index (`deck_ink`, two chroma ratios); `deck_names` names each sample. All are uint8 but
the ink (float32), so a 24-card profile stays near 100 kB.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np
import numpy.typing as npt

from vision.cards import Image, Quad
from vision.deck_config import DeckMatchConfig
from vision.foreshortening import long_pair

Vectors = npt.NDArray[np.float32]
ARRAY_NAMES = ("deck_names", "deck_grey", "deck_colour", "deck_index", "deck_ink")


@dataclass(frozen=True)
class FaceViews:
    """One rectified card, upright as outlined: its grey face, colour face, index and ink."""

    grey: npt.NDArray[np.uint8]
    colour: npt.NDArray[np.uint8]
    index: npt.NDArray[np.uint8]
    ink: npt.NDArray[np.float32] | None
    """Chroma of the index ink against the card's own white; None when no ink was seen."""


def _upright(corners: Quad, size: tuple[int, int]) -> npt.NDArray[np.float32]:
    """The outline's corners ordered so the first side is a short side (portrait card) in a
    frame of `size` (width, height)."""
    points = np.asarray(corners, dtype=np.float32).reshape(4, 2)
    if long_pair(points, size) == 0:
        points = np.roll(points, -1, axis=0)
    return points


def rectified(frame: Image, corners: Quad, config: DeckMatchConfig) -> Image:
    """The outlined card warped upright to the working size (shrunk by area from the frame),
    less a thin strip at every edge (`inset`: outline error, table showing through)."""
    width, height = config.work_size
    dy, dx = round(config.inset * height), round(config.inset * width)
    points = _upright(corners, (frame.shape[1], frame.shape[0]))
    long_side = float(max(np.linalg.norm(points[1] - points[2]),
                          np.linalg.norm(points[3] - points[0])))
    factor = int(np.clip(np.ceil(long_side / height), 1, config.max_oversample))
    big = (width * factor, height * factor)
    target = np.array([[0, 0], [big[0], 0], [big[0], big[1]], [0, big[1]]], np.float32)
    matrix = cv2.getPerspectiveTransform(points, target - np.array([dx, dy], np.float32) * factor)
    inner = (width - 2 * dx, height - 2 * dy)
    warped = cv2.warpPerspective(frame, matrix, (inner[0] * factor, inner[1] * factor),
                                 flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if warped.ndim == 2:
        warped = cv2.cvtColor(warped, cv2.COLOR_GRAY2BGR)
    if factor > 1:
        warped = cv2.resize(warped, inner, interpolation=cv2.INTER_AREA)
    card: Image = warped
    return card


def _index_region(card: Image, config: DeckMatchConfig) -> Image:
    """The top-left index corner of a rectified card (`rectified`: inside the inset)."""
    width, height = config.work_size
    share_w, share_h = config.index_share
    region: Image = card[:round(share_h * height), :round(share_w * width)]
    return region


def ink_chroma(card: Image, small: Image,
               config: DeckMatchConfig) -> npt.NDArray[np.float32] | None:
    """The index ink's colour as (red - green, blue - green) per unit of darkness, against the
    card's own white (in its colour view `small`); mixing ink with white (blur, small print)
    leaves these ratios unchanged."""
    white = _percentile(small.reshape(-1, 3), config.white_percentile)
    if float(white.min()) < 1.0:
        return None
    regions = (_index_region(card, config), _index_region(card[::-1, ::-1], config))
    pixels = np.concatenate([r.reshape(-1, 3) for r in regions]) / white.astype(np.float32)
    pixels = np.minimum(pixels, 1.0)
    darkness = 1.0 - pixels @ np.full(3, 1 / 3, np.float32)
    ink = darkness > config.ink_darkness
    if ink.mean() < config.ink_min_share:
        return None
    blue, green, red = pixels[ink].sum(axis=0).tolist()
    total = float(darkness[ink].sum())
    return np.array([(red - green) / total, (blue - green) / total], np.float32)


def _percentile(values: Image, percent: float) -> npt.NDArray[np.float32]:
    """Each column's percentile, interpolated as numpy's (without its cost on a few values)."""
    ordered = np.sort(values, axis=0).astype(np.float32)
    at = percent / 100 * (len(ordered) - 1)
    low = int(at)
    step = ordered[min(low + 1, len(ordered) - 1)] - ordered[low]
    return np.asarray(ordered[low] + (at - low) * step, np.float32)


def face_views(frame: Image, corners: Quad, config: DeckMatchConfig) -> FaceViews:
    """The small views of the outlined card that a deck profile keeps and compares."""
    return views_of(rectified(frame, corners, config), config)


def views_of(card: Image, config: DeckMatchConfig, with_ink: bool = True) -> FaceViews:
    """The small views of a card already rectified (`rectified`; the ink colour left out
    unless `with_ink`)."""
    grey_card = cv2.cvtColor(card, cv2.COLOR_BGR2GRAY)
    grey = cv2.resize(grey_card, config.face_size, interpolation=cv2.INTER_AREA)
    colour = cv2.resize(card, config.colour_size, interpolation=cv2.INTER_AREA)
    return FaceViews(np.asarray(grey, np.uint8), np.asarray(colour, np.uint8),
                     index_view(card, config), ink_chroma(card, colour, config) if with_ink
                     else None)


def index_view(card: Image, config: DeckMatchConfig) -> npt.NDArray[np.uint8]:
    """The grey view of a rectified card's top-left index corner."""
    index_grey = cv2.cvtColor(_index_region(card, config), cv2.COLOR_BGR2GRAY)
    return np.asarray(cv2.resize(index_grey, config.index_size, interpolation=cv2.INTER_AREA),
                      np.uint8)


def colour_vectors(images: npt.NDArray[np.uint8], chroma_weight: float) -> Vectors:
    """Normalised vectors of colour views (N, H, W, 3) in Lab, lightness and chroma each less
    its mean (so a colour cast drops out), chroma weighted up."""
    if not len(images):
        return np.zeros((0, int(np.prod(images.shape[1:]))), np.float32)
    lab = cv2.cvtColor(images.reshape(-1, *images.shape[2:]), cv2.COLOR_BGR2LAB).reshape(
        len(images), -1, 3).astype(np.float32)
    means = np.full(lab.shape[1], 1 / lab.shape[1], np.float32) @ lab
    weights = np.array([1.0, chroma_weight, chroma_weight], np.float32)
    rows = ((lab - means[:, None]) * weights).reshape(len(images), -1)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    unit: Vectors = (rows / np.maximum(norms, 1e-6)).astype(np.float32)
    return unit


@dataclass(frozen=True, eq=False)
class DeckFaces:
    """The enrolled samples of a known deck, with their card names."""

    names: npt.NDArray[np.str_]
    grey: npt.NDArray[np.uint8]
    colour: npt.NDArray[np.uint8]
    index: npt.NDArray[np.uint8]
    ink: npt.NDArray[np.float32]
    """(N, 2) chroma of each sample's index ink; NaN where none was seen."""

    @classmethod
    def of(cls, samples: list[tuple[str, FaceViews]]) -> DeckFaces | None:
        """Faces from (card name, views) pairs; None when there are none."""
        if not samples:
            return None
        nan = np.array([np.nan, np.nan], np.float32)
        return cls(np.array([name for name, _ in samples], dtype="<U2"),
                   np.stack([v.grey for _, v in samples]),
                   np.stack([v.colour for _, v in samples]),
                   np.stack([v.index for _, v in samples]),
                   np.stack([v.ink if v.ink is not None else nan for _, v in samples]))

    @classmethod
    def from_arrays(cls, data: Mapping[str, npt.NDArray[np.generic]]) -> DeckFaces:
        """Faces from a profile's saved arrays (see `arrays`)."""
        return cls(np.asarray(data["deck_names"]).astype("<U2"),
                   np.asarray(data["deck_grey"], np.uint8),
                   np.asarray(data["deck_colour"], np.uint8),
                   np.asarray(data["deck_index"], np.uint8),
                   np.asarray(data["deck_ink"], np.float32))

    def arrays(self) -> dict[str, npt.NDArray[np.generic]]:
        """The arrays a profile file keeps, named as `ARRAY_NAMES`."""
        return dict(zip(ARRAY_NAMES, (self.names, self.grey, self.colour, self.index, self.ink),
                        strict=True))

    def __add__(self, other: DeckFaces) -> DeckFaces:
        return DeckFaces(*(np.concatenate([a, b]) for a, b in
                           zip(self.arrays().values(), other.arrays().values(), strict=True)))

    def __len__(self) -> int:
        return len(self.names)

    @cached_property
    def suit_inks(self) -> dict[str, npt.NDArray[np.float32]]:
        """The mean ink chroma of each enrolled suit (suits whose ink was never seen left out)."""
        inks: dict[str, npt.NDArray[np.float32]] = {}
        for suit in sorted({str(n)[1:] for n in self.names if len(str(n)) == 2}):
            rows = self.ink[[str(n)[1:] == suit for n in self.names]]
            rows = rows[~np.isnan(rows).any(axis=1)]
            if len(rows):
                inks[suit] = rows.mean(axis=0).astype(np.float32)
        return inks


def merged(first: DeckFaces | None, second: DeckFaces | None) -> DeckFaces | None:
    """Both sets of enrolled samples (either may be missing)."""
    if first is None or second is None:
        return first if second is None else second
    return first + second
