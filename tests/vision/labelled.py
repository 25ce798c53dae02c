"""Labelled dev photos for recorded-photo tests."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from vision.imageio import read_image


def photo_and_truth(shared_dir: Path, name: str) -> tuple[np.ndarray, np.ndarray]:
    """A labelled dev photo and its first card's labelled box, as a quad."""
    vision = shared_dir / "vision"
    labels = json.loads((vision / "labels.json").read_text())
    x0, y0, x1, y1 = labels["images"][name]["cards"][0]["box"]
    truth = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    return read_image(vision / "dev" / name), truth
