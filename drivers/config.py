"""The hardware part of the table's TOML config: pins, panel, camera, outputs."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from drivers.camera import SOURCES, CameraSettings
from drivers.errors import ConfigError
from drivers.pinmap import PinMap, build_pin_map, default_pin_map, load_pin_map

PIN_FACTORIES = ("lgpio", "rpigpio", "mock")
OUTPUT_ROUTES = ("gpio", "panel", "none")


@dataclass(frozen=True)
class HardwareConfig:
    """Everything the drivers need to start; see hardware/README.md for an example file."""

    pin_map: PinMap | None
    pin_factory: str | None = None
    panel_port: str | None = None
    camera_kind: str = "none"
    camera_target: str | None = None
    camera: CameraSettings = field(default_factory=CameraSettings)
    outputs: str = "gpio"


def _table(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, Mapping):
        raise ConfigError(f"[{key}] must be a table, got {value!r}")
    return value


def _choice(section: str, key: str, value: object, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ConfigError(f"{section}.{key} = {value!r}: expected one of {', '.join(choices)}")
    return str(value)


def _optional(section: Mapping[str, Any], key: str, kind: type, minimum: float) -> Any:
    """A number of the camera section, or None when it is not given."""
    return None if section.get(key) is None else _number(section, key, None, kind, minimum)


def _number(
    section: Mapping[str, Any], key: str, default: object, kind: type, minimum: float
) -> Any:
    """A whole number (or, for float, any number) of the camera section, at least `minimum`."""
    value: object = section.get(key, default)
    allowed: tuple[type, ...] = (int,) if kind is int else (int, float)
    if (isinstance(value, bool) or not isinstance(value, int | float)
            or not isinstance(value, allowed) or value < minimum):
        what = "a whole number" if kind is int else "a number"
        raise ConfigError(f"camera.{key} = {value!r}: expected {what} of at least {minimum}")
    return kind(value)


def hardware_config(data: Mapping[str, Any], base: Path | None = None) -> HardwareConfig:
    """Build the config from parsed TOML; relative paths are taken from `base`."""
    gpio = _table(data, "gpio")
    factory = gpio.get("pin_factory")
    if factory is not None:
        factory = _choice("gpio", "pin_factory", factory, PIN_FACTORIES)
    pin_map: PinMap | None
    if "buttons" in data:
        pin_map = build_pin_map(data)
    elif "pin_map" in gpio:
        if not isinstance(gpio["pin_map"], str):
            raise ConfigError(f"gpio.pin_map = {gpio['pin_map']!r}: expected the path of a "
                              "pin map file (text)")
        path = Path(gpio["pin_map"])
        pin_map = load_pin_map(path if path.is_absolute() or base is None else base / path)
    elif "layout" in gpio:
        pin_map = default_pin_map(_choice("gpio", "layout", gpio["layout"], ("shared", "seats")))
    else:
        pin_map = None
    panel = _table(data, "panel")
    port = panel.get("port")
    if port is not None and not isinstance(port, str):
        raise ConfigError(f"panel.port = {port!r}: expected a device path or 'auto'")
    camera = _table(data, "camera")
    kind = _choice("camera", "kind", camera.get("kind", "none"), (*SOURCES, "none"))
    target = camera.get("device", camera.get("path"))
    if target is not None and not isinstance(target, str | int):
        raise ConfigError(f"camera.device = {target!r}: expected a device or a path")
    if kind == "recorded" and target is not None and base is not None:
        target = str(target) if Path(str(target)).is_absolute() else str(base / str(target))
    if kind == "recorded" and target is not None and not Path(str(target)).exists():
        raise ConfigError(f"camera.path = {target!r}: no such video or folder of frames")
    settings = CameraSettings(
        width=_number(camera, "width", 1280, int, minimum=1),
        height=_number(camera, "height", 720, int, minimum=1),
        fps=float(_number(camera, "fps", 30, float, minimum=0)),
        exposure_us=_optional(camera, "exposure_us", int, minimum=1),
        analogue_gain=_optional(camera, "analogue_gain", float, minimum=0),
        lens_position=_optional(camera, "lens_position", float, minimum=0),
    )
    signals = _table(data, "signals")  # [outputs] holds the output pins of an inline pin map
    route = _choice("signals", "via", signals.get("via", "gpio"), OUTPUT_ROUTES)
    return HardwareConfig(
        pin_map=pin_map,
        pin_factory=factory,
        panel_port=port,
        camera_kind=kind,
        camera_target=None if target is None else str(target),
        camera=settings,
        outputs=route,
    )


def load_hardware_config(path: Path) -> HardwareConfig:
    """Read the hardware config from a TOML file."""
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except IsADirectoryError:
        raise ConfigError(f"{path}: a folder, not a config file") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from error
    except UnicodeDecodeError as error:
        raise ConfigError(f"{path}: not UTF-8 text (byte {error.start})") from None
    try:
        return hardware_config(data, path.parent)
    except ConfigError as error:
        raise ConfigError(f"{path}: {error}") from None
