"""All devices opened from one config, on fake pins, a fake panel and a recording."""

from __future__ import annotations

from pathlib import Path

from gpiozero.pins.mock import MockFactory

from drivers.config import hardware_config
from drivers.fake_panel import LoopPanel
from drivers.hardware import open_hardware
from drivers.inputs import (
    BidPressed,
    CameraFailed,
    ConfirmPressed,
    PanelConnected,
    PassPressed,
)
from drivers.outputs import NullOutputs, PanelOutputs
from drivers.recording import write_video

from .conftest import FakeClock


def test_open_hardware_polls_buttons_panel_and_camera(
    tmp_path: Path, mock_factory: MockFactory, clock: FakeClock
) -> None:
    write_video(tmp_path / "cam.avi", 5)
    config = hardware_config(
        {
            "buttons": {"pins": {"PASS": 17}, "seats": {"E": {"OK": 27}}},
            "panel": {"port": "loop://"},
            "camera": {"kind": "recorded", "path": "cam.avi", "width": 160, "height": 120},
            "signals": {"via": "panel"},
        },
        base=tmp_path,
    )
    fake = LoopPanel()
    with open_hardware(config, pin_factory=mock_factory, open_port=fake.open, clock=clock) as hw:
        assert isinstance(hw.outputs, PanelOutputs)
        pin = mock_factory.pin(17)
        pin.drive_low()
        clock.advance(0.1)
        pin.drive_high()
        clock.advance(0.1)
        events = hw.inputs() + hw.inputs()
        fake.press("4")
        seat_ok = mock_factory.pin(27)
        seat_ok.drive_low()
        clock.advance(0.1)
        events += hw.inputs()
        assert events == [
            PassPressed(None),
            PanelConnected("loop://", "2.0.0", 2, None),
            ConfirmPressed("E"),
            BidPressed(None, 4),
        ]
        frame, status = hw.frame()
        assert frame is not None and frame.size == (160, 120) and status == []
        hw.outputs.turn_light("E")
        assert fake.lights["E"]


def test_missing_camera_is_an_event_not_a_crash(tmp_path: Path, clock: FakeClock) -> None:
    (tmp_path / "gone.avi").write_bytes(b"")
    config = hardware_config({"camera": {"kind": "recorded", "path": "gone.avi"}}, base=tmp_path)
    (tmp_path / "gone.avi").unlink()  # the recording vanishes after the config was read
    with open_hardware(config, clock=clock) as hw:
        assert isinstance(hw.outputs, NullOutputs)
        assert hw.inputs() == []
        frame, events = hw.frame()
        assert frame is None
        assert [type(e) for e in events] == [CameraFailed]
