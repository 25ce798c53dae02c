"""Training views for the learned reader: faces and dev crops seen as the table camera sees them.

Every view is made the way the table makes it: a card lies in a frame at 85-150 px card length
(rendered faces are warped onto a table, dev photos are shrunk), the frame gets the camera's
faults (blur, white balance, glare, noise, JPEG), and the card is warped back from an outline
that is a few pixels off, with `vision.learned.rectify`. Views are cached in chunks (.npz) under
a cache folder, so a build that stops goes on where it stopped."""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from tools.reader_decks import HELD_OUT, THEMES, deck_cards, theme_faces
from tools.reader_faces import (
    Face,
    FontFaces,
    label_of,
    standard_deck,
    svg_cards_deck,
    system_fonts,
)
from tools.split import photo_set, training_keys
from vision.learned import (
    COURTS,
    RANK_CLASSES,
    SUIT_CLASSES,
    VIEW_HEIGHT,
    VIEW_WIDTH,
    rectify,
    rectify_index,
)

Array = npt.NDArray[Any]
LICENSED_SETS = ("edje_train", "webcam_felt")
"""Dev sets whose licences let them train a shipped model (Apache-2.0 and MIT)."""
CHUNK = 2000
SUITLESS = ("webcam_felt",)
"""Dev sets trained on for rank only (Recipe.suitless_sets)."""
SUIT_LABELS = Path(__file__).parent / "data" / "suit_labels.json"
"""Suits of rank-only training cards the pipeline reads surely as photographed."""
NO_SUIT = -1
"""Suit label of a view whose suit is unknown (rank-only photos): no suit loss."""


@dataclass(frozen=True)
class Views:
    """Rectified training views and their labels."""

    images: Array
    """(N, VIEW_HEIGHT, VIEW_WIDTH, 3) uint8 BGR."""
    ranks: Array
    """(N,) int64 index into RANK_CLASSES."""
    suits: Array
    """(N,) int64 index into SUIT_CLASSES, or NO_SUIT."""

    def __len__(self) -> int:
        return int(self.ranks.shape[0])


def label_indices(rank: str, suit: str | None, rank_only: bool = False) -> tuple[int, int]:
    """Class indices of a (rank class, suit) label."""
    r = RANK_CLASSES.index("low" if rank in "2345678" else rank)
    s = NO_SUIT if rank_only else SUIT_CLASSES.index(suit or "none")
    return r, s


def is_calibration(key: str) -> bool:
    """A quarter of the training half kept out of training to calibrate thresholds."""
    return zlib.crc32(("calibration:" + key).encode()) % 4 == 0


