"""Rank and suit glyphs rendered from TrueType fonts (DejaVu), for fitting the glyph model
(`tools.fitting`; never needed at run time)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from vision.cards import Image
from vision.errors import VisionError
from vision.glyphs import normalise_glyph
from vision.read import BLOB, PIECE_TEXT

FONT_DIRS = (
    Path(__file__).resolve().parents[1] / "display" / "fonts",
    Path("/usr/share/fonts/truetype/dejavu"),
)
"""Where fonts are looked for, first match wins."""

RANK_FONTS = ("DejaVuSerif.ttf", "DejaVuSerifCondensed.ttf", "DejaVuSerif-Bold.ttf")
SUIT_FONTS = ("DejaVuSans.ttf", "DejaVuSerif.ttf", "DejaVuSans-Bold.ttf")
RANK_TEXT = {"9": "9", "T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}
"""Euchre ranks only: ranks 2-8 come from the Hershey fonts; serif 2-8 took margin from the
euchre ranks that matter."""
GERMAN_RANK_TEXT = {"J": "B", "Q": "D"}
"""German indices print the jack as B (Bube) and the queen as D (Dame)."""
SUIT_TEXT = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
"""The filled suit symbols of Unicode's playing-card block."""
HOOKED = frozenset("J")
"""Letters whose serif form (a hook hanging below the line) is not printed on card indices and
looks like a piece broken off a blurred '9'."""
RENDER_PX = 96


def find_font(name: str) -> Path | None:
    """The path of a font file by name in the known font folders; None when absent."""
    for folder in FONT_DIRS:
        path = folder / name
        if path.is_file():
            return path
    return None


class FontMissingError(VisionError, FileNotFoundError):
    """A font the glyph model is fitted from is in none of the font folders."""


def require_font(name: str) -> Path:
    """The path of a font the model is fitted from; raises FontMissingError when absent."""
    path = find_font(name)
    if path is None:
        folders = ", ".join(str(folder) for folder in FONT_DIRS)
        raise FontMissingError(f"font {name!r} not found in {folders} (Debian: fonts-dejavu-core)")
    return path


