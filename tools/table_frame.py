"""Labelled photo folders set into whole camera frames, the way the table camera sees cards.

A photo shrunk to the camera's card length is much smaller than what the table recognises: the
watcher crops the camera's frame to the play area (66 cm square, about the frame's height: 1080 px
at 1920x1080, where a card is 140 px long), and recognition shrinks that view before it looks for
outlines (`detect_long_side`). So a card measured in the small photo alone is seen larger than it
would be at the table. Here each image is placed in the middle of a square play-area view of that
size for its card length (1080x1080 at 140 px, in proportion for any other), filled with the colour
of the photo's own border and a little noise; its boxes and quads move with it. A photo whose cards
are shorter than the target was never enlarged: its view is the smaller one in which its own cards
have the table's proportion, as under a camera further away, and its labels record that length
(`card_length`, the length the table learns from the cards it reads: `vision.live`)."""

from __future__ import annotations

import hashlib
import json
import statistics
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from tools.scaling import CACHE, JPEG_QUALITY, kept_folder, whole_card_sides
from vision.errors import VisionError

PLAY_AREA = 1080
PLAY_AREA_CARD = 140.0
"""A card is about 140 px long in a play area 1080 px square (a 1920x1080 camera)."""


def frame_size(card_length: float) -> tuple[int, int]:
    """The play-area view (width, height) in which cards are `card_length` px long."""
    side = 2 * round(PLAY_AREA * card_length / PLAY_AREA_CARD / 2)
    return (side, side)


def view_card_length(record: dict[str, Any], card_length: float) -> float:
    """How long the photo's cards are: the target it was shrunk to, or the median long side of
    its whole labelled cards where they are shorter (a photo is never enlarged)."""
    if record.get("scaled_by", 1.0) < 1.0:
        return card_length
    sides = whole_card_sides(record)
    return min(card_length, statistics.median(sides)) if sides else card_length


def border_colour(image: np.ndarray) -> np.ndarray:
    """The median colour of an image's outermost rows and columns."""
    edge = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]])
    colour: np.ndarray = np.median(edge, axis=0)
    return colour


def in_frame(image: np.ndarray, width: int, height: int,
             seed: int) -> tuple[np.ndarray, tuple[int, int]]:
    """The image in the middle of a frame at least `width` x `height`, and its offset."""
    h, w = image.shape[:2]
    out_w, out_h = max(width, w), max(height, h)
    rng = np.random.default_rng(seed)
    noise = rng.normal(0.0, 4.0, (out_h, out_w, 3))
    frame = np.clip(border_colour(image)[None, None, :] + noise, 0, 255).astype(np.uint8)
    x, y = (out_w - w) // 2, (out_h - h) // 2
    frame[y:y + h, x:x + w] = image
    return frame, (x, y)


def moved_record(record: dict[str, Any], dx: int, dy: int, width: int,
                 height: int) -> dict[str, Any]:
    """A copy of an image's labels in the frame: its size, boxes and quads moved."""
    moved: dict[str, Any] = json.loads(json.dumps(record))
    moved["width"], moved["height"] = width, height
    for card in moved["cards"]:
        if card.get("box"):
            x0, y0, x1, y1 = card["box"]
            card["box"] = [x0 + dx, y0 + dy, x1 + dx, y1 + dy]
        if card.get("quad"):
            card["quad"] = [[x + dx, y + dy] for x, y in card["quad"]]
    return moved


def frame_folder(source: Path, out: Path, card_length: float) -> int:
    """Write a copy of a labelled folder with every image set into the play-area view of its
    cards' length (`view_card_length`, kept in its labels as `card_length`); the image count."""
    try:
        labels: dict[str, Any] = json.loads((source / "labels.json").read_text())
    except (OSError, ValueError) as error:
        raise VisionError(f"cannot read labels in {str(source)!r}: {error}") from error
    root = labels.get("image_root", "")
    images = {}
    for number, (key, record) in enumerate(sorted(labels["images"].items())):
        image = cv2.imread(str(source / root / key), cv2.IMREAD_COLOR)
        if image is None:
            raise VisionError(f"cannot read image {str(source / root / key)!r}")
        length = view_card_length(record, card_length)
        frame, (dx, dy) = in_frame(image, *frame_size(length), seed=number)
        destination = out / root / key
        destination.parent.mkdir(parents=True, exist_ok=True)
        if not cv2.imwrite(str(destination), frame, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY]):
            raise VisionError(f"cannot write image {str(destination)!r}")
        images[key] = dict(moved_record(record, dx, dy, frame.shape[1], frame.shape[0]),
                           card_length=length)
    (out / "labels.json").write_text(json.dumps(dict(labels, images=images)))
    return len(images)


def cached_frame_folder(source: Path, card_length: float, cache: Path | None = None) -> Path:
    """The (already scaled) folder set into the camera's frames, made once and kept."""
    cache = CACHE if cache is None else cache
    if not (source / "labels.json").is_file():
        raise VisionError(f"cannot read labels in {str(source)!r}: no labels.json")
    stamp = (source / "labels.json").stat()
    key = f"{source.resolve()}|{stamp.st_size}|{stamp.st_mtime_ns}|{card_length:g}|own"
    done = cache / f"{hashlib.sha1(key.encode()).hexdigest()[:16]}-frame-{card_length:g}px"
    return kept_folder(done, lambda work: frame_folder(source, work, card_length))
