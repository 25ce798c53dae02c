"""The learned card finder: a small network marking card faces and their edges in a frame."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.cards import Image
from vision.learned import ModelFileError, read_onnx

CLASSES = ("table", "inside", "edge")
"""What the finder tells of each pixel: no card face, a card face's inside, the band along the
edge of a card's visible part."""
STRIDE = 2
"""Input pixels per output pixel."""
INPUT = {"mean": 128.0, "scale": 64.0}
"""The network standardises its BGR input itself: (pixel - mean) / scale."""
DATA = Path(__file__).resolve().parent / "data"
MODEL_PATH = DATA / "finder.onnx"
MULTIPLE = 16
"""The network's input sides must be multiples of this (four halvings)."""


@dataclass(frozen=True)
class LearnedFinder:
    """The shipped finder network and its manifest."""

    net: Any
    manifest: dict[str, Any]

    def inside(self, image: Image) -> np.ndarray:
        """The probability that each pixel of a BGR image lies inside a card face's visible
        part (away from its edge), at the image's own size."""
        height, width = image.shape[:2]
        tall = -(-height // MULTIPLE) * MULTIPLE
        wide = -(-width // MULTIPLE) * MULTIPLE
        padded = cv2.copyMakeBorder(image, 0, tall - height, 0, wide - width,
                                    cv2.BORDER_REPLICATE)
        blob = np.ascontiguousarray(padded.transpose(2, 0, 1)[None], np.float32)
        self.net.setInput(blob)
        logits = np.asarray(self.net.forward(), np.float32)[0]
        logits -= logits.max(axis=0, keepdims=True)
        exp = np.exp(logits)
        probability = exp[CLASSES.index("inside")] / exp.sum(axis=0)
        full = cv2.resize(probability, (wide, tall), interpolation=cv2.INTER_LINEAR)
        return np.ascontiguousarray(full[:height, :width])


def load_finder(path: Path = MODEL_PATH) -> LearnedFinder:
    """The finder network and its manifest (the .json beside it)."""
    manifest_path = path.with_suffix(".json")
    try:
        manifest = json.loads(manifest_path.read_text())
    except (OSError, ValueError) as error:
        raise ModelFileError(f"finder manifest {manifest_path}: {error}") from error
    if list(manifest.get("classes", [])) != list(CLASSES) or manifest.get("stride") != STRIDE:
        raise ModelFileError(f"finder manifest {manifest_path} does not match this version")
    return LearnedFinder(read_onnx(path), manifest)


@cache
def shipped_finder() -> LearnedFinder:
    """The finder shipped in vision/data, loaded once."""
    return load_finder()


def inside_mask(image: Image, long_side: int, level: float = 0.5) -> Image:
    """A binary mask (0/255) of the card faces the finder sees in a BGR image (looked at
    shrunk to at most `long_side`): each face's inside grown by one pixel of the image, so
    touching faces stay apart."""
    height, width = image.shape[:2]
    scale = min(1.0, long_side / max(height, width))
    seen = image if scale == 1.0 else cv2.resize(
        image, (max(MULTIPLE, round(width * scale)), max(MULTIPLE, round(height * scale))),
        interpolation=cv2.INTER_AREA)
    inside = shipped_finder().inside(seen)
    if seen is not image:
        inside = cv2.resize(inside, (width, height), interpolation=cv2.INTER_LINEAR)
    return grown_apart(np.where(inside > level, 255, 0).astype(np.uint8))


def grown_apart(mask: Image) -> Image:
    """A binary mask with each of its 4-connected regions grown by one pixel, but never into a
    pixel next to another region: regions that were apart stay apart."""
    count, parts = cv2.connectedComponents(mask, connectivity=4)
    if count <= 1:
        return mask
    labels = parts.astype(np.float32)
    kernel = np.ones((3, 3), np.uint8)
    highest = cv2.dilate(labels, kernel)
    lowest = cv2.erode(np.where(labels > 0, labels, np.float32(count)), kernel)
    grown = (highest > 0) & ((labels > 0) | (highest == lowest))
    return np.where(grown, 255, 0).astype(np.uint8)
