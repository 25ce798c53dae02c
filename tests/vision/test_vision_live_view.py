"""The play-area view is searched at its own size, where a photo is shrunk first."""

from __future__ import annotations

import numpy as np
import pytest

from tools.scenes import paste_card, table_background
from tools.synthetic import artwork_cards
from vision.config import VisionConfig
from vision.detect import card_masks
from vision.faces import ARTWORK
from vision.live import LiveConfig, TableWatcher, view_config
from vision.model import GlyphModel
from vision.pipeline import recognise
from vision.zones import default_zones


def play_area_view(side: int, card_length: float, seed: int) -> tuple[np.ndarray, set[str]]:
    """A square table view with six euchre artwork cards of the given length."""
    faces = [(n, f) for n, f in artwork_cards(ARTWORK) if n != "JK" and n[0] in "9TJQKA"]
    scene = table_background(side, side, seed=seed)
    names = set()
    for k in range(6):
        name, face = faces[(seed * 7 + k * 5) % len(faces)]
        spot = (side * (0.2 + 0.3 * (k % 3)), side * (0.3 + 0.4 * (k // 3)))
        paste_card(scene, face, spot, card_length, -20 + 13 * k + seed * 5)
        names.add(name)
    return scene, names


def test_the_watcher_searches_a_1080p_play_area_as_it_is() -> None:
    view, _ = play_area_view(1080, 140.0, seed=0)
    watcher = TableWatcher(GlyphModel.load(), default_zones(1080, 1080),
                           live_config=LiveConfig(one_thread=False))
    assert card_masks(view, watcher.vision_config).scale == 1.0
    assert card_masks(view, VisionConfig()).scale < 0.6
    assert view_config(VisionConfig(), LiveConfig(view_long_side=0)) == VisionConfig()


@pytest.mark.parametrize(("side", "card_length"), [(1080, 140.0), (732, 95.0)])
def test_every_card_of_a_play_area_view_is_named_at_the_cameras_size(
        side: int, card_length: float) -> None:
    model = GlyphModel.load()
    config = view_config(VisionConfig(), LiveConfig())
    for seed in range(3):
        view, names = play_area_view(side, card_length, seed)
        named = [o.name for o in recognise(view, model, config) if o.name]
        assert sorted(named) == sorted(names)
