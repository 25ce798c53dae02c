"""Errors raised by the drivers package."""

from __future__ import annotations


class DriverError(Exception):
    """Base error for everything in `drivers`."""


class PinMapError(DriverError, ValueError):
    """A pin map is invalid; `problems` lists every offending entry."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__("invalid pin map:\n  " + "\n  ".join(self.problems))


class ConfigError(DriverError, ValueError):
    """A hardware configuration value is missing or wrong."""


class ProtocolError(DriverError, ValueError):
    """A serial panel line does not follow the protocol."""


class PanelUnavailableError(DriverError, ConnectionError):
    """The serial panel cannot be reached right now."""


class CameraError(DriverError, OSError):
    """A frame source could not be opened or read."""


class HardwareCheckError(DriverError, RuntimeError):
    """A step of the hardware check failed."""
