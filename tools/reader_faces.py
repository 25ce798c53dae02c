"""Card faces for training the learned reader: published decks and faces drawn in system fonts."""

from __future__ import annotations

import subprocess
import sys
import tarfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

Array = npt.NDArray[Any]
FACE_HEIGHT = 300
FACE_WIDTH = 210
LOW_RANKS = "2345678"
SVG_CARDS = "svg-cards@4.0.2"
STANDARD_DECK = "@younestouati/playing-cards-standard-deck@3.0.0"
FONT_FOLDERS = (Path("/usr/share/fonts/truetype"), Path("/usr/share/fonts/opentype"))
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RANK_TEXTS = {"9": ("9",), "T": ("10",), "J": ("J", "B"), "Q": ("Q", "D"), "K": ("K",),
              "A": ("A",), **{r: (r,) for r in LOW_RANKS}}
"""Index texts per rank; German B (Bube) and D (Dame) name the jack and the queen too."""


@dataclass(frozen=True)
class Face:
    """A rectified card face (BGRA, transparent outside its rounded outline) and its label."""

    image: Array
    rank: str
    """One of vision.learned.RANK_CLASSES, or a rank 2-8 (mapped to 'low')."""
    suit: str | None
    source: str


def label_of(card: str) -> tuple[str, str | None]:
    """(rank class, suit) of card notation: 'TH', '5S', 'JK', 'back'."""
    if card == "JK":
        return "JK", None
    if card in ("back", "none"):
        return "none", None
    rank = card[0]
    return ("low" if rank in LOW_RANKS else rank), card[1]


