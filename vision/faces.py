"""Whole-face matching: the joker, whose corners carry no rank and suit, is known by its face."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.cards import Image, Quad
from vision.foreshortening import long_pair
from vision.guess import Guess

FACE_SIZE = (16, 24)
"""Width and height of the coarse colour face a card is compared by."""

FaceVector = npt.NDArray[np.float32]

JOKER = "JK"
BUILTIN_JOKERS = ("JK_red.png", "JK_black.png")
ARTWORK = Path(__file__).parent / "data" / "artwork"


def _normalised(small: Image) -> FaceVector:
    """Zero-mean, unit-length vector of a small Lab face, so lighting and contrast drop out."""
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab -= lab.reshape(-1, 3).mean(axis=0)
    vector = lab.reshape(-1)
    norm = float(np.linalg.norm(vector))
    return (vector / norm if norm > 1e-6 else vector).astype(np.float32)


def _upright(corners: Quad, size: tuple[int, int]) -> npt.NDArray[np.float32]:
    """The outline's corners ordered so the first side is a short side (portrait card) in a
    frame of `size` (width, height)."""
    pts = np.asarray(corners, dtype=np.float32)
    if long_pair(pts, size) == 0:
        pts = np.roll(pts, -1, axis=0)
    return pts


def face_vector(frame: Image, corners: Quad) -> FaceVector:
    """The coarse face of the card outlined by `corners`, warped upright from the frame."""
    width, height = FACE_SIZE
    big = (width * 4, height * 4)
    target = np.array([[0, 0], [big[0] - 1, 0], [big[0] - 1, big[1] - 1], [0, big[1] - 1]],
                      np.float32)
    upright = _upright(corners, (frame.shape[1], frame.shape[0]))
    matrix = cv2.getPerspectiveTransform(upright, target)
    warped = cv2.warpPerspective(frame, matrix, big, flags=cv2.INTER_LINEAR)
    if warped.ndim == 2:
        warped = cv2.cvtColor(warped, cv2.COLOR_GRAY2BGR)
    return _normalised(cv2.resize(warped, FACE_SIZE, interpolation=cv2.INTER_AREA))


def image_face(image: Image) -> FaceVector:
    """The coarse face of an image that is a card and nothing else (BGR or BGRA)."""
    if image.ndim == 3 and image.shape[2] == 4:
        alpha = image[:, :, 3:4].astype(np.float32) / 255
        image = (image[:, :, :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)
    height, width = image.shape[:2]
    corners = np.array([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]],
                       np.float32)
    return face_vector(image, corners)


@dataclass(frozen=True)
class FaceSet:
    """Known card faces (each stored as seen upright) with their card names."""

    vectors: npt.NDArray[np.float32]
    names: npt.NDArray[np.str_]

    @classmethod
    def empty(cls) -> FaceSet:
        """A set with no faces."""
        return cls(np.zeros((0, FACE_SIZE[0] * FACE_SIZE[1] * 3), np.float32),
                   np.zeros(0, dtype="<U2"))

    @classmethod
    def of(cls, faces: list[tuple[str, FaceVector]]) -> FaceSet:
        """A set from (card name, face vector) pairs."""
        if not faces:
            return cls.empty()
        return cls(np.stack([v for _, v in faces]).astype(np.float32),
                   np.array([n for n, _ in faces], dtype="<U2"))

    def __add__(self, other: FaceSet) -> FaceSet:
        return FaceSet(np.concatenate([self.vectors, other.vectors]),
                       np.concatenate([self.names, other.names]))

    def __len__(self) -> int:
        return len(self.names)

    @property
    def has_joker(self) -> bool:
        """True when a joker face is known."""
        return bool(np.any(self.names == JOKER))

    def match(self, frame: Image, corners: Quad) -> Guess | None:
        """The known face nearest the outlined card, either way up; None if no face is known."""
        if not len(self):
            return None
        vector = face_vector(frame, corners)
        turned = _turned(vector)
        scores = np.maximum(self.vectors @ vector, self.vectors @ turned)
        best = int(np.argmax(scores))
        others = scores[self.names != self.names[best]]
        runner_up = float(others.max()) if others.size else -1.0
        similarity = float(scores[best])
        return Guess(str(self.names[best]), similarity, similarity - runner_up)


def _turned(vector: FaceVector) -> FaceVector:
    """The same face turned half a revolution."""
    width, height = FACE_SIZE
    return np.ascontiguousarray(vector.reshape(height, width, 3)[::-1, ::-1]).reshape(-1)


@cache
def builtin_faces() -> FaceSet:
    """The jokers every table knows out of the box: those of the shipped artwork deck."""
    faces = []
    for name in BUILTIN_JOKERS:
        image = cv2.imread(str(ARTWORK / name), cv2.IMREAD_UNCHANGED)
        if image is not None:
            faces.append((JOKER, image_face(image)))
    return FaceSet.of(faces)
