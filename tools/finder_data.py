"""Training scenes for the learned card finder: cards on tables with a label for every pixel.

A scene is a square of `SCENE` pixels in the finder's input space (the frame shrunk as
`vision.detect` shrinks it) and a label map at half that size (`vision.finder_net.STRIDE`):
0 no card face, 1 a card face's visible inside, 2 the band along the edge of a card's visible
part (its outline, and where a card lying on it cuts it off), 255 not known (no loss).

Faces come from the reader's sources (`tools.reader_faces`, `tools.reader_decks`), laid out
scattered, in trick piles, fans, solitaire columns and rows, on drawn tables, tiled texture
patterns of Debian's gimp-data and the training halves of the licensed dev photos, among
distractors (paper, printed table graphics, lettering, card backs, hands, shadows), then given
the camera's faults (`tools.reader_data.camera_faults`) and a tilt."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from tools.reader_data import LICENSED_SETS, background, camera_faults, is_calibration
from tools.reader_faces import Face
from tools.split import photo_set, training_keys
from vision.finder_net import STRIDE

Array = npt.NDArray[Any]
SCENE = 256
"""Side of a training scene in input pixels."""
IGNORE = 255
FACE_HEIGHT = 240
"""Faces are kept this tall: enough for the largest card drawn (`CARD_LENGTHS`)."""
CARD_LENGTHS = (26.0, 220.0)
"""Card lengths drawn, in input pixels (log-uniform)."""
GIMP_PACKAGE = "gimp-data"
PATTERN_FOLDER = "usr/share/gimp/2.0/patterns"


def shrunk_face(face: Face) -> Array:
    """A face's BGRA image shrunk to `FACE_HEIGHT` (area interpolation)."""
    height, width = face.image.shape[:2]
    scale = FACE_HEIGHT / height
    size = (max(2, round(width * scale)), FACE_HEIGHT)
    return np.ascontiguousarray(cv2.resize(face.image, size, interpolation=cv2.INTER_AREA))


def read_pattern(path: Path) -> Array | None:
    """A GIMP pattern (.pat) as a BGR image, or None when it is not one."""
    data = path.read_bytes()
    if len(data) < 24:
        return None
    header, _, width, height, depth, magic = struct.unpack(">5I4s", data[:24])
    if magic != b"GPAT" or depth not in (1, 3, 4):
        return None
    pixels = np.frombuffer(data[header:header + width * height * depth], np.uint8)
    if pixels.size != width * height * depth:
        return None
    image = pixels.reshape(height, width, depth)
    if depth == 1:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    return cv2.cvtColor(image[:, :, :3], cv2.COLOR_RGB2BGR)


def gimp_patterns(cache: Path) -> list[Array]:
    """The texture patterns of Debian's gimp-data (GPL-3+), fetched into the cache, never
    installed."""
    folder = cache / "deb" / GIMP_PACKAGE
    if not (folder / PATTERN_FOLDER).exists():
        folder.mkdir(parents=True, exist_ok=True)
        try:
            subprocess.run(["apt-get", "download", GIMP_PACKAGE], cwd=folder, check=True,
                           capture_output=True, timeout=600)
            deb = next(folder.glob("*.deb"))
            subprocess.run(["dpkg-deb", "-x", str(deb), str(folder)], check=True,
                           capture_output=True, timeout=600)
        except (OSError, StopIteration, subprocess.SubprocessError) as error:
            print(f"finder data: no gimp-data patterns ({error})", file=sys.stderr)
            return []
    patterns = []
    for path in sorted((folder / PATTERN_FOLDER).rglob("*.pat")):
        image = read_pattern(path)
        if image is not None and min(image.shape[:2]) >= 32:
            patterns.append(image)
    return patterns


@dataclass(frozen=True)
class RealPhoto:
    """A licensed dev photo of the training half: its cards' outlines and the regions whose
    labels are unknown (cards without an outline, overlaps)."""

    key: str
    quads: list[Array]
    unknown: list[Array]
    """Boxes (x0, y0, x1, y1) of cards whose outline is not known."""
    lengths: list[float]


