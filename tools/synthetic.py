"""Synthetic glyphs for fitting: Hershey-font ranks, drawn suit shapes and svg-cards artwork."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from vision.cards import Image
from vision.glyphs import normalise_glyph

RANK_TEXT = {"2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8", "9": "9",
             "T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}
GERMAN_RANK_TEXT = {"J": "B", "Q": "D"}
"""German indices print the jack as B (Bube) and the queen as D (Dame)."""
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
         cv2.FONT_HERSHEY_TRIPLEX)


def _crop(mask: Image) -> Image:
    """Crop a binary image to the bounding box of its ink."""
    ys, xs = np.nonzero(mask)
    return mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def _variants(mask: Image, rng: np.random.Generator, count: int,
              blur: bool = False) -> Iterator[Image]:
    """Slightly rotated, stretched and shrunk copies of a binary glyph; with `blur`, also
    blurred and cut at a random level, so strokes swell or thin as in soft photos."""
    for _ in range(count):
        level = 100
        angle = rng.uniform(-6, 6)
        stretch = rng.uniform(0.75, 1.25)
        canvas = cv2.copyMakeBorder(mask, 8, 8, 8, 8, cv2.BORDER_CONSTANT, value=0)
        centre = (canvas.shape[1] / 2, canvas.shape[0] / 2)
        matrix = cv2.getRotationMatrix2D(centre, angle, 1.0)
        turned = cv2.warpAffine(canvas, matrix, (canvas.shape[1], canvas.shape[0]))
        turned = cv2.resize(turned, (max(4, round(turned.shape[1] * stretch)), turned.shape[0]))
        small = cv2.resize(turned, (max(4, turned.shape[1] // 3), max(4, turned.shape[0] // 3)),
                           interpolation=cv2.INTER_AREA)
        if blur:
            sigma = rng.uniform(0.5, 2.0)
            small = cv2.GaussianBlur(small, (0, 0), sigma)
            level = int(rng.uniform(50, 170))
        binary = (small > level).astype(np.uint8) * 255
        if binary.any():
            yield _crop(binary)


def soft_copies(glyph: Image, rng: np.random.Generator, count: int) -> Iterator[Image]:
    """Blurred copies of a normalised glyph cut at random levels, normalised again."""
    size = glyph.shape[0]
    for _ in range(count):
        soft = cv2.GaussianBlur(glyph, (0, 0), rng.uniform(0.5, 1.5))
        binary = (soft > int(rng.uniform(50, 170))).astype(np.uint8) * 255
        if binary.any():
            yield normalise_glyph(_crop(binary), size)


def hershey_ranks(size: int, rng: np.random.Generator, per_style: int = 2) -> Iterator[
        tuple[str, Image]]:
    """Rank glyphs written in OpenCV's Hershey fonts at several weights (German B, D too)."""
    texts = [*RANK_TEXT.items(), *GERMAN_RANK_TEXT.items()]
    for rank, text in texts:
        for font in FONTS:
            for thickness in (3, 5, 7, 9):
                canvas = np.zeros((160, 220), np.uint8)
                cv2.putText(canvas, text, (10, 130), font, 4.0, 255, thickness, cv2.LINE_AA)
                mask = _crop((canvas > 127).astype(np.uint8) * 255)
                for variant in _variants(mask, rng, per_style):
                    yield rank, normalise_glyph(variant, size)


def suit_shape(suit: str, width: float) -> Image:
    """Draw one suit symbol, filled, on a 120x120 canvas; width scales it horizontally."""
    canvas: Image = np.zeros((120, 120), np.uint8)
    cx = 60
    w = 50 * width
    if suit == "D":
        pts = np.array([[cx, 5], [cx + w * 0.8, 60], [cx, 115], [cx - w * 0.8, 60]], np.int32)
        cv2.fillPoly(canvas, [pts], 255)
    elif suit in ("H", "S"):
        r = int(w * 0.52)
        cv2.circle(canvas, (int(cx - w * 0.48), 38), r, 255, -1)
        cv2.circle(canvas, (int(cx + w * 0.48), 38), r, 255, -1)
        pts = np.array([[cx - w, 48], [cx + w, 48], [cx, 110]], np.int32)
        cv2.fillPoly(canvas, [pts], 255)
        if suit == "S":
            canvas = cv2.flip(canvas, 0)
            stem = np.array([[cx, 60], [cx + w * 0.35, 118], [cx - w * 0.35, 118]], np.int32)
            canvas = cv2.copyMakeBorder(canvas[8:], 0, 8, 0, 0, cv2.BORDER_CONSTANT, value=0)
            cv2.fillPoly(canvas, [stem], 255)
    else:
        r = int(w * 0.5)
        cv2.circle(canvas, (cx, 32), r, 255, -1)
        cv2.circle(canvas, (int(cx - w * 0.55), 68), r, 255, -1)
        cv2.circle(canvas, (int(cx + w * 0.55), 68), r, 255, -1)
        stem = np.array([[cx, 50], [cx + w * 0.3, 118], [cx - w * 0.3, 118]], np.int32)
        cv2.fillPoly(canvas, [stem], 255)
    return _crop(canvas)


def drawn_suits(size: int, rng: np.random.Generator, per_style: int = 4) -> Iterator[
        tuple[str, Image]]:
    """Suit glyphs drawn from circles and polygons at several widths."""
    for suit in "CDHS":
        for width in (0.7, 0.8, 0.9, 1.0, 1.1):
            mask = suit_shape(suit, width)
            for variant in _variants(mask, rng, per_style):
                yield suit, normalise_glyph(variant, size)
            for variant in _variants(mask, rng, per_style, blur=True):
                yield suit, normalise_glyph(variant, size)


def artwork_cards(folder: Path) -> Iterator[tuple[str, Image]]:
    """svg-cards faces (name, BGR image on white) from a folder of PNGs named like 'JH.png'."""
    for path in sorted(folder.glob("*.png")):
        name = path.stem
        if len(name) != 2:
            continue
        rgba = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
        if rgba is None:
            continue
        if rgba.shape[2] == 4:
            alpha = rgba[:, :, 3:4].astype(np.float32) / 255.0
            rgb = rgba[:, :, :3].astype(np.float32) * alpha + 255.0 * (1.0 - alpha)
            image = rgb.astype(np.uint8)
        else:
            image = rgba
        yield name, image
