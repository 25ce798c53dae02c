"""What a second look left in doubt, found again as it was, asks for no second look again."""

from __future__ import annotations

import numpy as np
import pytest

from tools.scenes import paste_card, plain_card, table_background
from vision.live import LiveConfig, TableWatcher
from vision.model import GlyphModel
from vision.pipeline import StageClock
from vision.zones import default_zones

WIDTH, HEIGHT = 640, 360
EVERY_CHANGE = LiveConfig(motion_wait=0.0, region_share=0.0)
"""Every changed frame recognised, the whole view each time."""


@pytest.fixture(scope="module")
def model() -> GlyphModel:
    return GlyphModel.load()


def _lit(scene: np.ndarray, step: int) -> np.ndarray:
    """The scene as a lamp dims it, a little more each step."""
    dimmed = np.clip(scene.astype(np.float32) * (1.0 - 0.03 * step), 0, 255)
    return np.asarray(dimmed, np.uint8)


def _looks(clock: StageClock) -> int:
    return clock.calls.get("second look: masks", 0)


def test_a_card_left_unread_under_a_changing_light_is_looked_at_again_once(
        model: GlyphModel) -> None:
    # A four of clubs, no euchre card, lies in view while the light changes: each frame is
    # read again, and the four stays unread.
    scene = table_background(WIDTH, HEIGHT, seed=4)
    paste_card(scene, plain_card("4", "C"), (250, 180), 150, 10)
    clock = StageClock()
    watcher = TableWatcher(model, default_zones(WIDTH, HEIGHT), stages=clock,
                           live_config=EVERY_CHANGE)
    for step in range(8):
        watcher.process(step * 0.1, _lit(scene, step))
    assert watcher.recognised >= 6
    assert not [o for o in watcher.observations if o.name is not None]
    assert [o for o in watcher.observations if o.reading is None]
    assert _looks(clock) == 1
    # A card laid beside it that the first look leaves unread is new doubt: looked at again.
    beside = scene.copy()
    paste_card(beside, plain_card("5", "S"), (450, 180), 150, -10)
    watcher.process(0.8, _lit(beside, 8))
    assert _looks(clock) == 2