def real_photos(shared: Path, cache: Path) -> list[RealPhoto]:
    """The training half of the licensed dev sets, less the calibration quarter: outlines from
    the labels' quads, or for the rank-only set the outlines `vision.propose.find_cards` gives
    paired with its boxes (tools.reader_data), every other card unknown."""
    from tools.reader_data import _outlines, _paired

    labels = json.loads((shared / "labels.json").read_text())
    photos = []
    for key in sorted(training_keys(labels["images"])):
        if photo_set(key) not in LICENSED_SETS or is_calibration(key):
            continue
        record = labels["images"][key]
        rank_only = bool(labels["sets"][record["set"]].get("rank_only"))
        outlines = _outlines(shared, key, cache) if rank_only else []
        quads: list[Array] = []
        unknown: list[Array] = []
        for card in record["cards"]:
            quad = card.get("quad") or (None if card.get("ignore") else
                                        _paired(card["box"], outlines))
            if quad is None:
                unknown.append(np.array(card["box"], np.float32))
            else:
                quads.append(np.array(quad, np.float32))
        lengths = [float(np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1).max())
                   for q in quads]
        if lengths:
            photos.append(RealPhoto(key, quads, unknown, lengths))
    return photos


def tiled(pattern: Array, size: int, rng: np.random.Generator) -> Array:
    """A pattern tiled over a square, scaled, turned and recoloured."""
    scale = float(rng.uniform(0.5, 2.5))
    tile = cv2.resize(pattern, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
    reps = (size * 2 // tile.shape[0] + 2, size * 2 // tile.shape[1] + 2, 1)
    big = np.tile(tile, reps)
    matrix = np.asarray(cv2.getRotationMatrix2D((size, size), float(rng.uniform(0, 360)), 1.0),
                        np.float64)
    matrix[:, 2] -= size / 2
    image = cv2.warpAffine(big, matrix, (size, size), borderMode=cv2.BORDER_REFLECT)
    out: Array = image.astype(np.float32)
    if rng.random() < 0.5:
        grey = out.mean(axis=2, keepdims=True)
        tint = rng.uniform(0.3, 1.3, 3).astype(np.float32)
        out = grey * tint + (out - grey) * float(rng.uniform(0, 1))
    out = out * float(rng.uniform(0.4, 1.1)) + float(rng.uniform(-30, 20))
    return out


def table(size: int, patterns: list[Array], rng: np.random.Generator) -> Array:
    """A table surface: drawn felt, wood or cloth, or a tiled texture."""
    if patterns and rng.random() < 0.45:
        return tiled(patterns[int(rng.integers(len(patterns)))], size, rng)
    return background(size, rng)


def card_quad(centre: Array, length: float, aspect: float, angle: float,
              rng: np.random.Generator) -> Array:
    """The corners of a card (clockwise from the top-left of its face) at a centre, length and
    angle, each corner a little off (perspective)."""
    half = np.array([length / aspect / 2, length / 2])
    local = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * half
    local += rng.normal(0, 0.015 * length, (4, 2))
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    quad: Array = (local @ rotation.T + centre).astype(np.float32)
    return quad


def layout(length: float, rng: np.random.Generator) -> list[tuple[Array, float]]:
    """Card centres and angles of one group: a lone card, a trick pile, a fan, a spread (cards
    side by side, each covering much of the one before), a column or a row."""
    kind = rng.choice(["lone", "pile", "fan", "spread", "column", "row"],
                      p=[0.22, 0.22, 0.12, 0.2, 0.12, 0.12])
    base = float(rng.uniform(0, 2 * np.pi))
    centre = rng.uniform(0.1, 0.9, 2) * SCENE
    if kind == "lone":
        return [(centre, base)]
    count = int(rng.integers(2, 6))
    out = []
    if kind == "pile":
        for _ in range(count):
            offset = rng.normal(0, 0.3 * length, 2)
            out.append((centre + offset, base + float(rng.normal(0, 0.6))))
    elif kind == "fan":
        pivot = centre + rng.normal(0, 0.1 * length, 2)
        step = float(rng.uniform(0.12, 0.4)) * rng.choice([-1, 1])
        for k in range(count):
            angle = base + k * step
            arm = np.array([np.sin(angle), -np.cos(angle)]) * 0.35 * length
            out.append((pivot + arm, angle))
    else:
        along = float({"column": rng.uniform(0.18, 0.35), "spread": rng.uniform(0.12, 0.45)}.get(
            str(kind), rng.uniform(0.75, 1.3)))
        direction = np.array([np.sin(base), -np.cos(base)]) if kind == "column" else np.array(
            [np.cos(base), np.sin(base)])
        for k in range(count):
            wobble = float(rng.normal(0, 0.03))
            out.append((centre + direction * along * length * k, base + wobble))
    return out


class Scene:
    """A scene being composed: the picture (float BGR) and which card owns each pixel."""

    def __init__(self, image: Array, unknown: Array | None = None) -> None:
        self.image = image
        self.owner = np.zeros(image.shape[:2], np.int32)
        self.unknown = np.zeros(image.shape[:2], bool) if unknown is None else unknown
        self.cards = 0

    def paint(self, face: Array, quad: Array, counts: bool) -> None:
        """A face (BGRA) warped onto the quad; its pixels are a card's when `counts`, else no
        card's (a back, a sheet, a hand)."""
        height, width = face.shape[:2]
        source = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
        matrix = cv2.getPerspectiveTransform(source, quad.astype(np.float32))
        size = (self.image.shape[1], self.image.shape[0])
        warped = cv2.warpPerspective(face, matrix, size, flags=cv2.INTER_LINEAR)
        alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
        self.image = self.image * (1 - alpha) + warped[:, :, :3].astype(np.float32) * alpha
        solid = alpha[:, :, 0] > 0.5
        if counts:
            self.cards += 1
            self.owner[solid] = self.cards
        else:
            self.owner[solid] = 0
        self.unknown[solid] = False


def drawn(face: Array, length: float) -> Array:
    """The face shrunk to about twice the drawn length (warping then does not alias)."""
    target = max(8, round(2 * length))
    if face.shape[0] <= target:
        return face
    scale = target / face.shape[0]
    return cv2.resize(face, (max(2, round(face.shape[1] * scale)), target),
                      interpolation=cv2.INTER_AREA)


def taped(face: Array, rng: np.random.Generator) -> Array:
    """The face with a dark border taped round it (as some home-made decks have)."""
    out = face.copy()
    height, width = out.shape[:2]
    band = max(2, round(width * float(rng.uniform(0.03, 0.07))))
    shade = int(rng.integers(10, 60))
    inner = np.zeros((height, width), np.uint8)
    cv2.rectangle(inner, (band, band), (width - 1 - band, height - 1 - band), 255, -1)
    ring = (inner == 0) & (out[:, :, 3] > 0)
    out[ring, :3] = shade
    return out


def sheet(length: float, rng: np.random.Generator) -> Array:
    """A distractor as BGRA: paper with lines of print, a card-sized printed box, a phone."""
    kind = rng.choice(["paper", "box", "dark"])
    if kind == "paper":
        height = int(length * rng.uniform(1.8, 3.5))
        width = int(height / rng.uniform(1.2, 1.6))
        image = np.full((height, width, 4), 255, np.uint8)
        image[:, :, :3] = np.clip(rng.normal(235, 10, 3), 180, 255).astype(np.uint8)
        for row in range(int(height * 0.1), int(height * 0.9), max(4, int(length * 0.08))):
            if rng.random() < 0.7:
                end = int(width * rng.uniform(0.3, 0.9))
                cv2.line(image, (int(width * 0.1), row), (end, row), (60, 60, 60, 255),
                         max(1, int(length * 0.02)))
        return image
    if kind == "box":
        height = int(length * rng.uniform(0.9, 1.3))
        width = int(height / rng.uniform(1.3, 1.6))
        image = np.zeros((height, width, 4), np.uint8)
        colour = (*rng.integers(150, 256, 3).tolist(), 255)
        cv2.rectangle(image, (1, 1), (width - 2, height - 2), colour,
                      max(1, int(length * 0.03)))
        return image
    height = int(length * rng.uniform(0.9, 1.6))
    width = int(height / rng.uniform(1.6, 2.1))
    image = np.zeros((height, width, 4), np.uint8)
    image[:, :, :3] = rng.integers(10, 70)
    image[:, :, 3] = 255
    return image


LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 "


def print_graphics(scene: Scene, length: float, rng: np.random.Generator) -> None:
    """Table print: lettering, lines, arcs and card-sized boxes, in one colour."""
    colour = rng.uniform(150, 255, 3) if rng.random() < 0.7 else rng.uniform(0, 90, 3)
    ink = np.zeros(scene.owner.shape, np.uint8)
    for _ in range(int(rng.integers(1, 6))):
        kind = rng.integers(4)
        start = rng.uniform(0, SCENE, 2).astype(int)
        at = (int(start[0]), int(start[1]))
        thickness = int(rng.integers(1, 4))
        if kind == 0:
            text = "".join(rng.choice(list(LETTERS), int(rng.integers(2, 12))))
            cv2.putText(ink, text, at, int(rng.integers(0, 8)),
                        float(length * rng.uniform(0.004, 0.015)), 255, thickness)
        elif kind == 1:
            end = rng.uniform(0, SCENE, 2).astype(int)
            cv2.line(ink, at, (int(end[0]), int(end[1])), 255, thickness)
        elif kind == 2:
            axes = (int(rng.uniform(0.5, 3) * length), int(rng.uniform(0.5, 3) * length))
            cv2.ellipse(ink, at, axes, float(rng.uniform(0, 180)), 0,
                        float(rng.uniform(60, 360)), 255, thickness)
        else:
            box = card_quad(start.astype(np.float64), length * rng.uniform(0.9, 1.2),
                            float(rng.uniform(1.3, 1.6)), float(rng.uniform(0, np.pi)), rng)
            cv2.polylines(ink, [np.round(box).astype(np.int32)], True, 255, thickness)
    alpha = (ink.astype(np.float32) / 255)[:, :, None]
    scene.image = scene.image * (1 - alpha) + colour.astype(np.float32) * alpha


def hand(scene: Scene, length: float, rng: np.random.Generator) -> None:
    """A hand or sleeve reaching in from the border over whatever lies there."""
    tone = np.array([rng.uniform(60, 180), rng.uniform(90, 200), rng.uniform(130, 230)])
    side = rng.integers(4)
    width = length * rng.uniform(0.5, 1.0)
    reach = length * rng.uniform(0.6, 2.0)
    along = rng.uniform(0.1, 0.9) * SCENE
    points = {0: [(along - width / 2, 0), (along + width / 2, 0), (along + width / 3, reach),
                  (along - width / 3, reach)],
              1: [(SCENE, along - width / 2), (SCENE, along + width / 2),
                  (SCENE - reach, along + width / 3), (SCENE - reach, along - width / 3)],
              2: [(along - width / 2, SCENE), (along + width / 2, SCENE),
                  (along + width / 3, SCENE - reach), (along - width / 3, SCENE - reach)],
              3: [(0, along - width / 2), (0, along + width / 2), (reach, along + width / 3),
                  (reach, along - width / 3)]}[int(side)]
    mask = np.zeros(scene.owner.shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(np.array(points)).astype(np.int32), 255)
    inside = mask > 0
    shade = cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), max(1.0, width / 6))
    scene.image[inside] = tone + (shade[inside, None] - 0.5) * 60
    scene.owner[inside] = 0
    scene.unknown[inside] = False


