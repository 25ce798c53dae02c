"""A bad frame in a recording is reported with its file, skipped, and the recording goes on."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.camera_feed import CameraItem, watch
from app.config import AppConfig
from app.controller import TableController
from app.journal import Journal
from app.run import TableApp
from drivers import inputs
from drivers.backoff import Backoff
from drivers.camera import Image, RecordedSource, ResilientCamera
from drivers.clock import ManualClock
from drivers.recording import damage_video_frame, frame_marker, write_images, write_video
from table import Rules
from vision.tracker import CardEvent

FPS = 10.0


class MarkerWatcher:
    """Stands in for recognition: notes which recorded frame (by its marker) it was shown."""

    def __init__(self) -> None:
        self.seen: list[int] = []

    def process(self, t: float, frame: Image) -> list[CardEvent]:
        self.seen.append(frame_marker(frame))
        return []


def play(source: RecordedSource) -> tuple[list[int], list[CameraItem]]:
    """Run the camera feed over a recording to its end: frames recognised, status events."""
    clock = ManualClock(0.0)
    camera = ResilientCamera(source, clock=clock, backoff=Backoff(0.5, 2.0, 2.0))
    watcher = MarkerWatcher()
    items = list(watch(camera.read, watcher, lambda: clock() < 600, recorded_fps=FPS,
                       idle_s=0.1, sleep=clock.advance, ended=lambda: camera.ended))
    assert clock() < 600, "the recording never ended"
    return watcher.seen, [item for item in items if item is not None]


@pytest.mark.parametrize(
    ("bad", "content"),
    [({1}, b""), ({2}, b"\x89PNG\r\n\x1a\n garbage"), ({0, 4}, b"\xff\xd8 not a jpeg"),
     ({1, 2, 3}, b""), ({5}, b"GIF89a")],
)
def test_a_bad_image_is_named_skipped_and_the_folder_goes_on(
    tmp_path: Path, bad: set[int], content: bytes
) -> None:
    why = f"not an image ({len(content)} bytes)" if content else "an empty file (0 bytes)"
    folder = write_images(tmp_path / "frames", 6)
    for index in bad:
        (folder / f"frame_{index:04d}.png").write_bytes(content)
    seen, status = play(RecordedSource(folder))
    assert seen == [(i * 20) % 256 for i in range(6) if i not in bad]
    failed = [item for item in status if isinstance(item, inputs.CameraFailed)]
    assert [item.reason for item in failed] == [
        f"skipped {folder / f'frame_{index:04d}.png'}: {why}" for index in sorted(bad)
    ]
    assert isinstance(status[-1], inputs.CameraReopened) or max(bad) == 5


@pytest.mark.parametrize("bad", [1, 5, 10])
def test_a_frame_of_a_video_that_does_not_decode_is_skipped(tmp_path: Path, bad: int) -> None:
    video = damage_video_frame(write_video(tmp_path / "table.avi", 12), bad)
    seen, status = play(RecordedSource(video))
    expected = [(i * 20) % 256 for i in range(12) if i != bad]
    assert seen == pytest.approx(expected, abs=6)  # MJPG is lossy
    assert [item.reason for item in status if isinstance(item, inputs.CameraFailed)] == [
        f"skipped frame {bad} of {video}: it does not decode"
    ]


def test_the_table_logs_the_skipped_file_and_shows_the_camera_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = write_images(tmp_path / "frames", 3)
    (folder / "frame_0001.png").write_bytes(b"")
    _, status = play(RecordedSource(folder))
    with Journal(tmp_path / "journal.sqlite") as journal:
        app = TableApp(AppConfig(state_dir=tmp_path), TableController(journal, Rules()))
        for item in status[:1]:
            app.handle(item)
        assert "skipped" in app.devices_down["camera"]
        assert f"camera: skipped {folder / 'frame_0001.png'}" in capsys.readouterr().err
        for item in status[1:]:
            app.handle(item)
        assert app.devices_down == {}


@pytest.mark.parametrize(("runs_out", "ends"), [(True, True), (False, False)])
def test_a_live_source_ends_the_feed_only_where_it_runs_out(
        tmp_path: Path, runs_out: bool, ends: bool) -> None:
    source = RecordedSource(write_images(tmp_path / "frames", 3))
    clock = ManualClock(0.0)
    camera = ResilientCamera(source, clock=clock)
    watcher = MarkerWatcher()
    items = watch(camera.read, watcher, lambda: clock() < 60, idle_s=0.5, sleep=clock.advance,
                  ended=lambda: camera.ended, runs_out=runs_out)
    for _ in items:
        pass
    assert len(watcher.seen) == 3
    assert (clock() < 60) is ends  # a camera that does not run out is watched until stopped
