"""A procedurally drawn deck unlike any the glyph reader was fitted on, and table scenes of it.

Four colours (spades black, hearts red, diamonds blue, clubs green), indices in a script font,
drawn pips and plain geometric court faces. Scenes are pasted with `vision.scenes` and then
blurred, tinted, noised and JPEG-compressed the way a table camera would.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np

from tools.scenes import paste_card, table_background
from tools.synthetic import suit_shape
from vision.cards import Image, Quad

WIDTH, HEIGHT = 240, 336
INK = {"S": (25, 25, 25), "H": (40, 30, 200), "D": (170, 90, 20), "C": (40, 120, 30)}
RANK_TEXT = {"T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}
PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.5, 0.2), (0.5, 0.8)],
    3: [(0.5, 0.2), (0.5, 0.5), (0.5, 0.8)],
    4: [(0.3, 0.2), (0.7, 0.2), (0.3, 0.8), (0.7, 0.8)],
    5: [(0.3, 0.2), (0.7, 0.2), (0.5, 0.5), (0.3, 0.8), (0.7, 0.8)],
    6: [(0.3, 0.2), (0.7, 0.2), (0.3, 0.5), (0.7, 0.5), (0.3, 0.8), (0.7, 0.8)],
    7: [(0.3, 0.2), (0.7, 0.2), (0.5, 0.35), (0.3, 0.5), (0.7, 0.5), (0.3, 0.8), (0.7, 0.8)],
    8: [(0.3, 0.2), (0.7, 0.2), (0.5, 0.35), (0.3, 0.5), (0.7, 0.5), (0.5, 0.65), (0.3, 0.8),
        (0.7, 0.8)],
    9: [(0.3, 0.2), (0.7, 0.2), (0.3, 0.4), (0.7, 0.4), (0.5, 0.5), (0.3, 0.6), (0.7, 0.6),
        (0.3, 0.8), (0.7, 0.8)],
    10: [(0.3, 0.2), (0.7, 0.2), (0.5, 0.3), (0.3, 0.4), (0.7, 0.4), (0.3, 0.6), (0.7, 0.6),
         (0.5, 0.7), (0.3, 0.8), (0.7, 0.8)],
}
EUCHRE = tuple(rank + suit for suit in "CDHS" for rank in "9TJQKA")


def _pip(card: Image, suit: str, centre: tuple[float, float], size: int, flip: bool) -> None:
    """Stamp one suit symbol of `size` pixels at a point of the card."""
    shape = cv2.resize(suit_shape(suit, 0.9), (size, size), interpolation=cv2.INTER_AREA)
    if flip:
        shape = shape[::-1, ::-1]
    x, y = round(centre[0] - size / 2), round(centre[1] - size / 2)
    card[y:y + size, x:x + size][shape > 127] = INK[suit]


def _index(suit: str, rank: str) -> Image:
    """The corner index: the rank in a script font over a small suit symbol."""
    index = np.full((78, 36, 3), 245, np.uint8)
    text = RANK_TEXT.get(rank, rank)
    scale = 0.75 if len(text) > 1 else 1.0
    cv2.putText(index, text, (1 if len(text) > 1 else 6, 34), cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
                scale, INK[suit], 3, cv2.LINE_AA)
    _pip(index, suit, (18, 57), 22, False)
    return index


def _court(card: Image, suit: str, rank: str) -> None:
    """A court face: a tinted panel with a figure drawn from plain shapes, one per rank."""
    ink = INK[suit]
    tint = tuple(int(245 - 0.35 * (245 - c)) for c in ink)
    x0, y0, x1, y1 = 44, 40, WIDTH - 44, HEIGHT - 40
    cv2.rectangle(card, (x0, y0), (x1, y1), tint, -1)
    cv2.rectangle(card, (x0, y0), (x1, y1), ink, 3)
    cx, cy = WIDTH // 2, HEIGHT // 2
    if rank == "J":
        panel = card[y0:y1, x0:x1]
        for k in range(-40, y1 - y0, 28):
            cv2.line(panel, (0, k), (x1 - x0, k + 40), ink, 4, cv2.LINE_AA)
    elif rank == "Q":
        for k in (50, 80, 110):
            cv2.circle(card, (cx, cy), k // 2 + 10, ink, 3, cv2.LINE_AA)
    else:
        zigzag = np.array([[x0 + 10 + 19 * k, cy - 60 + (35 if k % 2 else 0)] for k in range(9)],
                          np.int32)
        cv2.polylines(card, [zigzag], False, ink, 4, cv2.LINE_AA)
        cv2.polylines(card, [zigzag * [1, -1] + [0, 2 * cy]], False, ink, 4, cv2.LINE_AA)
    cv2.putText(card, rank, (cx - 28, cy + 26), cv2.FONT_HERSHEY_TRIPLEX, 2.4, ink, 5,
                cv2.LINE_AA)
    _pip(card, suit, (x0 + 22, y0 + 24), 30, False)
    _pip(card, suit, (x1 - 22, y1 - 24), 30, True)


def drawn_face(name: str) -> Image:
    """The face of a card of the drawn deck (`9C`, `TD`, `2H`), or a blank card (`--`)."""
    card = np.full((HEIGHT, WIDTH, 3), 245, np.uint8)
    cv2.rectangle(card, (0, 0), (WIDTH - 1, HEIGHT - 1), (160, 160, 160), 2)
    if name == "--":
        return card
    rank, suit = name[0], name[1]
    index = _index(suit, rank)
    card[8:86, 6:42] = index
    card[HEIGHT - 86:HEIGHT - 8, WIDTH - 42:WIDTH - 6] = index[::-1, ::-1]
    if rank in "JQK":
        _court(card, suit, rank)
    else:
        count = 1 if rank == "A" else 10 if rank == "T" else int(rank)
        size = 70 if rank == "A" else 36
        for fx, fy in PIPS[count]:
            x, y = 48 + fx * (WIDTH - 96), 30 + fy * (HEIGHT - 60)
            _pip(card, suit, (x, y), size, fy > 0.5)
    return card


@dataclass(frozen=True)
class SceneCard:
    """A card placed in a drawn-deck scene: its name (`--` for a blank) and true outline."""

    name: str
    corners: Quad


def camera_look(frame: Image, rng: np.random.Generator) -> Image:
    """The frame as a table camera sees it: soft optics, a colour cast, noise and JPEG."""
    soft = cv2.GaussianBlur(frame, (0, 0), float(rng.uniform(0.5, 1.1))).astype(np.float32)
    gains = np.array([rng.uniform(0.8, 1.15), 1.0, rng.uniform(0.8, 1.15)], np.float32)
    soft = soft * gains * float(rng.uniform(0.75, 1.1))
    soft += rng.normal(0.0, float(rng.uniform(1.0, 4.0)), soft.shape).astype(np.float32)
    tinted = np.clip(soft, 0, 255).astype(np.uint8)
    quality = int(rng.integers(60, 92))
    _, encoded = cv2.imencode(".jpg", tinted, [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    return tinted if decoded is None else decoded


def drawn_scene(names: Iterable[str], long_side: float, seed: int,
                size: tuple[int, int] = (1280, 720)) -> tuple[Image, list[SceneCard]]:
    """A camera frame of drawn cards spread apart on a table, each turned and tilted at random,
    with their true outlines."""
    rng = np.random.default_rng(seed)
    frame = table_background(size[0], size[1], seed=seed)
    chosen = list(names)
    columns = max(1, int(size[0] // (long_side * 1.25)))
    cards = []
    for k, name in enumerate(chosen):
        cell_x, cell_y = k % columns, k // columns
        centre = ((cell_x + 0.5) * long_side * 1.25 + rng.uniform(-5, 5),
                  (cell_y + 0.5) * long_side * 1.25 + rng.uniform(-5, 5))
        angle = float(rng.uniform(-180, 180))
        corners = paste_card(frame, drawn_face(name), centre, long_side, angle,
                             tilt=float(rng.uniform(0.0, 0.06)))
        cards.append(SceneCard(name, corners))
    return camera_look(frame, rng), cards


def single_render(name: str, long_side: float = 200, seed: int = 0) -> Image:
    """One card alone on the table, as an enrolment photo of the drawn deck."""
    frame, _ = drawn_scene([name], long_side, seed, (round(long_side * 1.6),) * 2)
    return frame


def covered_trick(faces: dict[str, Image], under: str, over: str, long_side: float,
                  seed: int) -> tuple[Image, Quad, Quad]:
    """A card with another laid over its lower part (its top index corner left in sight)."""
    rng = np.random.default_rng(seed)
    frame = table_background(480, 400, seed=seed)
    angle = float(rng.uniform(-30, 30))
    theta = np.deg2rad(angle)
    down = np.array([-np.sin(theta), np.cos(theta)])
    across = np.array([np.cos(theta), np.sin(theta)])
    centre = np.array([240.0, 170.0])
    under_quad = paste_card(frame, faces[under], (float(centre[0]), float(centre[1])),
                            long_side, angle)
    shift = centre + down * 0.6 * long_side + across * float(rng.uniform(-0.1, 0.1)) * long_side
    over_quad = paste_card(frame, faces[over], (float(shift[0]), float(shift[1])), long_side,
                           angle + float(rng.uniform(-12, 12)))
    return camera_look(frame, rng), under_quad, over_quad