def shadow(scene: Scene, rng: np.random.Generator) -> None:
    """A soft shadow across part of the scene (cards keep their labels)."""
    points = rng.uniform(-0.2, 1.2, (int(rng.integers(3, 6)), 2)) * SCENE
    area = np.zeros(scene.owner.shape, np.float32)
    cv2.fillConvexPoly(area, np.round(cv2.convexHull(points.astype(np.float32))).astype(
        np.int32), 1.0)
    soft = cv2.GaussianBlur(area, (0, 0), float(rng.uniform(2, 12)))
    scene.image *= (1 - soft * float(rng.uniform(0.25, 0.6)))[:, :, None]


def tilt(scene: Scene, rng: np.random.Generator) -> None:
    """The whole scene seen by a camera a little off the vertical."""
    corners = np.array([[0, 0], [SCENE, 0], [SCENE, SCENE], [0, SCENE]], np.float32)
    moved = corners + rng.uniform(-0.1, 0.1, (4, 2)).astype(np.float32) * SCENE
    matrix = cv2.getPerspectiveTransform(corners, moved)
    size = (SCENE, SCENE)
    scene.image = cv2.warpPerspective(scene.image, matrix, size, flags=cv2.INTER_LINEAR,
                                      borderMode=cv2.BORDER_REFLECT)
    scene.owner = cv2.warpPerspective(scene.owner.astype(np.float32), matrix, size,
                                      flags=cv2.INTER_NEAREST,
                                      borderMode=cv2.BORDER_REFLECT).astype(np.int32)
    scene.unknown = cv2.warpPerspective(scene.unknown.astype(np.uint8), matrix, size,
                                        flags=cv2.INTER_NEAREST,
                                        borderMode=cv2.BORDER_REFLECT).astype(bool)


