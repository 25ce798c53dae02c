"""Frame sources on recorded input made here with OpenCV; failures become events, not crashes."""

from __future__ import annotations

import shutil
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from drivers.backoff import Backoff
from drivers.camera import (
    SOURCES,
    CameraSettings,
    FrameSource,
    OpenCVCamera,
    Picamera2Camera,
    RecordedSource,
    ResilientCamera,
    make_source,
    register_source,
)
from drivers.config import hardware_config
from drivers.errors import CameraError, ConfigError, DriverError
from drivers.hardware import open_hardware
from drivers.inputs import CameraFailed, CameraReopened
from drivers.recording import frame_marker, sample_frame, write_images, write_video

from .conftest import FakeClock


def read_all(source: RecordedSource, limit: int = 100) -> list[Any]:
    frames = []
    for _ in range(limit):
        image = source.read()
        if image is None:
            break
        frames.append(image)
    return frames


def test_video_file_reads_back_every_frame(tmp_path: Path) -> None:
    path = write_video(tmp_path / "table.avi", 12, width=160, height=120)
    source = RecordedSource(path)
    source.open()
    frames = read_all(source)
    source.close()
    assert len(frames) == 12
    assert all(frame.shape == (120, 160, 3) and frame.dtype == np.uint8 for frame in frames)
    markers = [frame_marker(frame) for frame in frames]
    assert markers == pytest.approx([(i * 20) % 256 for i in range(12)], abs=6)  # MJPG is lossy


def test_image_folder_reads_back_exactly_and_loops(tmp_path: Path) -> None:
    folder = write_images(tmp_path / "frames", 3)
    (folder / "notes.txt").write_text("not an image")
    source = RecordedSource(folder, loop=True)
    source.open()
    frames = [source.read() for _ in range(7)]
    assert all(frame is not None for frame in frames)
    assert [frame_marker(f) for f in frames if f is not None] == [0, 20, 40, 0, 20, 40, 0]
    assert np.array_equal(frames[1], sample_frame(1))


def test_looping_video_restarts(tmp_path: Path) -> None:
    source = RecordedSource(write_video(tmp_path / "v.avi", 4), loop=True)
    source.open()
    assert len(read_all(source, limit=10)) == 10


def empty_folder(tmp: Path) -> Path:
    (tmp / "empty").mkdir()
    return tmp / "empty"


def bad_video(tmp: Path) -> Path:
    (tmp / "bad.avi").write_bytes(b"not a video")
    return tmp / "bad.avi"


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda tmp: tmp / "missing.avi", "does not exist"),
        (empty_folder, "no images"),
        (bad_video, "cannot read video"),
    ],
)
def test_recorded_source_open_errors(tmp_path: Path, make: Any, message: str) -> None:
    source = RecordedSource(make(tmp_path))
    with pytest.raises(CameraError, match=message) as caught:
        source.open()
    assert isinstance(caught.value, DriverError)
    assert isinstance(caught.value, OSError)


def test_opencv_camera_reads_a_file_and_reports_missing_device(tmp_path: Path) -> None:
    camera = OpenCVCamera(str(write_video(tmp_path / "usb.avi", 3)))
    camera.open()
    assert camera.read().shape == (120, 160, 3)
    camera.close()
    with pytest.raises(CameraError, match="not open"):
        camera.read()
    missing = OpenCVCamera(str(tmp_path / "video99"))
    with pytest.raises(CameraError, match="cannot open camera"):
        missing.open()


def test_resilient_camera_reports_failure_and_reopens_with_backoff(
    tmp_path: Path, clock: FakeClock
) -> None:
    folder = write_images(tmp_path / "cam", 2)
    camera = ResilientCamera(
        RecordedSource(folder, loop=True), clock=clock, backoff=Backoff(0.5, 2.0, 4.0)
    )
    frame, events = camera.read()
    assert frame is not None and frame.index == 0 and events == []
    assert frame.size == (160, 120)
    backup = tmp_path / "unplugged"
    shutil.move(folder, backup)  # the camera goes away mid-stream ...
    folder.mkdir()
    (folder / "frame_0000.png").write_bytes(b"\x89PNG broken")  # ... and comes back broken
    seen: list[object] = []
    frames = 0
    for _ in range(80):  # 8 s
        frame, events = camera.read()
        seen += events
        frames += frame is not None
        clock.advance(0.1)
    assert frames == 0
    assert all(isinstance(event, CameraFailed) for event in seen)
    reasons = [event.reason for event in seen if isinstance(event, CameraFailed)]
    assert reasons == [  # gone, then back with a frame that is skipped (told once)
        f"cannot read image {folder / 'frame_0001.png'}: it is gone",
        f"skipped {folder / 'frame_0000.png'}: not an image (11 bytes)",
    ]
    assert camera.failures == 5  # at 0, 0.5, 1.5, 3.5 and 7.5 s: waits of 0.5, 1, 2, 4 s
    shutil.rmtree(folder)
    shutil.move(backup, folder)  # plugged back in
    for _ in range(50):
        frame, events = camera.read()
        seen += events
        clock.advance(0.1)
        if frame is not None:
            break
    assert frame is not None
    assert seen[2:] == [CameraReopened(f"recorded:{folder}")]


