"""Recorded photos from the shared development set, read as a family: the training halves of
every set (skipped when the set is absent)."""

from __future__ import annotations

from pathlib import Path

from tests.vision.dev_family import family_keys, family_reading
from vision.config import VisionConfig


def test_single_card_crops_are_read_right(shared_dir: Path) -> None:
    vision = shared_dir / "vision"
    crops = family_keys(vision, ("vosloo_crops",))
    reading = family_reading(vision, VisionConfig(), ("vosloo_crops",))
    assert len(crops) >= 50
    assert reading.count("vosloo_crops") >= 0.98 * len(crops)
    assert reading.wrong == 0