def labels_of(owner: Array, unknown: Array) -> Array:
    """The label map at 1 / STRIDE: inside 1, the edge band 2, no card 0, unknown IGNORE."""
    small = owner[STRIDE // 2::STRIDE, STRIDE // 2::STRIDE]
    out = np.zeros(small.shape, np.uint8)
    kernel = np.ones((3, 3), np.uint8)
    for card in np.unique(small):
        if card == 0:
            continue
        mine = (small == card).astype(np.uint8)
        inner = cv2.erode(mine, kernel, borderType=cv2.BORDER_CONSTANT, borderValue=1)
        out[inner > 0] = 1
        out[(mine > 0) & (inner == 0)] = 2
    out[unknown[STRIDE // 2::STRIDE, STRIDE // 2::STRIDE]] = IGNORE
    return out


class SceneMaker:
    """Makes training scenes from faces, patterns and real photos."""

    def __init__(self, faces: list[Face], patterns: list[Array], shared: Path | None,
                 photos: list[RealPhoto]) -> None:
        self.faces = [shrunk_face(f) for f in faces if f.rank != "none"]
        self.backs = [shrunk_face(f) for f in faces if f.rank == "none"]
        self.patterns = patterns
        self.shared = shared
        self.photos = photos
        self._frames: dict[str, Array] = {}

    def _photo(self, key: str) -> Array:
        if key not in self._frames:
            if len(self._frames) > 40:
                self._frames.clear()
            assert self.shared is not None
            image = cv2.imread(str(self.shared / "dev" / key), cv2.IMREAD_COLOR)
            if image is None:
                raise OSError(f"cannot read {key}")
            self._frames[key] = image
        return self._frames[key]

    def real_ground(self, length: float, rng: np.random.Generator,
                    ) -> tuple[Scene, list[Array]] | None:
        """A licensed dev photo shrunk so its cards are about `length` long, cut to the scene:
        its outlined cards labelled, other cards unknown. Returns the scene and the photo's
        quads in scene pixels."""
        if not self.photos or self.shared is None:
            return None
        photo = self.photos[int(rng.integers(len(self.photos)))]
        frame = self._photo(photo.key)
        factor = length / float(np.median(photo.lengths))
        factor = min(factor, 1.0)
        small = cv2.resize(frame, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
        height, width = small.shape[:2]
        x0 = int(rng.integers(0, max(1, width - SCENE + 1)))
        y0 = int(rng.integers(0, max(1, height - SCENE + 1)))
        crop = small[y0:y0 + SCENE, x0:x0 + SCENE]
        image = cv2.copyMakeBorder(crop, 0, SCENE - crop.shape[0], 0, SCENE - crop.shape[1],
                                   cv2.BORDER_REFLECT).astype(np.float32)
        unknown = np.zeros((SCENE, SCENE), bool)
        unknown[crop.shape[0]:, :] = True
        unknown[:, crop.shape[1]:] = True
        scene = Scene(image, unknown)
        offset = np.array([x0, y0], np.float32)
        quads = [q * factor - offset for q in photo.quads]
        count = np.zeros((SCENE, SCENE), np.uint8)
        for quad in quads:
            one = np.zeros((SCENE, SCENE), np.uint8)
            cv2.fillConvexPoly(one, np.round(quad).astype(np.int32), 1)
            count += one
            scene.cards += 1
            scene.owner[one > 0] = scene.cards
        scene.unknown |= count > 1
        for box in photo.unknown:
            x_0, y_0, x_1, y_1 = (box * factor - np.concatenate([offset, offset])).tolist()
            margin = 0.1 * length
            cv2.rectangle(scene.unknown.view(np.uint8), (int(x_0 - margin), int(y_0 - margin)),
                          (int(x_1 + margin), int(y_1 + margin)), 1, -1)
        # An outline's edge is known to a pixel or two: its band is not judged.
        edges = np.zeros((SCENE, SCENE), np.uint8)
        cv2.polylines(edges, [np.round(q).astype(np.int32) for q in quads], True, 1, 2)
        scene.unknown |= edges > 0
        return scene, quads

    def make(self, rng: np.random.Generator) -> tuple[Array, Array]:
        """One scene: (BGR uint8 SCENE x SCENE, labels uint8 at 1 / STRIDE)."""
        length = float(np.exp(rng.uniform(*np.log(CARD_LENGTHS))))
        scene: Scene | None = None
        if rng.random() < 0.3:
            real = self.real_ground(length, rng)
            if real is not None:
                scene = real[0]
        if scene is None:
            scene = Scene(table(SCENE, self.patterns, rng))
        if rng.random() < 0.4:
            print_graphics(scene, length, rng)
        aspect = float(rng.uniform(1.38, 1.58))
        groups = int(rng.integers(0, 4)) if scene.cards else int(rng.integers(1, 4))
        for _ in range(groups):
            for centre, angle in layout(length, rng):
                roll = rng.random()
                size, shape = length, aspect
                if roll < 0.06 and self.backs:
                    face, counts = self.backs[int(rng.integers(len(self.backs)))], False
                elif roll < 0.1:
                    face, counts = sheet(length, rng), False
                    size, shape = float(face.shape[0]), face.shape[0] / max(1, face.shape[1])
                else:
                    face, counts = self.faces[int(rng.integers(len(self.faces)))], True
                    if rng.random() < 0.08:
                        face = taped(face, rng)
                quad = card_quad(centre, size, shape, angle, rng)
                scene.paint(drawn(face, size), quad, counts)
        if rng.random() < 0.2:
            hand(scene, length, rng)
        if rng.random() < 0.3:
            shadow(scene, rng)
        if rng.random() < 0.5:
            tilt(scene, rng)
        image = camera_faults(scene.image, length, rng)
        return image, labels_of(scene.owner, scene.unknown)
