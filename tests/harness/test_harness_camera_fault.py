"""The camera fault asked for on purpose: a recorded source that raises or hangs at frame N,
registered as the recorded camera only by the harness, never by the table itself."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from drivers.camera import SOURCES, CameraSettings, RecordedSource, make_source
from drivers.config import HardwareConfig
from drivers.errors import ConfigError
from drivers.hardware import open_hardware
from drivers.recording import frame_marker, write_images
from tests.harness.camera_fault import (
    CameraFault,
    FaultyRecording,
    InjectedCameraFault,
    parse_fault,
    register_faulty_recordings,
)

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def restored_sources() -> Iterator[None]:
    """The camera sources as they were, once the test is over."""
    saved = dict(SOURCES)
    yield
    SOURCES.clear()
    SOURCES.update(saved)


@pytest.mark.parametrize(
    ("text", "fault"),
    [("raise:20", CameraFault("raise", 20, 1)), ("raise:5:3", CameraFault("raise", 5, 3)),
     ("hang:7", CameraFault("hang", 7)), ("hang:1:2.5", CameraFault("hang", 1, seconds=2.5)),
     (" raise:1 ", CameraFault("raise", 1, 1))],
)
def test_the_fault_is_read_from_its_spelling(text: str, fault: CameraFault) -> None:
    assert parse_fault(text) == fault
    assert parse_fault(fault.text) == fault


@pytest.mark.parametrize(
    "text", ["", "raise", "raise:", "raise:0", "raise:x", "raise:2:0", "raise:2:x", "hang:3:0",
             "hang:3:-1", "hang:3:soon", "crash:3", "raise:1:2:3", "hang:-2"],
)
def test_a_misspelt_fault_is_a_config_error_naming_it(text: str) -> None:
    with pytest.raises(ConfigError, match=f"camera fault {text!r}: expected raise:N"):
        parse_fault(text)


@pytest.mark.parametrize(
    ("every", "times", "expected"),
    [(1, 1, [1]), (3, 2, [3, 6]), (4, 5, [4, 8, 12, 16]), (10, 1, [10])],
)  # 12 frames: (4, 5) runs out of frames before its fifth raise
def test_a_raise_comes_at_every_nth_read_as_often_as_asked_and_loses_no_frame(
    tmp_path: Path, every: int, times: int, expected: list[int]
) -> None:
    source = FaultyRecording(RecordedSource(write_images(tmp_path / "f", 12)),
                             CameraFault("raise", every, times))
    source.open()
    markers, raised = [], []
    for read in range(1, 60):
        try:
            image = source.read()
        except InjectedCameraFault as error:
            raised.append(read)
            assert f"camera fault raise:{every}:{times} at frame read {read}" in str(error)
            continue
        if image is None:
            break
        markers.append(frame_marker(image))
    assert raised == expected
    assert markers == [(i * 20) % 256 for i in range(12)]


@pytest.mark.parametrize("seconds", [None, 3.0])
def test_a_hang_blocks_the_nth_read_once(tmp_path: Path, seconds: float | None) -> None:
    waits: list[float | None] = []
    source = FaultyRecording(RecordedSource(write_images(tmp_path / "f", 6)),
                             CameraFault("hang", 2, seconds=seconds), wait=waits.append)
    source.open()
    images = [source.read() for _ in range(7)]
    assert waits == [seconds]  # the second read hung, once
    assert sum(image is not None for image in images) == 6


@pytest.mark.usefixtures("restored_sources")
def test_only_a_recorded_camera_fails_and_only_once_the_harness_registers_it(
    tmp_path: Path,
) -> None:
    folder = write_images(tmp_path / "f", 4)
    config = HardwareConfig(pin_map=None, camera_kind="recorded", camera_target=str(folder),
                            outputs="none")
    with open_hardware(config) as plain:
        assert plain.camera is not None and isinstance(plain.camera.source, RecordedSource)
    register_faulty_recordings(CameraFault("raise", 2))
    with open_hardware(config) as faulty:
        assert faulty.camera is not None
        assert isinstance(faulty.camera.source, FaultyRecording)
        assert faulty.frame()[0] is not None
        with pytest.raises(InjectedCameraFault):  # not a CameraError: the thread dies of it
            faulty.frame()
    assert not isinstance(make_source("usb", CameraSettings(), "0"), FaultyRecording)
    with pytest.raises(ConfigError, match="needs a path"):
        make_source("recorded", CameraSettings())


def _entry(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tests.harness.camera_fault", *args],
        capture_output=True, text=True, cwd=REPO, timeout=120, check=False,
    )


def test_the_entry_runs_the_table_s_command_line_with_the_fault_registered() -> None:
    result = _entry("raise:20:3", "--version")
    assert (result.returncode, result.stdout.strip()) == (0, "cardtable 0.1.0"), result.stderr


@pytest.mark.parametrize(("args", "said"), [(("explode", "--version"), "camera fault 'explode'"),
                                            ((), "expected FAULT")])
def test_the_entry_refuses_a_misspelt_or_missing_fault_with_exit_2(
    args: tuple[str, ...], said: str
) -> None:
    result = _entry(*args)
    assert result.returncode == 2 and said in result.stderr
    assert "Traceback" not in result.stderr
