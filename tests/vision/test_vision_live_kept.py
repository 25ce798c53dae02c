"""The frame loop keeps the cards the tracker has named while their part of the view is still,
and holds recognition to one thread."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tools.scenes import paste_card, table_background
from tools.synthetic import artwork_cards
from vision.live import LiveConfig, TableWatcher
from vision.model import GlyphModel
from vision.pipeline import StageClock
from vision.threads import one_thread
from vision.zones import default_zones

WIDTH, HEIGHT = 640, 360
ARTWORK = Path(__file__).resolve().parents[2] / "vision" / "data" / "artwork"
EVERY_CHANGE = LiveConfig(motion_wait=0.0)
"""Every changed frame recognised, a hand coming in included: these tests judge what is kept."""


@pytest.fixture(scope="module")
def model() -> GlyphModel:
    return GlyphModel.load()


def _scene(name: str) -> np.ndarray:
    scene = table_background(WIDTH, HEIGHT, seed=4)
    paste_card(scene, dict(artwork_cards(ARTWORK))[name], (320, 100), 150, 0)
    return scene


def _with_a_hand(scene: np.ndarray, step: int) -> np.ndarray:
    """The scene with a dark hand-sized blob at the bottom right, moving with `step`."""
    out = scene.copy()
    cv2.circle(out, (520 - 8 * step, 290), 40, (60, 80, 120), -1)
    return out


@pytest.mark.parametrize("name", ["KS", "AH", "TH"])
def test_a_named_card_lying_still_is_not_read_again(model: GlyphModel, name: str) -> None:
    scene = _scene(name)
    clock = StageClock()
    watcher = TableWatcher(model, default_zones(WIDTH, HEIGHT), stages=clock,
                           live_config=EVERY_CHANGE)
    events = [e for i in range(6) for e in watcher.process(i * 0.1, scene)]
    assert [(e.kind.value, e.card) for e in events] == [("placed", name)]
    (named,) = [o for o in watcher.observations if o.name == name]
    reads = clock.calls["read outlines"]
    # A hand comes in elsewhere in the view: the view is recognised again, the card kept.
    assert watcher.process(0.6, _with_a_hand(scene, 0)) == []
    assert clock.calls["read outlines"] == reads + 1
    assert any(o is named for o in watcher.observations)


@pytest.mark.parametrize("name", ["KS", "AH"])
def test_without_keeping_a_named_card_is_read_on_every_change(model: GlyphModel,
                                                               name: str) -> None:
    scene = _scene(name)
    watcher = TableWatcher(model, default_zones(WIDTH, HEIGHT),
                           live_config=replace(EVERY_CHANGE, keep_named=False))
    for i in range(6):
        watcher.process(i * 0.1, scene)
    (named,) = [o for o in watcher.observations if o.name == name]
    watcher.process(0.6, _with_a_hand(scene, 6))
    assert [o.name for o in watcher.observations if o.whole].count(name) == 1
    assert not any(o is named for o in watcher.observations)


def test_a_card_moved_where_the_view_changed_is_read_again(model: GlyphModel) -> None:
    scene = _scene("KS")
    watcher = TableWatcher(model, default_zones(WIDTH, HEIGHT), live_config=EVERY_CHANGE)
    for i in range(6):
        watcher.process(i * 0.1, scene)
    (named,) = [o for o in watcher.observations if o.name == "KS"]
    moved = table_background(WIDTH, HEIGHT, seed=4)
    paste_card(moved, dict(artwork_cards(ARTWORK))["KS"], (300, 110), 150, 8)
    watcher.process(0.6, np.asarray(moved, np.uint8))
    assert not any(o is named for o in watcher.observations)


def test_one_thread_holds_opencv_to_one_thread() -> None:
    cv2.setNumThreads(2)
    told = one_thread()
    assert cv2.getNumThreads() == 1
    assert told >= 0


def test_a_card_named_from_one_end_keeps_the_frame_in_doubt_while_it_lies_still(
        model: GlyphModel) -> None:
    scene = _scene("KS")
    clock = StageClock()
    # The whole view is read (a part of it keeps the cards outside as they were).
    watcher = TableWatcher(model, default_zones(WIDTH, HEIGHT), stages=clock,
                           live_config=replace(EVERY_CHANGE, region_share=0.0))
    for i in range(6):
        watcher.process(i * 0.1, scene)
    # The card lying still was named from one end (its other end under something unread).
    watcher.observations = [replace(o, one_end=True) if o.name == "KS" else o
                            for o in watcher.observations]
    (named,) = [o for o in watcher.observations if o.name == "KS"]
    looks = clock.calls.get("second look: masks", 0)
    watcher.process(0.6, _with_a_hand(scene, 0))
    assert any(o is named for o in watcher.observations)
    assert clock.calls.get("second look: masks", 0) == looks + 1


def test_a_card_named_whole_lying_still_asks_for_no_second_look(model: GlyphModel) -> None:
    scene = _scene("KS")
    clock = StageClock()
    watcher = TableWatcher(model, default_zones(WIDTH, HEIGHT), stages=clock,
                           live_config=EVERY_CHANGE)
    for i in range(6):
        watcher.process(i * 0.1, scene)
    looks = clock.calls.get("second look: masks", 0)
    watcher.process(0.6, _with_a_hand(scene, 0))
    assert clock.calls.get("second look: masks", 0) == looks


def test_a_view_read_while_it_moves_leaves_the_second_look_until_it_lies_still(
        model: GlyphModel) -> None:
    scene = _scene("KS")
    clock = StageClock()
    watcher = TableWatcher(model, default_zones(WIDTH, HEIGHT), stages=clock,
                           live_config=LiveConfig(region_share=0.0))
    for i in range(6):
        watcher.process(i * 0.1, scene)
    # The card lying still was named from one end: the frame is in doubt while it lies there.
    watcher.observations = [replace(o, one_end=True) if o.name == "KS" else o
                            for o in watcher.observations]
    reads, looks = watcher.recognised, clock.calls.get("second look: masks", 0)
    # A hand moves in the view for a second: the view is read as the motion wait runs out,
    # without a second look.
    for i in range(10):
        watcher.process(0.6 + i * 0.1, _with_a_hand(scene, 4 * i))
    assert watcher.recognised > reads
    assert clock.calls.get("second look: masks", 0) == looks
    # The hand lies still: the view is read with it.
    watcher.process(1.6, _with_a_hand(scene, 36))
    assert clock.calls.get("second look: masks", 0) == looks + 1


def test_a_part_left_in_doubt_while_the_view_moved_is_read_again_once_it_lies_still(
        model: GlyphModel) -> None:
    scene = _scene("KS")
    clock = StageClock()
    # The motion wait is shorter than a frame: every frame that moves is read.
    watcher = TableWatcher(model, default_zones(WIDTH, HEIGHT), stages=clock,
                           live_config=LiveConfig(region_share=0.0, motion_wait=0.05))
    for i in range(6):
        watcher.process(i * 0.1, scene)
    watcher.observations = [replace(o, one_end=True) if o.name == "KS" else o
                            for o in watcher.observations]
    looks = clock.calls.get("second look: masks", 0)
    # The hand moves for a second and stops: the last frame it moved in is read, without a
    # second look.
    for i in range(10):
        reads = watcher.recognised
        watcher.process(0.6 + i * 0.1, _with_a_hand(scene, 4 * i))
    assert watcher.recognised == reads + 1
    assert clock.calls.get("second look: masks", 0) == looks
    # Nothing changes after it: the part left in doubt is read again, once, with it.
    for i in range(5):
        watcher.process(1.6 + i * 0.1, _with_a_hand(scene, 36))
    assert watcher.recognised == reads + 2
    assert clock.calls.get("second look: masks", 0) == looks + 1