def background(size: int, rng: np.random.Generator) -> Array:
    """A table surface: felt, wood, a dark or light cloth, with texture and uneven light."""
    kind = rng.integers(5)
    base = {0: (40, 100, 35), 1: (40, 80, 130), 2: (25, 25, 25), 3: (120, 60, 30),
            4: (160, 160, 160)}[int(kind)]
    colour = np.clip(np.array(base) + rng.normal(0, 30, 3), 0, 255)
    image = np.empty((size, size, 3), np.float32)
    image[:] = colour
    grain = rng.normal(0, rng.uniform(2, 14), (size // 3 + 1, size // 3 + 1, 1)).astype(np.float32)
    image += cv2.resize(grain, (size, size))[:, :, None]
    if kind == 3:
        stripes = np.sin(np.linspace(0, rng.uniform(10, 40), size))[None, :, None] * 15
        image += stripes.astype(np.float32)
    ramp = np.linspace(rng.uniform(0.7, 1.0), rng.uniform(1.0, 1.3), size, dtype=np.float32)
    image *= ramp[:, None, None] if rng.random() < 0.5 else ramp[None, :, None]
    return image


def place_face(face: Face, length: float, rng: np.random.Generator) -> tuple[Array, Array]:
    """A face warped onto a table at `length` px card length; returns (frame float32, quad)."""
    size = int(length * 1.5) + 8
    frame = background(size, rng)
    height, width = face.image.shape[:2]
    scale = length / height
    half = np.array([width * scale / 2, length / 2])
    local = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * half
    local += rng.normal(0, 0.03 * length, (4, 2))
    theta = rng.uniform(0, 2 * np.pi)
    rotation = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
    quad = (local @ rotation.T + size / 2 + rng.normal(0, 0.05 * length, 2)).astype(np.float32)
    source = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    matrix = cv2.getPerspectiveTransform(source, quad)
    warped = cv2.warpPerspective(face.image, matrix, (size, size), flags=cv2.INTER_AREA)
    alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
    frame = frame * (1 - alpha) + warped[:, :, :3].astype(np.float32) * alpha
    if rng.random() < 0.3:
        cv2.line(frame, tuple(int(v) for v in quad[rng.integers(4)]),
                 tuple(int(v) for v in rng.uniform(0, size, 2)),
                 rng.uniform(0, 255, 3).tolist(), int(rng.integers(1, 4)))
    return frame, quad


def occluded(frame: Array, quad: Array, length: float, rng: np.random.Generator) -> Array:
    """The frame with something lying over one side of the card (a book, another card, a hand,
    up to 35 % of the way across; the index at the far end stays in view), or a cable across it."""
    image = frame.copy()
    if rng.random() < 0.35:
        points = [quad[int(rng.integers(4))] + rng.normal(0, 0.3 * length, 2) for _ in range(2)]
        middle = quad.mean(axis=0) + rng.normal(0, 0.2 * length, 2)
        cable = np.array([points[0], middle, points[1]], np.int32).reshape(-1, 1, 2)
        shade = rng.uniform(0, 70, 3).tolist()
        cv2.polylines(image, [cable], False, shade, max(1, int(rng.uniform(0.02, 0.05) * length)),
                      cv2.LINE_AA)
        return image
    side = int(rng.integers(4))
    start, end = quad[side], quad[(side + 1) % 4]
    along = (end - start) / max(float(np.linalg.norm(end - start)), 1e-6)
    inward = np.array([-along[1], along[0]], np.float32)
    if float(np.dot(quad.mean(axis=0) - start, inward)) < 0:
        inward = -inward
    across = float(np.dot(quad[(side + 2) % 4] - start, inward))
    depth = rng.uniform(0.1, 0.35) * across
    tilt = rng.uniform(-0.25, 0.25)
    direction = along + tilt * inward
    direction /= float(np.linalg.norm(direction))
    base = (start + end) / 2 + inward * depth
    far = 4 * length
    polygon = np.array([base - direction * far, base + direction * far,
                        base + direction * far - inward * far,
                        base - direction * far - inward * far], np.int32)
    kind = rng.random()
    if kind < 0.4:
        colour = rng.uniform(215, 250) - rng.uniform(0, 15, 3)
    elif kind < 0.75:
        colour = rng.uniform(0, 255, 3)
    else:
        colour = np.array([rng.uniform(60, 140), rng.uniform(100, 170), rng.uniform(150, 230)])
    cover = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(cover, [polygon], 255)
    fill = np.empty_like(image)
    fill[:] = colour
    fill += rng.normal(0, rng.uniform(0, 10), fill.shape).astype(np.float32)
    shadow = cv2.GaussianBlur(cover, (0, 0), max(0.5, 0.03 * length)).astype(np.float32) / 255
    image *= 1 - 0.4 * shadow[:, :, None] * rng.uniform(0, 1)
    mask = cover[:, :, None].astype(np.float32) / 255
    image = image * (1 - mask) + fill * mask
    if kind < 0.4:
        cv2.polylines(image, [polygon[:2].reshape(-1, 1, 2)], False,
                      rng.uniform(90, 180, 3).tolist(), 1, cv2.LINE_AA)
    out: Array = image
    return out


def camera_faults(frame: Array, length: float, rng: np.random.Generator) -> Array:
    """Soft optics, white balance, glare, noise and JPEG, as a webcam over a table gives them."""
    image: Array = frame.astype(np.float32)
    if rng.random() < 0.6:
        factor = rng.uniform(0.45, 0.9)
        small = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
        image = cv2.resize(small, (image.shape[1], image.shape[0]), interpolation=cv2.INTER_LINEAR)
    sigma = rng.uniform(0, 1.8) * length / 120
    if sigma > 0.3:
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    if rng.random() < 0.1:
        k = int(rng.integers(3, 6))
        kernel: Array = np.zeros((k, k), np.float32)
        kernel[k // 2, :] = 1.0 / k
        rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), float(rng.uniform(0, 180)), 1)
        kernel = cv2.warpAffine(kernel, rot, (k, k))
        image = cv2.filter2D(image, -1, kernel / max(kernel.sum(), 1e-6))
    warm = rng.uniform(-0.25, 0.25)
    gains = np.array([1 - warm, 1 + rng.uniform(-0.08, 0.08), 1 + warm], np.float32)
    image = image * gains * rng.uniform(0.55, 1.2) + rng.uniform(-25, 20)
    if rng.random() < 0.25:
        h, w = image.shape[:2]
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.1, 0.5) * length
        glare = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r)) * rng.uniform(40, 160)
        image += glare[:, :, None]
    image += rng.normal(0, rng.uniform(0, 7), image.shape).astype(np.float32)
    out: Array = np.clip(image, 0, 255).astype(np.uint8)
    if rng.random() < 0.75:
        quality = int(rng.integers(30, 95))
        _, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
        out = out if decoded is None else decoded
    return out


