"""The glyph reader on its own, without the learned reader's check or the learned finder's second
look, for tests of its stages."""

from __future__ import annotations

from typing import Any

from vision.config import VisionConfig


def glyph_config(**changes: Any) -> VisionConfig:
    """A config whose names come from the glyph reader's stages alone, on the colour masks'
    outlines."""
    return VisionConfig(**{"learned_reader": False, "learned_finder": None, **changes})