def rounded_alpha(height: int, width: int, radius: float) -> Array:
    """An alpha mask of a rounded rectangle."""
    alpha = np.zeros((height, width), np.uint8)
    r = max(1, int(radius))
    cv2.rectangle(alpha, (r, 0), (width - 1 - r, height - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (width - 1, height - 1 - r), 255, -1)
    far_x, far_y = width - 1 - r, height - 1 - r
    for cx, cy in ((r, r), (far_x, r), (r, far_y), (far_x, far_y)):
        cv2.circle(alpha, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return alpha


def with_alpha(image: Array) -> Array:
    """A BGRA face from a BGR or BGRA image, resized to the training face size."""
    if image.shape[2] == 3:
        alpha = rounded_alpha(image.shape[0], image.shape[1], image.shape[1] * 0.05)
        image = np.dstack([image, alpha])
    return cv2.resize(image, (FACE_WIDTH, FACE_HEIGHT), interpolation=cv2.INTER_AREA)


def npm_package(spec: str, cache: Path) -> Path | None:
    """The unpacked folder of an npm package, fetched once with `npm pack`; None without npm."""
    folder = cache / "npm" / spec.replace("/", "_").replace("@", "_")
    if (folder / "package").is_dir():
        return folder / "package"
    folder.mkdir(parents=True, exist_ok=True)
    try:
        done = subprocess.run(["npm", "pack", spec], cwd=folder, check=True,
                              capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.SubprocessError) as error:
        print(f"reader data: npm pack {spec} failed ({error}); skipped", file=sys.stderr)
        return None
    with tarfile.open(folder / done.stdout.strip().splitlines()[-1]) as archive:
        archive.extractall(folder, filter="data")
    return folder / "package"


SVG_CARDS_NAMES = {"1": "A", "10": "T", "jack": "J", "queen": "Q", "king": "K"}


def svg_cards_deck(cache: Path) -> list[Face]:
    """The 52 faces, two jokers and the backs of npm svg-cards 4.0.2 (LGPL-2.1)."""
    package = npm_package(SVG_CARDS, cache)
    if package is None:
        return []
    faces = []
    for path in sorted((package / "png" / "2x").glob("*.png")):
        stem = path.stem
        image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
        if image is None or image.ndim != 3:
            continue
        if stem.startswith("back"):
            card = "back"
        elif stem.startswith("joker"):
            card = "JK"
        elif "_" in stem and not stem.startswith("suit"):
            suit_word, rank_word = stem.split("_", 1)
            card = SVG_CARDS_NAMES.get(rank_word, rank_word) + suit_word[0].upper()
        else:
            continue
        rank, suit = label_of(card)
        faces.append(Face(with_alpha(image), rank, suit, "svg-cards"))
    return faces


STANDARD_RANKS = {"1": "A", "10": "T", "11": "J", "12": "Q", "13": "K"}


def standard_deck(cache: Path) -> list[Face]:
    """The faces of npm @younestouati/playing-cards-standard-deck 3.0.0 (LGPL-3.0), drawn from
    their SVGs with rsvg-convert (Debian librsvg2-bin); none without it."""
    package = npm_package(STANDARD_DECK, cache)
    if package is None:
        return []
    out = cache / "standard-deck-png"
    out.mkdir(parents=True, exist_ok=True)
    faces = []
    for path in sorted((package / "cards").glob("*.svg")):
        png = out / (path.stem + ".png")
        if not png.exists():
            try:
                subprocess.run(["rsvg-convert", "-w", str(FACE_WIDTH * 2), str(path), "-o",
                                str(png)], check=True, capture_output=True, timeout=60)
            except (OSError, subprocess.SubprocessError) as error:
                print(f"reader data: rsvg-convert failed ({error}); standard deck skipped",
                      file=sys.stderr)
                return []
        image = cv2.imread(str(png), cv2.IMREAD_UNCHANGED)
        if image is None:
            continue
        stem = path.stem
        if stem == "back":
            card = "back"
        elif stem == "joker":
            card = "JK"
        else:
            card = STANDARD_RANKS.get(stem[:-1], stem[:-1]) + stem[-1].upper()
        rank, suit = label_of(card)
        faces.append(Face(with_alpha(image), rank, suit, "standard-deck"))
    return faces


def system_fonts(limit: int = 60) -> list[Path]:
    """TrueType and OpenType fonts of the system's font packages that draw 0-9 and A-Z."""
    import pygame.freetype

    pygame.freetype.init()
    found = []
    for folder in FONT_FOLDERS:
        found.extend(sorted(folder.rglob("*.[ot]tf")) if folder.is_dir() else [])
    usable = []
    for path in found:
        try:
            font = pygame.freetype.Font(str(path), 40)
            metrics = font.get_metrics("0123456789AJQKBD")
        except (OSError, pygame.error):
            continue
        if metrics and all(m is not None for m in metrics):
            usable.append(path)
    step = max(1, len(usable) // limit)
    return usable[::step][:limit]


class FontFaces:
    """Procedural card faces: an index in two corners in a system font, pips or a figure block."""

    def __init__(self, fonts: list[Path]) -> None:
        import pygame.freetype

        pygame.freetype.init()
        self.fonts = [pygame.freetype.Font(str(path), 40) for path in fonts]
        symbols = "".join(SUIT_SYMBOLS.values())
        self.symbol_fonts = [f for f in self.fonts
                             if all(m is not None for m in f.get_metrics(symbols))]

    def glyph(self, font: Any, text: str, size: int) -> Array:
        """The text's coverage mask (uint8) in a font at a pixel size."""
        data, (width, height) = font.render_raw(text, size=size)
        mask = np.frombuffer(data, np.uint8).reshape(height, width)
        return mask

    def suit_mask(self, suit: str, size: int, rng: np.random.Generator) -> Array:
        """A suit symbol from a font that has one, else drawn from circles and polygons."""
        if self.symbol_fonts and rng.random() < 0.7:
            font = self.symbol_fonts[rng.integers(len(self.symbol_fonts))]
            return self.glyph(font, SUIT_SYMBOLS[suit], size)
        from tools.synthetic import suit_shape

        shape = suit_shape(suit, float(rng.uniform(0.75, 1.1)))
        scale = size / max(shape.shape)
        size_xy = (max(1, int(shape.shape[1] * scale)), max(1, int(shape.shape[0] * scale)))
        resized: Array = cv2.resize(shape, size_xy, interpolation=cv2.INTER_AREA)
        return resized

    def face(self, card: str, rng: np.random.Generator) -> Face:
        """One drawn face of a card ('TH', '5S', 'JK', 'back', 'none')."""
        rank, suit = label_of(card)
        paper = np.array([rng.uniform(225, 255), rng.uniform(232, 255), rng.uniform(235, 255)])
        image = np.empty((FACE_HEIGHT, FACE_WIDTH, 3), np.float32)
        image[:] = paper
        if card == "back":
            self._back(image, rng)
        elif card == "none":
            self._lettering(image, rng)
        else:
            ink = self._ink(suit, rng)
            if rng.random() < 0.3:
                inset = int(rng.integers(6, 16))
                cv2.rectangle(image, (inset, inset), (FACE_WIDTH - inset, FACE_HEIGHT - inset),
                              self._ink(suit, rng).tolist(), int(rng.integers(1, 3)))
            self._centre(image, card, ink, rng)
            self._indices(image, card, ink, rng)
        out = np.clip(image, 0, 255).astype(np.uint8)
        alpha = rounded_alpha(FACE_HEIGHT, FACE_WIDTH, FACE_WIDTH * rng.uniform(0.03, 0.08))
        return Face(np.dstack([out, alpha]), rank, suit, "fonts")

    def _ink(self, suit: str | None, rng: np.random.Generator) -> Array:
        if suit in ("H", "D"):
            return np.array([rng.uniform(0, 60), rng.uniform(0, 50), rng.uniform(150, 235)])
        if suit is None:
            return np.array(rng.uniform(0, 200, 3))
        if rng.random() < 0.15 and suit == "D":
            return np.array([rng.uniform(120, 200), rng.uniform(30, 80), rng.uniform(0, 40)])
        return np.array([rng.uniform(0, 50)] * 3) + rng.uniform(0, 25, 3)

    def _paint(self, image: Array, mask: Array, x: int, y: int, colour: Array) -> None:
        height, width = mask.shape
        x0, y0 = max(0, x), max(0, y)
        x1, y1 = min(image.shape[1], x + width), min(image.shape[0], y + height)
        if x1 <= x0 or y1 <= y0:
            return
        cover = mask[y0 - y:y1 - y, x0 - x:x1 - x].astype(np.float32)[:, :, None] / 255.0
        region = image[y0:y1, x0:x1]
        region[:] = region * (1 - cover) + colour[None, None, :] * cover

    def _indices(self, image: Array, card: str, ink: Array, rng: np.random.Generator) -> None:
        texts = RANK_TEXTS.get(card[0], ("",)) if card != "JK" else ("JOKER", "J", "\u2605")
        text = texts[rng.integers(len(texts))]
        font = self.fonts[rng.integers(len(self.fonts))]
        size = int(rng.uniform(0.09, 0.17) * FACE_HEIGHT)
        if len(text) > 2:
            size = int(size * 0.45)
        rank_mask = self.glyph(font, text, size)
        if len(text) == 2 and rng.random() < 0.5:
            rank_mask = cv2.resize(rank_mask, (max(1, int(rank_mask.shape[1] * 0.75)),
                                               rank_mask.shape[0]))
        corner = np.zeros((int(FACE_HEIGHT * 0.45), int(FACE_WIDTH * 0.45)), np.uint8)
        x, y = int(rng.integers(2, 12)), int(rng.integers(3, 14))
        self._stamp(corner, rank_mask, x, y)
        if card != "JK":
            suit_size = int(size * rng.uniform(0.55, 0.95))
            suit = self.suit_mask(card[1], suit_size, rng)
            beside = rng.random() < 0.2
            cx = x + rank_mask.shape[1] // 2 - suit.shape[1] // 2
            sx, sy = ((x + rank_mask.shape[1] + 2, y + 2) if beside
                      else (max(0, cx), y + rank_mask.shape[0] + int(rng.integers(1, 8))))
            self._stamp(corner, suit, sx, sy)
        turned = cv2.rotate(corner, cv2.ROTATE_180)
        self._paint(image, corner, 0, 0, ink)
        self._paint(image, turned, FACE_WIDTH - corner.shape[1], FACE_HEIGHT - corner.shape[0], ink)
        if rng.random() < 0.25:
            self._paint(image, cv2.flip(corner, 1), FACE_WIDTH - corner.shape[1], 0, ink)
            self._paint(image, cv2.flip(turned, 1), 0, FACE_HEIGHT - corner.shape[0], ink)

    @staticmethod
    def _stamp(canvas: Array, mask: Array, x: int, y: int) -> None:
        height = min(mask.shape[0], canvas.shape[0] - y)
        width = min(mask.shape[1], canvas.shape[1] - x)
        if height > 0 and width > 0:
            region = canvas[y:y + height, x:x + width]
            np.maximum(region, mask[:height, :width], out=region)

    def _centre(self, image: Array, card: str, ink: Array, rng: np.random.Generator) -> None:
        rank = card[0]
        left, right = FACE_WIDTH * 0.27, FACE_WIDTH * 0.73
        top, bottom = FACE_HEIGHT * 0.16, FACE_HEIGHT * 0.84
        if card == "JK" or rank in "JQK":
            self._figure(image, card, ink, rng, (left, top, right, bottom))
            return
        if rank == "A":
            size = int(FACE_WIDTH * rng.uniform(0.25, 0.6))
            pip = self.suit_mask(card[1], size, rng)
            self._paint(image, pip, FACE_WIDTH // 2 - pip.shape[1] // 2,
                        FACE_HEIGHT // 2 - pip.shape[0] // 2, ink)
            return
        count = 10 if rank == "T" else int(rank)
        size = int(FACE_WIDTH * rng.uniform(0.15, 0.22))
        pip = self.suit_mask(card[1], size, rng)
        for fx, fy in PIP_LAYOUTS[count]:
            px = left + fx * (right - left)
            py = top + fy * (bottom - top)
            mask = pip if fy <= 0.5 else cv2.rotate(pip, cv2.ROTATE_180)
            self._paint(image, mask, int(px - mask.shape[1] / 2), int(py - mask.shape[0] / 2), ink)

    def _figure(self, image: Array, card: str, ink: Array, rng: np.random.Generator,
                box: tuple[float, float, float, float]) -> None:
        x0, y0, x1, y1 = (int(v) for v in box)
        colours = [np.array(rng.uniform(0, 255, 3)) for _ in range(3)] + [ink]
        cv2.rectangle(image, (x0, y0), (x1, y1), colours[0].tolist(), -1)
        for _ in range(int(rng.integers(6, 16))):
            colour = colours[rng.integers(len(colours))].tolist()
            px, py = int(rng.integers(x0, x1)), int(rng.integers(y0, y1))
            if rng.random() < 0.5:
                cv2.ellipse(image, (px, py), (int(rng.integers(4, 30)), int(rng.integers(4, 30))),
                            float(rng.uniform(0, 180)), 0, 360, colour, -1)
            else:
                cv2.line(image, (px, py), (int(rng.integers(x0, x1)), int(rng.integers(y0, y1))),
                         colour, int(rng.integers(1, 5)))
        cv2.rectangle(image, (x0, y0), (x1, y1), ink.tolist(), int(rng.integers(1, 4)))
        font = self.fonts[rng.integers(len(self.fonts))]
        letter = self.glyph(font, RANK_TEXTS.get(card[0], ("J",))[0] if card != "JK" else "J",
                            int((y1 - y0) * rng.uniform(0.2, 0.45)))
        self._paint(image, letter, (x0 + x1) // 2 - letter.shape[1] // 2,
                    (y0 + y1) // 2 - letter.shape[0] // 2, np.array(rng.uniform(0, 255, 3)))

    def _back(self, image: Array, rng: np.random.Generator) -> None:
        colour = np.array(rng.uniform(0, 255, 3))
        inset = int(rng.integers(0, 14))
        cv2.rectangle(image, (inset, inset), (FACE_WIDTH - inset, FACE_HEIGHT - inset),
                      colour.tolist(), -1)
        second = np.array(rng.uniform(0, 255, 3)).tolist()
        step = int(rng.integers(6, 20))
        for k in range(-FACE_HEIGHT, FACE_HEIGHT + FACE_WIDTH, step):
            cv2.line(image, (k, 0), (k + FACE_HEIGHT, FACE_HEIGHT), second, 1 + k % 2)
            if rng.random() < 0.5:
                cv2.line(image, (k, FACE_HEIGHT), (k + FACE_HEIGHT, 0), second, 1)

    def _lettering(self, image: Array, rng: np.random.Generator) -> None:
        if rng.random() < 0.3:
            return
        words = ("CASINO", "PLAYER", "BANKER", "TIE", "PAYS 2 TO 1", "INSURANCE", "DEALER",
                 "MINIMUM", "BET", "SOUP", "Menu", "Notes", "12.50", "TABLE 7")
        for _ in range(int(rng.integers(1, 6))):
            font = self.fonts[rng.integers(len(self.fonts))]
            mask = self.glyph(font, str(words[rng.integers(len(words))]),
                              int(rng.integers(14, 48)))
            self._paint(image, mask, int(rng.integers(-20, FACE_WIDTH - 20)),
                        int(rng.integers(0, FACE_HEIGHT - 20)), np.array(rng.uniform(0, 200, 3)))


PIP_LAYOUTS: dict[int, list[tuple[float, float]]] = {
    2: [(0.5, 0.0), (0.5, 1.0)],
    3: [(0.5, 0.0), (0.5, 0.5), (0.5, 1.0)],
    4: [(0, 0), (1, 0), (0, 1), (1, 1)],
    5: [(0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)],
    6: [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    7: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    8: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)],
    9: [(0, 0), (1, 0), (0, 0.333), (1, 0.333), (0.5, 0.5), (0, 0.667), (1, 0.667), (0, 1),
        (1, 1)],
    10: [(0, 0), (1, 0), (0.5, 0.167), (0, 0.333), (1, 0.333), (0, 0.667), (1, 0.667),
         (0.5, 0.833), (0, 1), (1, 1)],
}
"""Pip centres as shares of the pip area (x across, y down) for the number cards."""


def all_cards() -> Iterator[str]:
    """Every card of a 52-card deck in notation, then the joker."""
    for rank in "23456789TJQKA":
        for suit in "CDHS":
            yield rank + suit
    yield "JK"
