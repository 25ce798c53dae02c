"""Configs with some registered finders switched off, for tests of what each finder adds."""

from __future__ import annotations

from dataclasses import replace

from vision.config import VisionConfig


def without_finders(config: VisionConfig, *names: str) -> VisionConfig:
    """`config` with the finders registered as `names` off and the others as they were."""
    return replace(config, finders=tuple(name for name in config.finders if name not in names))
