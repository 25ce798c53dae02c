"""German-index tricks from the shared photos: the top card and the covered one are read."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.vision.glyphs_only import glyph_config
from vision.imageio import read_image
from vision.model import GlyphModel
from vision.pipeline import recognise


@pytest.mark.parametrize(
    ("key", "top", "under"),
    [("felt_tricks/spiel1_zug05.jpg", "AC", "TD"), ("felt_tricks/spiel3_zug03.jpg", "AH", "KC")],
)
def test_both_cards_of_a_trick_are_read(shared_dir: Path, key: str, top: str,
                                        under: str) -> None:
    frame = read_image(shared_dir / "vision" / "dev" / key)
    observations = recognise(frame, GlyphModel.load(), glyph_config())
    read = {o.name: o for o in observations if o.name}
    assert set(read) == {top, under}
    # The top card is outlined whole; the covered one is read from a visible corner.
    assert read[top].whole and not read[under].whole
