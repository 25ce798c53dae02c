"""Fit the glyph model from synthetic glyphs and, optionally, labelled photos of one deck."""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from tools.glyph_fonts import blobs, font_ranks, font_suits, slender_suits
from tools.synthetic import artwork_cards, drawn_suits, hershey_ranks, soft_copies
from vision.card_glyphs import card_glyphs
from vision.cards import Image
from vision.config import VisionConfig
from vision.features import glyph_features
from vision.glyphs import IndexGlyphs, index_views, split_index
from vision.model import GlyphModel, GlyphSet
from vision.propose import find_cards

ARTWORK_SUITS_FROM = frozenset("9TA")
"""The artwork's court cards print the suit beside the rank, into the picture: their rank glyphs
are used, their suit glyphs are not."""

EDJE_BLOCK = 20
"""Photos of the rank-only set are split in blocks of this many consecutive names."""


def is_fit_photo(key: str) -> bool:
    """True for photos of the rank-only set used for fitting; the others are kept for measuring."""
    name = key.rsplit("/", 1)[-1]
    stem = name.rsplit(".", 1)[0]
    digits = "".join(ch for ch in stem if ch.isdigit())
    number = int(digits) if digits else zlib.crc32(stem.encode())
    return (number // EDJE_BLOCK) % 2 == 0


def _agreeing(pair: list[IndexGlyphs], level: float = 0.8) -> bool:
    """True when both corners of a card gave similar rank glyphs."""
    if len(pair) != 2:
        return False
    a, b = (glyph_features(g.rank) for g in pair)
    return float(a @ b) >= level


def _shaped_like(rank: str, glyphs: IndexGlyphs) -> bool:
    """True when the glyph's pieces fit the labelled rank: a ten's two, or one for the others."""
    return glyphs.ten_shaped if rank == "T" else glyphs.rank_parts == 1


def labelled_photo_ranks(shared_vision: Path, config: VisionConfig) -> Iterator[tuple[str, Image]]:
    """Rank glyphs harvested from the fit half of the rank-only photo set (edje_train)."""
    labels = json.loads((shared_vision / "labels.json").read_text())
    for key, record in sorted(labels["images"].items()):
        if record["set"] != "edje_train" or not is_fit_photo(key):
            continue
        image = cv2.imread(str(shared_vision / "dev" / key))
        if image is None:
            continue
        truths = [c for c in record["cards"] if c.get("rank")]
        for quad in find_cards(image, config):
            cx, cy = quad.mean(axis=0)
            inside = [t for t in truths
                      if t["box"][0] <= cx <= t["box"][2] and t["box"][1] <= cy <= t["box"][3]]
            if len(inside) != 1:
                continue
            views = index_views(image, quad, config)
            pair = [g for g in (split_index(v, config) for v in views) if g]
            rank = inside[0]["rank"]
            if _agreeing(pair) and all(_shaped_like(rank, glyphs) for glyphs in pair):
                for glyphs in pair:
                    yield rank, glyphs.rank


def fit_model(
    artwork: Path | None, shared_vision: Path | None, config: VisionConfig
) -> GlyphModel:
    """Fit a model: synthetic glyphs, plus artwork indices and edje_train's fit half if given."""
    rng = np.random.default_rng(7)
    rank_glyphs: list[Image] = []
    rank_labels: list[str] = []
    suit_glyphs: list[Image] = []
    suit_labels: list[str] = []
    for rank, glyph in hershey_ranks(config.glyph_size, rng):
        rank_glyphs.append(glyph)
        rank_labels.append(rank)
    for suit, glyph in drawn_suits(config.glyph_size, rng):
        suit_glyphs.append(glyph)
        suit_labels.append(suit)
    for rank, glyph in font_ranks(config.glyph_size, rng):
        rank_glyphs.append(glyph)
        rank_labels.append(rank)
    for suit, glyph in [*font_suits(config.glyph_size, rng), *slender_suits(config.glyph_size, rng),
                        *blobs(config.glyph_size, rng)]:
        suit_glyphs.append(glyph)
        suit_labels.append(suit)
    for name, image in artwork_cards(artwork) if artwork else ():
        padded = cv2.copyMakeBorder(image, 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=(30, 60, 30))
        for glyphs in card_glyphs(padded, config):
            if not _shaped_like(name[0], glyphs):
                continue
            rank_glyphs.append(glyphs.rank)
            rank_labels.append(name[0])
            if name[0] not in ARTWORK_SUITS_FROM:
                continue
            suit_glyphs.append(glyphs.suit)
            suit_labels.append(name[1])
            for soft in soft_copies(glyphs.suit, rng, 2):
                suit_glyphs.append(soft)
                suit_labels.append(name[1])
    if shared_vision is not None:
        for rank, glyph in labelled_photo_ranks(shared_vision, config):
            rank_glyphs.append(glyph)
            rank_labels.append(rank)
    return GlyphModel(
        ranks=GlyphSet.from_glyphs(rank_glyphs, rank_labels),
        suits=GlyphSet.from_glyphs(suit_glyphs, suit_labels),
    )
