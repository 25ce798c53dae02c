"""Pale index ink that breaks at a corner's own ink level is read at a second, lower level."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tests.vision.glyphs_only import glyph_config
from vision.imageio import read_image
from vision.model import GlyphModel
from vision.pipeline import recognise


@pytest.mark.parametrize(("key", "card"), [("IMG_2517.jpg", "AH"), ("IMG_2565.jpg", "9H")])
def test_pale_red_index_is_read_only_with_the_second_look(shared_dir: Path, key: str,
                                                          card: str) -> None:
    frame = read_image(shared_dir / "vision" / "dev" / "edje_train" / key)
    model = GlyphModel.load()
    with_second_look = {o.name for o in recognise(frame, model, glyph_config())}
    without = {o.name for o in recognise(frame, model, replace(glyph_config(),
                                                               second_look_shifts=()))}
    assert card in with_second_look
    assert card not in without


def test_ten_whose_digits_ran_together_is_read(shared_dir: Path) -> None:
    frame = read_image(shared_dir / "vision" / "dev" / "edje_train" / "IMG_2584.jpg")
    model = GlyphModel.load()
    names = {o.name for o in recognise(frame, model, glyph_config())}
    # Sharpening a blurred view parts the digits too, and the wider index views and the fitted
    # outline read it as it is: all off, to see the merged-ten rule alone.
    strict = replace(glyph_config(), merged_ten_similarity=1.01, sharpen_looks=(),
                     wide_index_windows=(), outline_fit=None)
    assert "TD" in names
    assert "TD" not in {o.name for o in recognise(frame, model, strict)}


def test_ten_of_hearts_in_a_trick_is_read_only_at_a_higher_level(shared_dir: Path) -> None:
    # The ten lies under the trick's top card; its loose corner reads only at a higher ink level.
    frame = read_image(shared_dir / "vision" / "dev" / "felt_tricks" / "spiel2_zug03.jpg")
    model = GlyphModel.load()
    lower_only = replace(glyph_config(), corner_shifts=())
    assert "TH" in {o.name for o in recognise(frame, model, glyph_config())}
    assert "TH" not in {o.name for o in recognise(frame, model, lower_only)}