def outline_error(quad: Array, length: float, rng: np.random.Generator) -> Array:
    """The outline a finder gives: corners a few px off, the card slightly grown or shrunk (a
    blurred card's outline is found inside it)."""
    centre = quad.mean(axis=0)
    shrink = rng.uniform(0.86, 0.95) if rng.random() < 0.3 else rng.uniform(0.95, 1.03)
    grown = centre + (quad - centre) * shrink
    jitter = rng.normal(0, rng.uniform(0, 0.03) * length, (4, 2))
    moved: Array = (grown + jitter).astype(np.float32)
    return moved


def view_of(frame: Array, quad: Array, length: float, rng: np.random.Generator,
            view: str = "card") -> Array:
    """One rectified view of a card in a faulted frame, either end up: the whole card, or with
    `view` "index" its index corner (`vision.learned.rectify_index`)."""
    found = outline_error(quad, length, rng)
    upright, turned = (rectify_index(frame, found) if view == "index" else
                       rectify(frame, found, VIEW_WIDTH, VIEW_HEIGHT))
    chosen: Array = upright if rng.random() < 0.5 else turned
    return chosen


def face_view(face: Face, rng: np.random.Generator, view: str = "card",
              occlusion: float = 0.0) -> Array:
    """A training view of a rendered face (in `occlusion` of them, partly covered)."""
    length = float(rng.uniform(85, 150))
    frame, quad = place_face(face, length, rng)
    if occlusion and rng.random() < occlusion:
        frame = occluded(frame, quad, length, rng)
    return view_of(camera_faults(frame, length, rng), quad, length, rng, view)


def sideways_quad(quad: Array, rng: np.random.Generator) -> Array:
    """The card one corner of `quad` implies when its long side is taken for the width, as a
    corner search's hypothesis may (the width a little off): its index box lies on the card's
    pips, or on its index turned a quarter."""
    k = int(rng.integers(4))
    corner, before, after = quad[k], quad[(k - 1) % 4], quad[(k + 1) % 4]
    if np.linalg.norm(before - corner) > np.linalg.norm(after - corner):
        long_end, short_end = before, after
    else:
        long_end, short_end = after, before
    width = float(np.linalg.norm(short_end - corner)) * rng.uniform(0.9, 1.1)
    along = (long_end - corner) / np.linalg.norm(long_end - corner)
    down = (short_end - corner) / np.linalg.norm(short_end - corner)
    if along[0] * down[1] - along[1] * down[0] > 0:
        top_left, top_right = corner, corner + width * along
    else:
        top_left, top_right = corner + width * along, corner
    implied = [top_left, top_right, top_right + 1.5 * width * down, top_left + 1.5 * width * down]
    return np.array(implied, np.float32)


def sideways_view(face: Face, rng: np.random.Generator) -> Array:
    """The index view (upright) of a rendered card at a corner hypothesis that takes the card
    sideways (`sideways_quad`): no index of a card, whatever the pips look like."""
    length = float(rng.uniform(85, 150))
    frame, quad = place_face(face, length, rng)
    implied = outline_error(sideways_quad(quad, rng), length, rng)
    upright: Array = rectify_index(camera_faults(frame, length, rng), implied)[0]
    return upright


