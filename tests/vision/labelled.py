"""Labelled dev photos for recorded-photo tests."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from vision.config import VisionConfig
from vision.imageio import read_image
from vision.model import GlyphModel
from vision.pipeline import recognise


def photo_and_truth(shared_dir: Path, name: str) -> tuple[np.ndarray, np.ndarray]:
    """A labelled dev photo and its first card's labelled box, as a quad."""
    vision = shared_dir / "vision"
    labels = json.loads((vision / "labels.json").read_text())
    x0, y0, x1, y1 = labels["images"][name]["cards"][0]["box"]
    truth = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    return read_image(vision / "dev" / name), truth


def webcam_ten_names(shared_dir: Path, config: VisionConfig) -> list[str]:
    """Names read at the blurred webcam ten of clubs of `cam_image1.jpg` (about x = 300 of the
    480x270 frame; plain, its clubs read as spades)."""
    frame = read_image(shared_dir / "vision" / "dev" / "edje_train" / "cam_image1.jpg")
    return [o.name for o in recognise(frame, GlyphModel.load(), config)
            if o.name and abs(o.corners.mean(axis=0)[0] - 300) < 50]
