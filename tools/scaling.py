"""Labelled photo folders shrunk to the table camera's card size (shared/vision/scale.py's way).

An overhead camera over a 66 cm play area sees a card about 140 px long at 1920x1080 and about
95 px long at 1280x720. Each image is shrunk (never enlarged) so that the median long side of its
fully visible labelled cards becomes the target, with OpenCV's area interpolation, written again
(JPEG at quality 92), and its boxes and quads are scaled with it."""

from __future__ import annotations

import hashlib
import json
import math
import os
import shutil
import statistics
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2

from vision.errors import VisionError

JPEG_QUALITY = 92
CACHE = Path(tempfile.gettempdir()) / "cardtable-scaled"
"""Where scaled copies are kept between runs, one folder per source folder, labels and size."""


def card_long_side(card: dict[str, Any]) -> float:
    """A labelled card's long side in pixels: from its quad, else from its box."""
    quad = card.get("quad")
    if quad:
        return max(math.dist(quad[i], quad[(i + 1) % 4]) for i in range(4))
    x0, y0, x1, y1 = card["box"]
    return float(max(x1 - x0, y1 - y0))


def whole_card_sides(record: dict[str, Any]) -> list[float]:
    """The long sides of an image's fully visible labelled cards."""
    return [card_long_side(c) for c in record["cards"]
            if c.get("box") and not c.get("partial") and not c.get("ignore")]


def shrink_factor(record: dict[str, Any], target: float) -> float:
    """How much an image is shrunk so its visible cards' median long side becomes the target."""
    sizes = whole_card_sides(record)
    return min(1.0, target / statistics.median(sizes)) if sizes else 1.0


def scaled_record(record: dict[str, Any], width: int, height: int, new_width: int,
                  new_height: int, factor: float) -> dict[str, Any]:
    """A copy of an image's labels with its size, boxes and quads scaled."""
    scaled: dict[str, Any] = json.loads(json.dumps(record))
    scaled["width"], scaled["height"], scaled["scaled_by"] = new_width, new_height, factor
    sx, sy = new_width / width, new_height / height
    for card in scaled["cards"]:
        if card.get("box"):
            x0, y0, x1, y1 = card["box"]
            card["box"] = [x0 * sx, y0 * sy, x1 * sx, y1 * sy]
        if card.get("quad"):
            card["quad"] = [[x * sx, y * sy] for x, y in card["quad"]]
    return scaled


def _read_labels(folder: Path) -> dict[str, Any]:
    path = folder / "labels.json"
    try:
        labels: dict[str, Any] = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise VisionError(f"cannot read labels {str(path)!r}: {error}") from error
    return labels


def scale_folder(source: Path, out: Path, target: float) -> int:
    """Write a copy of a labelled folder at the target card length; returns the image count."""
    if target <= 0:
        raise VisionError(f"card length {target:g} px is not positive")
    labels = _read_labels(source)
    root = labels.get("image_root", "")
    images = {}
    for key, record in labels["images"].items():
        image = cv2.imread(str(source / root / key), cv2.IMREAD_COLOR)
        if image is None:
            raise VisionError(f"cannot read image {str(source / root / key)!r}")
        factor = shrink_factor(record, target)
        height, width = image.shape[:2]
        new_width, new_height = max(1, round(width * factor)), max(1, round(height * factor))
        if factor < 1.0:
            image = cv2.resize(image, (new_width, new_height), interpolation=cv2.INTER_AREA)
        destination = out / root / key
        destination.parent.mkdir(parents=True, exist_ok=True)
        if not cv2.imwrite(str(destination), image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY]):
            raise VisionError(f"cannot write image {str(destination)!r}")
        images[key] = scaled_record(record, width, height, new_width, new_height, factor)
    (out / "labels.json").write_text(json.dumps(dict(labels, images=images)))
    return len(images)


def _cache_name(source: Path, target: float) -> str:
    labels = (source / "labels.json").stat()
    key = f"{source.resolve()}|{labels.st_size}|{labels.st_mtime_ns}"
    return f"{hashlib.sha1(key.encode()).hexdigest()[:16]}-{target:g}px"


def cached_scaled_folder(source: Path, target: float, cache: Path | None = None) -> Path:
    """The folder scaled to the target card length, made once and kept in the cache (`CACHE`)."""
    cache = CACHE if cache is None else cache
    if not (source / "labels.json").is_file():
        raise VisionError(f"{str(source)!r} has no labels.json")
    return kept_folder(cache / _cache_name(source, target),
                       lambda work: scale_folder(source, work, target))


def kept_folder(done: Path, make: Callable[[Path], object]) -> Path:
    """`done`, made by `make` into a fresh folder beside it and renamed whole, unless kept."""
    if (done / "labels.json").is_file():
        return done
    done.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=done.name + ".", dir=done.parent))
    try:
        make(work)
        os.replace(work, done)
    except OSError:
        shutil.rmtree(work, ignore_errors=True)
        if not (done / "labels.json").is_file():
            raise
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return done
