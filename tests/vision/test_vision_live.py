"""The frame loop's helpers: even lighting, the bare-table test, the play-area crop, reuse."""

from __future__ import annotations

import cv2
import numpy as np

from tools.scenes import paste_card, plain_card, table_background
from vision.live import (
    BareTable,
    LiveConfig,
    TableWatcher,
    crop_box,
    draw_zones,
    even_lighting,
    on_border,
)
from vision.model import GlyphModel
from vision.tracker import TrackerConfig
from vision.zones import default_zones

WIDTH, HEIGHT = 640, 360


def shaded_scene() -> np.ndarray:
    """A table with a card, darkened to 45% on its left side."""
    scene = table_background(WIDTH, HEIGHT, seed=4)
    paste_card(scene, plain_card("A", (20, 20, 200)), (160, 180), 120, 5)
    shade = np.ones((HEIGHT, WIDTH), np.float32)
    shade[:, : WIDTH // 2] = 0.45
    shade = cv2.GaussianBlur(shade, (0, 0), 25)
    return (scene * shade[:, :, None]).astype(np.uint8)


def test_even_lighting_removes_a_shadow_but_keeps_the_card() -> None:
    shaded = shaded_scene()
    evened = even_lighting(shaded, LiveConfig())
    grey = cv2.cvtColor(evened, cv2.COLOR_BGR2GRAY).astype(float)
    before = cv2.cvtColor(shaded, cv2.COLOR_BGR2GRAY).astype(float)
    table_left, table_right = grey[20:60, 20:100].mean(), grey[20:60, 540:620].mean()
    assert abs(table_left - table_right) < 0.3 * abs(before[20:60, 20:100].mean()
                                                     - before[20:60, 540:620].mean())
    assert grey[170:190, 150:170].mean() > 2 * table_left


def test_bare_table_tells_a_card_or_a_hand_from_bare_felt() -> None:
    scene = table_background(WIDTH, HEIGHT, seed=4)
    paste_card(scene, plain_card("K", (20, 20, 20)), (160, 180), 120, 0)
    cv2.circle(scene, (480, 180), 60, (120, 150, 205), -1)
    bare = BareTable(scene, (0, 0), LiveConfig())

    def square(x: float, y: float) -> np.ndarray:
        return np.array([[x - 30, y - 40], [x + 30, y - 40], [x + 30, y + 40], [x - 30, y + 40]],
                        np.float32)

    assert bare.is_bare(square(320, 180))
    assert not bare.is_bare(square(160, 180))
    assert not bare.is_bare(square(480, 180))


def test_crop_box_grows_the_play_area_and_stays_in_the_frame() -> None:
    zones = default_zones(WIDTH, HEIGHT, margin=0.01)
    assert crop_box(zones, WIDTH, HEIGHT) == (0, 0, WIDTH, HEIGHT)
    x0, y0, x1, y1 = crop_box(default_zones(WIDTH, HEIGHT, margin=0.2), WIDTH, HEIGHT)
    assert 0 < x0 < 128 and 0 < y0 < 72 and 512 < x1 < WIDTH and 288 < y1 < HEIGHT


def test_a_still_view_is_recognised_again_only_while_a_card_settles() -> None:
    scene = table_background(WIDTH, HEIGHT, seed=4)
    paste_card(scene, plain_card("Q", (20, 20, 20)), (320, 100), 110, 0)
    watcher = TableWatcher(GlyphModel.load(), default_zones(WIDTH, HEIGHT))
    events = [e for i in range(12) for e in watcher.process(i * 0.1, scene)]
    (event,) = events
    assert event.card in (None, "QS", "QC")
    config = TrackerConfig()
    settle = config.stable_time if event.card else config.unread_stable_time
    assert (event.seat, round(event.t, 1)) == ("N", settle)
    assert watcher.frames == 12
    assert watcher.recognised == round(settle / 0.1) + 1


def test_draw_zones_marks_the_seats_and_the_cards() -> None:
    scene = table_background(WIDTH, HEIGHT, seed=4)
    zones = default_zones(WIDTH, HEIGHT)
    drawn = draw_zones(scene, zones, [])
    assert drawn.shape == scene.shape
    assert (cv2.absdiff(drawn, scene).max(axis=2) > 30).mean() > 0.01


def test_an_outline_with_a_side_on_the_view_border_is_on_the_border() -> None:
    def box(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
        return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)

    assert on_border(box(500, 0, 600, 140), WIDTH, HEIGHT, 3.0)
    assert on_border(box(540, 100, 639, 240), WIDTH, HEIGHT, 3.0)
    assert on_border(box(1, 100, 101, 240), WIDTH, HEIGHT, 3.0)
    assert on_border(box(200, 219, 300, 358), WIDTH, HEIGHT, 3.0)
    assert not on_border(box(200, 100, 300, 240), WIDTH, HEIGHT, 3.0)
    assert not on_border(box(10, 10, 110, 150), WIDTH, HEIGHT, 3.0)
    tilted = np.array([[0, 100], [80, 60], [150, 200], [70, 240]], np.float32)
    assert not on_border(tilted, WIDTH, HEIGHT, 3.0)


def test_a_blank_patch_cut_by_the_view_border_is_not_followed_as_a_card() -> None:
    def events_with_patch(x0: int, y0: int) -> list[str]:
        watcher = TableWatcher(GlyphModel.load(), default_zones(WIDTH, HEIGHT, margin=0.0))
        scene = table_background(WIDTH, HEIGHT, seed=4)
        cv2.rectangle(scene, (x0, y0), (x0 + 90, y0 + 130), (235, 235, 235), -1)
        frame = np.asarray(scene, np.uint8)
        return [e.kind.value for t in range(8) for e in watcher.process(t * 0.1, frame)]

    assert events_with_patch(260, 110) == ["unreadable"]
    assert events_with_patch(WIDTH - 91, 0) == []
    assert events_with_patch(0, HEIGHT - 131) == []


def sliding_card(steps: int, still: int) -> list[np.ndarray]:
    """Frames of a card sliding into the north seat for `steps` frames, then lying still."""
    frames = []
    for step in range(steps + still):
        scene = table_background(WIDTH, HEIGHT, seed=4)
        x = 200 + 30 * min(step, steps)
        paste_card(scene, plain_card("Q", (20, 20, 20)), (x, 100), 110, 0)
        frames.append(scene)
    return frames


def test_a_moving_view_is_recognised_less_and_at_once_when_it_lies_still() -> None:
    """A card sliding in is read once it lies still; while the view moves the last
    recognition is reused, for up to `motion_wait` seconds (0: every changed frame is read)."""
    frames = sliding_card(steps=8, still=12)
    moving = {}
    for wait in (0.0, 0.5, 10.0):
        watcher = TableWatcher(GlyphModel.load(), default_zones(WIDTH, HEIGHT),
                               live_config=LiveConfig(motion_wait=wait))
        events = [event for i, frame in enumerate(frames[:9])
                  for event in watcher.process(i * 0.1, frame)]
        moving[wait] = watcher.recognised
        events += watcher.process(0.9, frames[9])
        assert watcher.recognised == moving[wait] + 1  # still at last: read at once
        events += [event for i, frame in enumerate(frames[10:], start=10)
                   for event in watcher.process(i * 0.1, frame)]
        (event,) = events
        assert event.seat == "N" and event.card in (None, "QS", "QC")
    assert moving[0.0] == 9 > moving[0.5] >= moving[10.0]
