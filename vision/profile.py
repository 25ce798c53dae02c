"""Deck profiles: glyphs of one particular deck, enrolled from single-card photos."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np

from vision.cards import parse_card
from vision.config import VisionConfig
from vision.errors import CardNameError, ProfileError
from vision.fitting import card_glyphs
from vision.imageio import read_image
from vision.model import GlyphModel, GlyphSet

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp"})


def enroll_images(
    images: Iterable[tuple[str, Path]], config: VisionConfig
) -> tuple[GlyphModel, list[str]]:
    """Build a profile from (card name, photo) pairs; returns it and the names that failed."""
    rank_glyphs, rank_labels, suit_glyphs, suit_labels = [], [], [], []
    failed = []
    for name, path in images:
        rank, suit = parse_card(name)
        found = card_glyphs(read_image(path), config)
        if not found:
            failed.append(name)
            continue
        for glyphs in found:
            rank_glyphs.append(glyphs.rank)
            rank_labels.append(rank.value)
            suit_glyphs.append(glyphs.suit)
            suit_labels.append(suit.value)
    if not rank_glyphs:
        raise ProfileError("no card index could be read from any enrolment photo")
    profile = GlyphModel(
        ranks=GlyphSet.from_glyphs(rank_glyphs, rank_labels),
        suits=GlyphSet.from_glyphs(suit_glyphs, suit_labels),
    )
    return profile, failed


JOKER_NAMES = ("JK", "JOKER")


def is_joker_photo(path: Path) -> bool:
    """True for a photo named as a joker (JK.jpg, JK_red.png, joker.jpg)."""
    return path.stem.split("_")[0].upper() in JOKER_NAMES


def folder_images(folder: Path) -> list[tuple[str, Path]]:
    """(card name, path) for each photo in a folder named by card, such as JH.jpg or 10H.png.

    Joker photos are left out: the joker is not learnt yet.
    """
    if not folder.is_dir():
        raise ProfileError(f"not a folder of card photos: {str(folder)!r}")
    pairs = []
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() not in IMAGE_SUFFIXES or is_joker_photo(path):
            continue
        name = path.stem.split("_")[0]
        try:
            parse_card(name)
        except CardNameError as error:
            raise ProfileError(f"photo {path.name!r} is not named by card: {error}") from error
        pairs.append((name, path))
    if not pairs:
        raise ProfileError(f"no card photos in {str(folder)!r}")
    return pairs


def with_profile(base: GlyphModel, profile: GlyphModel) -> GlyphModel:
    """The base model with a deck profile's glyphs added (the profile's deck then reads best)."""

    def merge(a: GlyphSet, b: GlyphSet) -> GlyphSet:
        return GlyphSet(np.concatenate([a.features, b.features]),
                        np.concatenate([a.labels, b.labels]))

    return GlyphModel(merge(base.ranks, profile.ranks), merge(base.suits, profile.suits))