def render_text(font_path: Path, text: str, pixels: int = RENDER_PX) -> Image:
    """Render text white on black with pygame's FreeType font, cropped to its ink."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame.font

    if not pygame.font.get_init():
        pygame.font.init()
    font = pygame.font.Font(str(font_path), pixels)
    surface = font.render(text, True, (255, 255, 255), (0, 0, 0))
    import pygame.surfarray

    grey = np.ascontiguousarray(pygame.surfarray.array3d(surface)[:, :, 0].T)
    mask = (grey > 127).astype(np.uint8) * 255
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return mask
    return mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def _weights(mask: Image) -> Iterator[Image]:
    """The glyph at its own weight, thinned and thickened by a few pixels of a 96 px render."""
    yield mask
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    thin = cv2.erode(mask, kernel)
    if thin.any():
        yield thin
    yield cv2.dilate(mask, kernel)


def _jittered(mask: Image, rng: np.random.Generator, count: int, size: int) -> Iterator[Image]:
    """Slightly rotated and stretched copies, shrunk and cut again as a small photo would be;
    copies that break into more pieces than the glyph has are left out."""
    pieces = cv2.connectedComponents(mask, connectivity=8)[0]
    for _ in range(count):
        canvas = cv2.copyMakeBorder(mask, 12, 12, 12, 12, cv2.BORDER_CONSTANT, value=0)
        centre = (canvas.shape[1] / 2, canvas.shape[0] / 2)
        turned = cv2.warpAffine(canvas, cv2.getRotationMatrix2D(centre, rng.uniform(-5, 5), 1.0),
                                (canvas.shape[1], canvas.shape[0]))
        stretch = rng.uniform(0.8, 1.2)
        height = int(rng.uniform(18, 40))
        width = max(4, round(turned.shape[1] * stretch * height / turned.shape[0]))
        small = cv2.resize(turned, (width, height), interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(small, (0, 0), rng.uniform(0.3, 1.0))
        binary = (small > int(rng.uniform(70, 170))).astype(np.uint8) * 255
        ys, xs = np.nonzero(binary)
        if len(xs) and cv2.connectedComponents(binary, connectivity=8)[0] == pieces:
            yield normalise_glyph(binary[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1], size)


def font_ranks(size: int, rng: np.random.Generator, per_weight: int = 3) -> Iterator[
        tuple[str, Image]]:
    """Rank glyphs of the DejaVu serif fonts (German B and D, a ten's lone '1' too), at three
    weights each."""
    texts = [*RANK_TEXT.items(), *GERMAN_RANK_TEXT.items(), *PIECE_TEXT.items()]
    for name in RANK_FONTS:
        path = require_font(name)
        for rank, text in texts:
            if text in HOOKED and "Serif" in name:
                continue
            for mask in _weights(render_text(path, text)):
                for glyph in _jittered(mask, rng, per_weight, size):
                    yield rank, glyph


def font_suits(size: int, rng: np.random.Generator, per_weight: int = 3) -> Iterator[
        tuple[str, Image]]:
    """Suit glyphs of the DejaVu fonts, at three weights each."""
    for name in SUIT_FONTS:
        path = require_font(name)
        for suit, text in SUIT_TEXT.items():
            for mask in _weights(render_text(path, text)):
                for glyph in _jittered(mask, rng, per_weight, size):
                    yield suit, glyph



def blobs(size: int, rng: np.random.Generator, count: int = 24) -> Iterator[tuple[str, Image]]:
    """Filled ellipses of many aspects, labelled as no suit."""
    for _ in range(count):
        canvas = np.zeros((120, 120), np.uint8)
        axes = (int(rng.uniform(25, 55)), int(rng.uniform(25, 55)))
        cv2.ellipse(canvas, (60, 60), axes, rng.uniform(0, 180), 0, 360, 255, -1)
        ys, xs = np.nonzero(canvas)
        yield BLOB, normalise_glyph(canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1], size)


def slender_suits(size: int, rng: np.random.Generator, count: int = 12) -> Iterator[
        tuple[str, Image]]:
    """Clubs and spades drawn as some decks print them: round lobes on a thin stem that flares
    at its foot (the clubs' lobes apart, joined at the middle), each shrunk and cut again."""
    for _ in range(count):
        for suit in "CS":
            canvas = np.zeros((130, 120), np.uint8)
            radius = int(rng.uniform(13, 20))
            if suit == "C":
                spread = rng.uniform(1.2, 1.8) * radius
                centre = (60, 52)
                side, drop = rng.uniform(0.85, 1.15), rng.uniform(0.2, 0.6)
                for dx, dy in ((0.0, -1.0), (-side, drop), (side, drop)):
                    cv2.circle(canvas, (round(60 + dx * spread), round(52 + dy * spread)),
                               radius, 255, -1)
                cv2.circle(canvas, centre, max(3, radius // 2), 255, -1)
            else:
                cx, top = 60, 20
                lobe = radius
                cv2.circle(canvas, (cx - lobe + 2, 62), lobe, 255, -1)
                cv2.circle(canvas, (cx + lobe - 2, 62), lobe, 255, -1)
                points = np.array([[cx, top], [cx - 2 * lobe + 3, 58], [cx + 2 * lobe - 3, 58]],
                                  np.int32)
                cv2.fillPoly(canvas, [points], 255)
            stem = int(rng.uniform(2, 6))
            foot = int(rng.uniform(8, 17))
            cv2.rectangle(canvas, (60 - stem // 2, 60), (60 + stem // 2, 112), 255, -1)
            cv2.fillPoly(canvas, [np.array([[60, 88], [60 - foot, 115], [60 + foot, 115]],
                                           np.int32)], 255)
            ys, xs = np.nonzero(canvas)
            mask = canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
            yield from ((suit, glyph) for glyph in _jittered(mask, rng, 2, size))
