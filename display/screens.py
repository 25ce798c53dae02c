"""Render every sample state to PNG files."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

import pygame

from display.render import render
from display.samples import sample_views
from display.style import Style
from display.text import SUIT_LETTERS

FILE_LABEL_LENGTH = 40


def file_label(label: str) -> str:
    """A step's label as a file name part: "W plays J♥" -> "W_plays_JH", suits as letters."""
    lettered = "".join(SUIT_LETTERS.get(char, char) for char in label)
    safe = "".join(char if char.isascii() and char.isalnum() else "_" for char in lettered)
    return "_".join(part for part in safe.split("_") if part)[:FILE_LABEL_LENGTH]


def write_screenshots(outdir: Path, sizes: Iterable[tuple[int, int]], style: Style) -> list[Path]:
    """One PNG per state and size, named `<state>-<W>x<H>.png`; returns the paths written."""
    outdir.mkdir(parents=True, exist_ok=True)
    screens = [(name, view, style) for name, view in sample_views().items()]
    other = replace(style, four_colour=not style.four_colour)
    deck = "four-colour" if other.four_colour else "two-colour"
    screens.append((f"trick-complete-{deck}", sample_views()["trick-complete"], other))
    written = []
    for width, height in sizes:
        surface = pygame.Surface((width, height))
        for name, view, screen_style in screens:
            render(view, surface, now=0.0, style=screen_style)
            path = outdir / f"{name}-{width}x{height}.png"
            pygame.image.save(surface, str(path))
            written.append(path)
    return written
