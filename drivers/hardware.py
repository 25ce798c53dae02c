"""Everything configured, opened together: buttons, serial panel, camera and outputs."""

from __future__ import annotations

import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

from drivers.buttons import ButtonPanel, make_pin_factory
from drivers.camera import Frame, ResilientCamera, make_source
from drivers.config import HardwareConfig
from drivers.inputs import DriverEvent
from drivers.outputs import GpioOutputs, NullOutputs, Outputs, PanelOutputs
from drivers.panel_link import PanelLink, SerialPort, open_serial


class Hardware:
    """The table's devices; the app polls `inputs()` and `frame()` from its loop."""

    def __init__(
        self,
        buttons: ButtonPanel | None,
        panel: PanelLink | None,
        camera: ResilientCamera | None,
        outputs: Outputs,
    ) -> None:
        self.buttons = buttons
        self.panel = panel
        self.camera = camera
        self.outputs = outputs

    def inputs(self) -> list[DriverEvent]:
        """Presses and status events from the buttons and the panel since the last call."""
        events: list[DriverEvent] = []
        if self.buttons is not None:
            events += self.buttons.poll()
        if self.panel is not None:
            events += self.panel.poll()
        return events

    def frame(self) -> tuple[Frame | None, list[DriverEvent]]:
        """The next camera frame (None if there is none now) and camera status events."""
        if self.camera is None:
            return None, []
        return self.camera.read()

    def close(self) -> None:
        """Put the lights out and release every device."""
        self.outputs.close()
        if self.buttons is not None:
            self.buttons.close()
        if self.panel is not None:
            self.panel.close()
        if self.camera is not None:
            self.camera.close()

    def __enter__(self) -> Hardware:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def open_hardware(
    config: HardwareConfig,
    *,
    pin_factory: Any = None,
    open_port: Callable[[str], SerialPort] = open_serial,
    clock: Callable[[], float] = time.monotonic,
) -> Hardware:
    """Open what the config names; absent parts are left out (outputs become no-ops)."""
    factory = pin_factory
    if factory is None and config.pin_map is not None:
        factory = make_pin_factory(config.pin_factory)
    buttons = None
    if config.pin_map is not None:
        buttons = ButtonPanel(config.pin_map, factory, clock=clock)
    panel = None
    if config.panel_port is not None:
        panel = PanelLink(config.panel_port, open_port=open_port, clock=clock)
    camera = None
    if config.camera_kind != "none":
        # The table plays a recording once: a game does not happen twice.
        source = make_source(config.camera_kind, config.camera, config.camera_target, loop=False)
        camera = ResilientCamera(source, clock=clock)
    outputs: Outputs = NullOutputs()
    if config.outputs == "gpio" and config.pin_map is not None:
        outputs = GpioOutputs(config.pin_map.outputs, factory)
    elif config.outputs == "panel" and panel is not None:
        outputs = PanelOutputs(panel)
    return Hardware(buttons, panel, camera, outputs)