def rendered_view(face: Face, rng: np.random.Generator, recipe: Recipe
                  ) -> tuple[Array, int, int]:
    """A training view of a rendered face and its labels: in `recipe.sideways` of the index
    views, the face seen sideways at a corner, labelled no card."""
    if recipe.view == "index" and recipe.sideways and rng.random() < recipe.sideways:
        return sideways_view(face, rng), *label_indices("none", None)
    return face_view(face, rng, recipe.view, recipe.occlusion), *label_indices(
        face.rank, face.suit)


@dataclass(frozen=True)
class Crop:
    """A labelled card in a dev photo."""

    key: str
    quad: Array
    rank: str
    suit: str | None
    rank_only: bool


def crop_view(frame: Array, crop: Crop, rng: np.random.Generator, view: str = "card") -> Array:
    """A training view of a dev photo's card, shrunk to 85-150 px card length."""
    quad = crop.quad.astype(np.float32)
    long_side = float(max(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)))
    length = float(rng.uniform(85, 150))
    margin = 0.4 * long_side
    x0, y0 = np.maximum(quad.min(axis=0) - margin, 0).astype(int)
    x1, y1 = (quad.max(axis=0) + margin).astype(int)
    region = frame[y0:y1, x0:x1]
    factor = min(1.0, length / long_side)
    small = cv2.resize(region, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    local = (quad - np.array([x0, y0], np.float32)) * factor
    length = long_side * factor
    faulted = camera_faults(small.astype(np.float32), length, rng) if rng.random() < 0.8 else small
    return view_of(faulted, local, length, rng, view)


def labelled_suits(path: Path = SUIT_LABELS) -> dict[tuple[str, tuple[float, ...]], str]:
    """Suits of rank-only cards by (photo key, labelled box), from `tools.suit_labels`."""
    record = json.loads(path.read_text())
    return {(key, tuple(card["box"])): card["suit"]
            for key, cards in record["images"].items() for card in cards}


def dev_crops(shared: Path, sets: tuple[str, ...], part: str, cache: Path,
              suitless: tuple[str, ...] = (),
              suits: dict[tuple[str, tuple[float, ...]], str] | None = None) -> list[Crop]:
    """Labelled cards of the training half of chosen dev sets (`part` 'train' or 'calibration';
    the crops of `suitless` sets are labelled by rank only; a rank-only card listed in `suits`
    is labelled with that suit).

    Cards that are partial or less than nine tenths visible are left out; the rank-only set's
    boxes are paired with the outlines `vision.propose.find_cards` gives (IoU 0.5 or more)."""
    labels = json.loads((shared / "labels.json").read_text())
    chosen = training_keys(labels["images"])
    crops = []
    for key in sorted(chosen):
        record = labels["images"][key]
        if photo_set(key) not in sets or is_calibration(key) != (part == "calibration"):
            continue
        rank_only = bool(labels["sets"][record["set"]].get("rank_only"))
        outlines = _outlines(shared, key, cache) if rank_only else []
        for card in record["cards"]:
            if card.get("partial") or card.get("ignore") or card.get("visible_fraction", 1) < 0.9:
                continue
            quad = card.get("quad") or _paired(card["box"], outlines)
            if quad is None:
                continue
            rank, suit = label_of(card["card"]) if card.get("card") else (card["rank"], None)
            known = (suits or {}).get((key, tuple(card["box"]))) if rank_only else None
            crops.append(Crop(key, np.array(quad, np.float32), rank, known or suit,
                              (rank_only and known is None) or record["set"] in suitless))
    return crops


def _outlines(shared: Path, key: str, cache: Path) -> list[list[list[float]]]:
    store = cache / "outlines.json"
    known: dict[str, Any] = json.loads(store.read_text()) if store.exists() else {}
    if key not in known:
        from vision.imageio import read_image
        from vision.propose import find_cards

        frame = read_image(shared / "dev" / key)
        known[key] = [q.tolist() for q in find_cards(frame)]
        store.write_text(json.dumps(known))
    outlines: list[list[list[float]]] = known[key]
    return outlines


def _paired(box: list[float], outlines: list[list[list[float]]]) -> list[list[float]] | None:
    best, best_iou = None, 0.5
    for quad in outlines:
        pts = np.array(quad)
        qx0, qy0 = pts.min(axis=0)
        qx1, qy1 = pts.max(axis=0)
        ix = max(0.0, min(box[2], qx1) - max(box[0], qx0))
        iy = max(0.0, min(box[3], qy1) - max(box[1], qy0))
        inter = ix * iy
        union = (box[2] - box[0]) * (box[3] - box[1]) + (qx1 - qx0) * (qy1 - qy0) - inter
        if union > 0 and inter / union >= best_iou:
            best, best_iou = quad, inter / union
    return best


@dataclass(frozen=True)
class Recipe:
    """How many views of each source one build makes."""

    deck_views: int = 48
    """Views per published deck face."""
    font_views: int = 6000
    """Views of faces drawn in system fonts (a fresh face each)."""
    crop_views: int = 16
    """Views per dev crop."""
    real_sets: tuple[str, ...] = LICENSED_SETS
    theme_views: int = 0
    """Views per face of the Debian deck themes (tools.reader_decks)."""
    held_out_themes: bool = False
    """Draw the held-out themes (a deck never seen) instead of the training ones."""
    suitless_sets: tuple[str, ...] = ()
    """Dev sets whose crops teach the rank only: webcam_felt's training half is one photo of
    diamonds and one of spades, so its suits would teach that look as a suit (its measured
    clubs read as spades, its hearts as diamonds)."""

    figure_swap: float = 0.0
    """Share of the themes' court views whose figure is another deck's figure of another court
    rank of the same suit, so the rank is learned from the index, not from one deck's art."""
    view: str = "card"
    """What a view shows: "card" (the whole card) or "index" (its index corner)."""
    labelled_suits: bool = False
    """Rank-only crops listed in `tools/data/suit_labels.json` teach their suit too."""
    occlusion: float = 0.0
    """Share of rendered face views with something over part of the card (`occluded`)."""
    sideways: float = 0.0
    """Share of rendered index views taken at a corner hypothesis that sees the card sideways,
    labelled no card (`sideways_view`): a ten's block of pips is no nine's index."""

    def key(self) -> str:
        """The name of the recipe's cache folder (a field added later is left out while at its
        default, so views made before it was added stay valid)."""
        text = repr(self)
        for name, default in (("suitless_sets", ()), ("figure_swap", 0.0), ("view", "card"),
                              ("labelled_suits", False), ("occlusion", 0.0),
                              ("sideways", 0.0)):
            if getattr(self, name) == default:
                text = text.replace(f", {name}={default!r}", "")
        return text


RECIPES = (Recipe(suitless_sets=SUITLESS),
           Recipe(deck_views=0, font_views=4000, crop_views=16, suitless_sets=SUITLESS),
           Recipe(deck_views=0, font_views=0, crop_views=0, theme_views=20, figure_swap=0.5))
"""The shipped model's views: every source, then more drawn faces and dev crops (seed + 7),
then the Debian deck themes less the held-out ones (seed + 14)."""
HELD_OUT_DECKS = Recipe(deck_views=0, font_views=0, crop_views=0, theme_views=6,
                        held_out_themes=True)
"""Views of the held-out Debian themes: the rendered measure of a deck never seen."""


FIGURE_BOX = (0.2, 0.16, 0.8, 0.84)
"""The part of a court face that is its figure (left, top, right, bottom as shares): inside
every theme's corner indices."""


def swapped_figure(face: Face, courts: list[Face], rng: np.random.Generator) -> Face:
    """The face with its figure replaced by that of a court card of another rank and the same
    suit from another deck (the face itself when there is none)."""
    donors = [c for c in courts if c.suit == face.suit and c.rank != face.rank
              and c.source != face.source]
    if not donors:
        return face
    donor = donors[int(rng.integers(len(donors)))]
    height, width = face.image.shape[:2]
    x0, x1 = round(FIGURE_BOX[0] * width), round(FIGURE_BOX[2] * width)
    y0, y1 = round(FIGURE_BOX[1] * height), round(FIGURE_BOX[3] * height)
    image = face.image.copy()
    image[y0:y1, x0:x1] = donor.image[y0:y1, x0:x1]
    return replace(face, image=image)


def jobs(recipe: Recipe, shared: Path, cache: Path, part: str = "train") -> Iterator[
        tuple[str, int, Callable[[np.random.Generator], tuple[Array, int, int]]]]:
    """(source name, count, make one view) for every source of a build."""
    decks = svg_cards_deck(cache) + standard_deck(cache) if recipe.deck_views else []
    for index, face in enumerate(decks):
        def deck_view(rng: np.random.Generator, face: Face = face) -> tuple[Array, int, int]:
            return rendered_view(face, rng, recipe)
        yield f"deck{index:03d}", recipe.deck_views, deck_view
    themed = [face for index, theme in enumerate(THEMES if recipe.theme_views else ())
              if (theme.name in HELD_OUT) == recipe.held_out_themes
              for face in theme_faces(theme, deck_cards(index), cache)]
    courts = [face for face in themed if face.rank in COURTS]
    for face in themed:
        def theme_view(rng: np.random.Generator, face: Face = face) -> tuple[Array, int, int]:
            if face.rank in COURTS and recipe.figure_swap and rng.random() < recipe.figure_swap:
                face = swapped_figure(face, courts, rng)
            return rendered_view(face, rng, recipe)
        yield f"{face.source}-{face.rank}{face.suit}", recipe.theme_views, theme_view
    if not recipe.font_views and not recipe.crop_views:
        return
    fonts = FontFaces(system_fonts())
    cards = [r + s for r in "9TJQKA" for s in "CDHS"] * 3 + [
        r + s for r in "2345678" for s in "CDHS"] + ["JK"] * 4 + ["back"] * 6 + ["none"] * 6

    def font_view(rng: np.random.Generator) -> tuple[Array, int, int]:
        face = fonts.face(cards[rng.integers(len(cards))], rng)
        return rendered_view(face, rng, recipe)
    yield "fonts", recipe.font_views, font_view
    from vision.imageio import read_image

    suits = labelled_suits() if recipe.labelled_suits else None
    crops = (dev_crops(shared, recipe.real_sets, part, cache, recipe.suitless_sets, suits)
             if recipe.crop_views else [])
    frames: dict[str, Array] = {}
    for index, crop in enumerate(crops):
        def real_view(rng: np.random.Generator, crop: Crop = crop) -> tuple[Array, int, int]:
            if crop.key not in frames:
                frames.clear()
                frames[crop.key] = read_image(shared / "dev" / crop.key)
            return crop_view(frames[crop.key], crop, rng, recipe.view), *label_indices(
                crop.rank, crop.suit, crop.rank_only)
        yield f"crop{index:04d}", recipe.crop_views, real_view


def build(cache: Path, shared: Path, recipe: Recipe | None = None, seed: int = 0,
          part: str = "train", log: Callable[[str], None] = print) -> Views:
    """All views of a build, made once and cached in chunks under `cache` (resumable)."""
    recipe = recipe or Recipe()
    folder = cache / f"views-{part}-{seed}-{zlib.crc32(recipe.key().encode()):08x}"
    folder.mkdir(parents=True, exist_ok=True)
    pending: list[tuple[Array, int, int]] = []
    chunk = 0
    parts: list[Path] = []
    for name, count, make in jobs(recipe, shared, cache, part):
        for k in range(count):
            path = folder / f"chunk{chunk:04d}.npz"
            if path.exists():
                pending.append((np.zeros(0), 0, 0))
            else:
                rng = np.random.default_rng([seed, zlib.crc32(name.encode()), k])
                pending.append(make(rng))
            if len(pending) == CHUNK:
                _flush(path, pending)
                parts.append(path)
                pending, chunk = [], chunk + 1
                log(f"reader data: {path.name} ({name})")
    if pending:
        path = folder / f"chunk{chunk:04d}.npz"
        _flush(path, pending)
        parts.append(path)
    return load_views(parts)


def _flush(path: Path, pending: list[tuple[Array, int, int]]) -> None:
    if path.exists():
        return
    images = np.stack([p[0] for p in pending]).astype(np.uint8)
    ranks = np.array([p[1] for p in pending], np.int64)
    suits = np.array([p[2] for p in pending], np.int64)
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, images=images, ranks=ranks, suits=suits)
    tmp.replace(path)


def load_views(paths: list[Path]) -> Views:
    """The views of cached chunks, concatenated."""
    loaded = [np.load(p) for p in paths]
    return Views(np.concatenate([d["images"] for d in loaded]),
                 np.concatenate([d["ranks"] for d in loaded]),
                 np.concatenate([d["suits"] for d in loaded]))
