"""The watcher learns the card length from the cards it reads and recognises knowing it."""

from __future__ import annotations

import numpy as np

from tools.scenes import paste_card, plain_card, table_background
from vision.live import LiveConfig, TableWatcher
from vision.model import GlyphModel
from vision.zones import default_zones

WIDTH, HEIGHT = 1280, 720


def _table(cards: list[tuple[str, tuple[float, float], float]], width: int = WIDTH,
           height: int = HEIGHT) -> np.ndarray:
    scene = table_background(width, height, seed=6)
    for name, centre, angle in cards:
        paste_card(scene, plain_card(name[0], name[1]), centre, 110, angle)
    return scene


def _watch(watcher: TableWatcher, scene: np.ndarray, start: float = 0.0) -> set[str | None]:
    return {e.card for i in range(12) for e in watcher.process(start + i * 0.1, scene)}


def test_the_card_length_is_learned_from_the_cards_read() -> None:
    watcher = TableWatcher(GlyphModel.load(), default_zones(WIDTH, HEIGHT))
    assert _watch(watcher, _table([])) == set()
    assert watcher.card_length is None
    assert watcher.sized_config().card_length is None
    assert _watch(watcher, _table([("KS", (640.0, 250.0), 10.0)]), 2.0) == {"KS"}
    assert watcher.card_length is not None and abs(watcher.card_length - 110) < 6
    assert watcher.sized_config().card_length == watcher.card_length


def test_another_frame_size_forgets_the_card_length() -> None:
    watcher = TableWatcher(GlyphModel.load(), default_zones(WIDTH, HEIGHT))
    _watch(watcher, _table([("KS", (640.0, 250.0), 10.0)]))
    assert watcher.card_length is not None
    _watch(watcher, _table([], 960, 540), 2.0)
    assert watcher.card_length is None


def test_no_length_is_learned_when_turned_off() -> None:
    watcher = TableWatcher(GlyphModel.load(), default_zones(WIDTH, HEIGHT),
                           live_config=LiveConfig(card_lengths=0))
    assert _watch(watcher, _table([("KS", (640.0, 250.0), 10.0)])) == {"KS"}
    assert watcher.card_length is None
    assert watcher.sized_config() == watcher.vision_config


def test_a_camera_come_nearer_is_learned_again() -> None:
    watcher = TableWatcher(GlyphModel.load(), default_zones(WIDTH, HEIGHT))
    _watch(watcher, _table([("KS", (640.0, 250.0), 10.0)]))
    assert watcher.card_length is not None and watcher.card_length < 120
    # The camera comes nearer, shaking: the card is three times as long, too long for the
    # length learned to be read as a card at first; fitted to its own edges (`outline_fit`),
    # it is named whole, and the length follows.
    near = [table_background(WIDTH, HEIGHT, seed=6) for _ in range(2)]
    for scene, angle in zip(near, (10.0, 20.0), strict=True):
        paste_card(scene, plain_card("K", "S"), (640.0, 360.0), 330, angle)
    for i in range(30):
        watcher.process(2.0 + i * 0.1, near[i % 2])
    # It comes to rest (a view read while it moves has no second look).
    for i in range(10):
        watcher.process(5.0 + i * 0.1, near[0])
    assert watcher.card_length is not None and abs(watcher.card_length - 330) < 15
