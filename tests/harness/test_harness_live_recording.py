"""A recording played as a live camera: frames due on the wall clock, late ones dropped."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from drivers.camera import RUNS_OUT, CameraSettings, make_source
from drivers.clock import ManualClock
from drivers.errors import CameraError
from tests.harness.live_recording import KIND, LiveRecording, register_live_recordings


def frames(folder: Path, count: int) -> Path:
    """A folder of `count` frames, each filled with its own number."""
    folder.mkdir()
    for number in range(count):
        cv2.imwrite(str(folder / f"frame_{number:04d}.png"), np.full((8, 8, 3), number, np.uint8))
    return folder


class Camera:
    """A live recording at 10 fps on a hand-moved clock, whose waits move the clock."""

    def __init__(self, folder: Path, stats: Path | None = None) -> None:
        self.clock = ManualClock()
        self.source = LiveRecording(folder, 10.0, stats, clock=self.clock, sleep=self.wait)
        self.waited: list[float] = []
        self.source.open()

    def wait(self, seconds: float) -> None:
        self.waited.append(round(seconds, 6))
        self.clock.now += seconds

    def read(self) -> int | None:
        image = self.source.read()
        return None if image is None else int(image[0, 0, 0])


def test_a_reader_that_keeps_up_waits_for_each_frame(tmp_path: Path) -> None:
    camera = Camera(frames(tmp_path / "rec", 4))
    assert [camera.read() for _ in range(5)] == [0, 1, 2, 3, None]
    assert camera.waited == [0.1, 0.1, 0.1, 0.1]
    assert camera.source.dropped == 0


def test_a_slow_reader_gets_the_frame_due_now_and_the_missed_ones_are_dropped(
        tmp_path: Path) -> None:
    camera = Camera(frames(tmp_path / "rec", 10))
    assert camera.read() == 0
    camera.clock.now += 0.35  # the table took 0.35 s over frame 0
    assert camera.read() == 3
    camera.clock.now += 0.05
    assert camera.read() == 4  # waited for it
    camera.clock.now += 2.0
    assert camera.read() is None  # frames 5 to 9 went by unread
    assert camera.source.dropped == 7
    assert camera.source.read_count == 3


def test_its_figures_are_kept_for_the_benchmark(tmp_path: Path) -> None:
    stats = tmp_path / "camera.json"
    camera = Camera(frames(tmp_path / "rec", 3), stats)
    camera.read()
    assert json.loads(stats.read_text())["ended"] is False
    camera.clock.now += 1.0
    assert camera.read() is None
    figures = json.loads(stats.read_text())
    assert (figures["read"], figures["dropped"], figures["frames"], figures["ended"]) == (
        1, 2, 3, True)


def test_a_folder_without_frames_is_refused(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(CameraError, match="no frames"):
        LiveRecording(tmp_path / "empty", 10.0).open()
    with pytest.raises(CameraError, match="not a folder"):
        LiveRecording(tmp_path / "missing", 10.0).open()


def test_registered_it_is_a_camera_kind_that_runs_out(tmp_path: Path) -> None:
    register_live_recordings(None)
    try:
        source = make_source(KIND, CameraSettings(fps=10.0), str(frames(tmp_path / "rec", 2)))
        assert isinstance(source, LiveRecording)
        assert KIND in RUNS_OUT
    finally:
        from drivers.camera import SOURCES

        SOURCES.pop(KIND, None)
        RUNS_OUT.discard(KIND)
