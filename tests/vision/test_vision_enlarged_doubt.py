"""A smaller play-area view is looked at enlarged only where its first look leaves doubt."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import vision.detect
from tools.scenes import paste_card, table_background
from tools.synthetic import artwork_cards
from vision.cards import Image
from vision.config import VisionConfig
from vision.live import LiveConfig, view_config
from vision.model import GlyphModel
from vision.pipeline import recognise

VIEW = 720
"""A 720p camera's play area, cards about 95 px long."""
CARD = 95.0
CARDS = ("KS", "QD", "TH", "AC")


def _view(shared: Path, blank: bool) -> Image:
    """Four cards of the svg-cards deck in a square 720 px view, and a blank card beside them
    when asked (present, never named)."""
    faces = dict(artwork_cards(shared / "vision" / "artwork"))
    view = table_background(VIEW, VIEW, seed=5)
    for k, name in enumerate(CARDS):
        centre = (180.0 + 120.0 * k, 300.0 + 40.0 * (k % 2))
        paste_card(view, faces[name], centre, CARD, -20.0 + 15.0 * k)
    if blank:
        paste_card(view, np.full((350, 250, 3), 235, np.uint8), (360.0, 560.0), CARD, 12.0)
    return view


@pytest.fixture()
def enlarged_sizes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The long sides of the frames the enlarged look searched, recorded as it runs."""
    sizes: list[int] = []
    look = vision.detect._enlarged_candidates

    def recorded(frame: Image, masks: vision.detect.MaskSet, config: VisionConfig
                 ) -> list[tuple[float, np.ndarray]]:
        if config.enlarged_look and max(frame.shape[:2]) < config.enlarged_look:
            sizes.append(config.enlarged_look)
        return look(frame, masks, config)

    monkeypatch.setattr(vision.detect, "_enlarged_candidates", recorded)
    return sizes


def _names(view: Image, config: VisionConfig) -> list[str | None]:
    return sorted((o.name for o in recognise(view, GlyphModel.load(), config) if o.whole),
                  key=lambda name: (name is None, name or ""))


def test_a_view_whose_cards_are_all_named_is_not_looked_at_enlarged(
        shared_dir: Path, enlarged_sizes: list[int]) -> None:
    config = replace(view_config(VisionConfig(), LiveConfig()), card_length=CARD)
    assert config.enlarged_in_doubt and config.enlarged_look == 1024
    assert _names(_view(shared_dir, blank=False), config) == ["AC", "KS", "QD", "TH"]
    assert enlarged_sizes == []
    always = replace(config, enlarged_in_doubt=False)
    assert _names(_view(shared_dir, blank=False), always) == ["AC", "KS", "QD", "TH"]
    assert enlarged_sizes == [1024]


def test_a_view_left_in_doubt_is_looked_at_enlarged_the_second_time(
        shared_dir: Path, enlarged_sizes: list[int]) -> None:
    config = replace(view_config(VisionConfig(), LiveConfig()), card_length=CARD)
    assert _names(_view(shared_dir, blank=True), config) == ["AC", "KS", "QD", "TH", None]
    assert enlarged_sizes == [1024]


def test_a_photo_is_still_looked_at_enlarged_at_once() -> None:
    assert not VisionConfig().enlarged_in_doubt
    assert not replace(LiveConfig(), enlarged_in_doubt=False).enlarged_in_doubt
    assert not view_config(VisionConfig(), replace(LiveConfig(), enlarged_in_doubt=False)
                           ).enlarged_in_doubt