def test_resilient_camera_failure_count_follows_backoff(tmp_path: Path, clock: FakeClock) -> None:
    camera = ResilientCamera(
        RecordedSource(tmp_path / "nothing"), clock=clock, backoff=Backoff(0.5, 2.0, 4.0)
    )
    events = []
    for _ in range(100):  # 10 s
        events += camera.read()[1]
        clock.advance(0.1)
    # attempts at 0, 0.5, 1.5, 3.5, 7.5: five failures, one event
    assert camera.failures == 5
    assert events == [CameraFailed(f"recorded:{tmp_path / 'nothing'}", events[0].reason)]


def test_camera_settings_are_checked() -> None:
    with pytest.raises(ConfigError, match="0x720"):
        CameraSettings(width=0)
    with pytest.raises(ConfigError, match="frame rate 0"):
        CameraSettings(fps=0)


def test_make_source_by_name(tmp_path: Path) -> None:
    settings = CameraSettings(640, 480, 15)
    assert isinstance(make_source("usb", settings, "0"), OpenCVCamera)
    assert make_source("usb", settings, "/dev/video2").name == "opencv:/dev/video2"
    assert isinstance(make_source("picamera2", settings), Picamera2Camera)
    assert isinstance(make_source("recorded", settings, str(tmp_path)), RecordedSource)
    with pytest.raises(ConfigError, match="'webcam': expected usb, picamera2, recorded"):
        make_source("webcam", settings)
    with pytest.raises(ConfigError, match="needs a path"):
        make_source("recorded", settings)


@pytest.fixture
def restored_sources() -> Iterator[None]:
    """The camera sources as they were, once the test is over."""
    saved = dict(SOURCES)
    yield
    SOURCES.clear()
    SOURCES.update(saved)


@pytest.mark.usefixtures("restored_sources")
def test_a_registered_source_is_a_kind_the_config_names_and_the_hardware_opens(
    tmp_path: Path,
) -> None:
    folder = write_images(tmp_path / "f", 3)
    made: list[tuple[str | None, bool]] = []

    def mirrored(settings: CameraSettings, target: str | None, loop: bool) -> FrameSource:
        made.append((target, loop))
        return RecordedSource(Path(str(target)), loop=loop)

    data = {"camera": {"kind": "mirrored", "path": str(folder)}, "signals": {"via": "none"}}
    with pytest.raises(ConfigError, match="'mirrored': expected one of usb, picamera2, recorded"):
        hardware_config(data)
    register_source("mirrored", mirrored)
    config = hardware_config(data)
    with open_hardware(config) as hardware:
        assert hardware.camera is not None and hardware.frame()[0] is not None
    assert made == [(str(folder), False)]  # the table plays a recording once
    for kind in ("", "none"):
        with pytest.raises(ValueError, match="other than 'none'"):
            register_source(kind, mirrored)


def test_picamera2_missing_is_a_camera_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)
    with pytest.raises(CameraError, match="python3-picamera2"):
        Picamera2Camera().open()


def test_picamera2_built_for_another_numpy_is_a_camera_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A picamera2 whose compiled parts expect another numpy fails at import with ValueError."""
    package = tmp_path / "picamera2"
    package.mkdir()
    (package / "__init__.py").write_text(
        "raise ValueError('numpy.dtype size changed, may indicate binary incompatibility. "
        "Expected 96 from C header, got 88 from PyObject')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    with pytest.raises(CameraError, match=r"built against the system numpy") as caught:
        Picamera2Camera().open()
    assert "numpy.dtype size changed" in str(caught.value)


class _Request:
    def __init__(self, image: Any) -> None:
        self.image = image

    def __enter__(self) -> _Request:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def make_array(self, stream: str) -> Any:
        assert stream == "main"
        return self.image


def test_picamera2_configuration_and_bgr_frames(monkeypatch: pytest.MonkeyPatch) -> None:
    """picamera2 cannot run here; a stand-in module records what the source asks of it."""
    calls: dict[str, Any] = {}

    class StandIn:
        def __init__(self, num: int) -> None:
            calls["num"] = num

        def create_video_configuration(self, **kwargs: Any) -> dict[str, Any]:
            return kwargs

        def configure(self, config: dict[str, Any]) -> None:
            calls["config"] = config

        def start(self) -> None:
            calls["started"] = True

        def captured_request(self) -> _Request:
            return _Request(sample_frame(3, 64, 48))

        def stop(self) -> None:
            calls["stopped"] = True

        def close(self) -> None:
            calls["closed"] = True

    module = types.ModuleType("picamera2")
    module.Picamera2 = StandIn  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    settings = CameraSettings(64, 48, 20, exposure_us=8000, analogue_gain=2.0, lens_position=1.5)
    camera = Picamera2Camera(settings, camera_num=1)
    camera.open()
    image = camera.read()
    camera.close()
    assert calls["num"] == 1
    assert calls["config"] == {
        "main": {"size": (64, 48), "format": "RGB888"},
        "controls": {
            "FrameRate": 20,
            "AeEnable": False,
            "ExposureTime": 8000,
            "AnalogueGain": 2.0,
            "AfMode": 0,
            "LensPosition": 1.5,
        },
    }
    assert calls["stopped"] and calls["closed"]
    assert frame_marker(image) == 60
