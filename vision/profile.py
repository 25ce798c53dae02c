"""Deck profiles: glyphs of one particular deck, enrolled from single-card photos."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np

from vision.card_glyphs import card_glyphs
from vision.cards import Image, Quad, parse_card
from vision.config import VisionConfig
from vision.deck_config import DeckMatchConfig
from vision.deck_faces import DeckFaces, FaceViews, face_views, merged
from vision.errors import CardNameError, ProfileError
from vision.faces import JOKER, FaceSet, FaceVector, face_vector, image_face
from vision.imageio import read_image
from vision.model import GlyphModel, GlyphSet
from vision.propose import find_cards

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp"})


def card_outline(image: Image, config: VisionConfig) -> Quad:
    """The outline of the one card in a photo, or the whole image when it is a crop of the card."""
    quads = find_cards(image, config)
    if quads:
        return quads[0]
    height, width = image.shape[:2]
    return np.array([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]],
                    np.float32)


def card_face(image: Image, config: VisionConfig) -> FaceVector:
    """The face of the one card in a photo, or of the whole image when it is a crop of the card."""
    quads = find_cards(image, config)
    return face_vector(image, quads[0]) if quads else image_face(image)


def enroll_images(
    images: Iterable[tuple[str, Path]], config: VisionConfig
) -> tuple[GlyphModel, list[str]]:
    """Build a profile from (card name, photo) pairs; returns it and the names that failed.

    The joker (named `JK`) is learnt by its face; the other cards by their index glyphs, and their
    faces are kept too, so that no card of the deck is taken for its joker. Every card's whole
    face is kept as well (`deck_faces.py`), for known-deck reading.
    """
    rank_glyphs, rank_labels, suit_glyphs, suit_labels = [], [], [], []
    faces: list[tuple[str, FaceVector]] = []
    deck: list[tuple[str, FaceViews]] = []
    failed = []
    for name, path in images:
        image = read_image(path)
        views = face_views(image, card_outline(image, config), DeckMatchConfig())
        if name == JOKER:
            deck.append((JOKER, views))
            faces.append((JOKER, card_face(image, config)))
            continue
        rank, suit = parse_card(name)
        deck.append((rank.value + suit.value, views))
        found = card_glyphs(image, config)
        if not found:
            failed.append(name)
            continue
        faces.append((rank.value + suit.value, card_face(image, config)))
        for glyphs in found:
            rank_glyphs.append(glyphs.rank)
            rank_labels.append(rank.value)
            suit_glyphs.append(glyphs.suit)
            suit_labels.append(suit.value)
    return profile_of(rank_glyphs, rank_labels, suit_glyphs, suit_labels, faces, deck), failed


def profile_of(
    rank_glyphs: list[Image], rank_labels: list[str], suit_glyphs: list[Image],
    suit_labels: list[str], faces: list[tuple[str, FaceVector]],
    deck: list[tuple[str, FaceViews]] | None = None,
) -> GlyphModel:
    """A deck profile from learnt glyphs and faces; ProfileError when neither an index nor a
    whole face was learnt."""
    if not rank_glyphs and not deck:
        raise ProfileError("no card index could be read from any enrolment photo")
    return GlyphModel(
        ranks=GlyphSet.from_glyphs(rank_glyphs, rank_labels),
        suits=GlyphSet.from_glyphs(suit_glyphs, suit_labels),
        faces=FaceSet.of(faces),
        deck=DeckFaces.of(deck or []),
    )


JOKER_NAMES = ("JK", "JOKER")


def is_joker_photo(path: Path) -> bool:
    """True for a photo named as a joker (JK.jpg, JK_red.png, joker.jpg)."""
    return path.stem.split("_")[0].upper() in JOKER_NAMES


def folder_images(folder: Path) -> list[tuple[str, Path]]:
    """(card name, path) for each photo in a folder named by card, such as JH.jpg, 10H.png or
    JK.jpg (the joker)."""
    if not folder.is_dir():
        raise ProfileError(f"not a folder of card photos: {str(folder)!r}")
    pairs = []
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() not in IMAGE_SUFFIXES:
            continue
        if is_joker_photo(path):
            pairs.append((JOKER, path))
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
        if not len(b.labels):
            return a
        if a.features.shape[1] != b.features.shape[1]:
            raise ProfileError(
                f"the deck profile has {b.features.shape[1]} glyph features, this model "
                f"{a.features.shape[1]}: enroll the deck again"
            )
        return GlyphSet(np.concatenate([a.features, b.features]),
                        np.concatenate([a.labels, b.labels]))

    return GlyphModel(merge(base.ranks, profile.ranks), merge(base.suits, profile.suits),
                      base.faces + profile.faces, merged(base.deck, profile.deck))
