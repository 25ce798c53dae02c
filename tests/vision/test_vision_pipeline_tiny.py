"""Frames too small or too plain to hold a card give no card, and no error."""

from __future__ import annotations

import numpy as np
import pytest

from vision.model import GlyphModel
from vision.pipeline import recognise


@pytest.mark.parametrize(("height", "width"), [(1, 1), (3, 3), (7, 7), (15, 40), (64, 48)])
@pytest.mark.parametrize("level", [0, 128, 250])
def test_tiny_or_plain_frames_give_no_card(height: int, width: int, level: int) -> None:
    frame = np.full((height, width, 3), level, np.uint8)
    assert [o for o in recognise(frame, GlyphModel.load()) if o.reading is not None] == []
