"""The hardware config: good files load, bad values are named."""

from __future__ import annotations

from pathlib import Path

import pytest

from drivers.config import hardware_config, load_hardware_config
from drivers.errors import ConfigError, PinMapError
from drivers.pinmap import default_pin_map


def test_empty_config_has_nothing() -> None:
    config = hardware_config({})
    assert config.pin_map is None
    assert config.camera_kind == "none"
    assert config.outputs == "gpio"


def test_pin_map_file_is_relative_to_the_config(tmp_path: Path) -> None:
    (tmp_path / "pins.toml").write_text("[buttons.pins]\nOK = 17\n")
    (tmp_path / "game.avi").write_bytes(b"")
    (tmp_path / "table.toml").write_text(
        '[gpio]\npin_map = "pins.toml"\n[camera]\nkind = "recorded"\npath = "game.avi"\n'
    )
    config = load_hardware_config(tmp_path / "table.toml")
    assert config.pin_map is not None and config.pin_map.gpio_of("OK") == 17
    assert config.camera_target == str(tmp_path / "game.avi")


def test_layout_and_inline_map() -> None:
    assert hardware_config({"gpio": {"layout": "seats"}}).pin_map == default_pin_map("seats")
    inline = hardware_config({"buttons": {"pins": {"UNDO": "BOARD36"}}})
    assert inline.pin_map is not None and inline.pin_map.gpio_of("UNDO") == 16


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"gpio": {"pin_factory": "pigpio"}}, "gpio.pin_factory = 'pigpio'"),
        ({"gpio": {"layout": "round"}}, "gpio.layout = 'round'"),
        ({"camera": {"kind": "webcam"}}, "camera.kind = 'webcam'"),
        ({"camera": {"width": "wide"}}, "wide"),
        ({"camera": {"fps": 0}}, "frame rate 0"),
        ({"signals": {"via": "smoke"}}, "signals.via = 'smoke'"),
        ({"panel": {"port": 3}}, "panel.port = 3"),
        ({"panel": "COM3"}, "[panel] must be a table"),
    ],
)
def test_bad_values_are_named(data: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        hardware_config(data)
    assert message in str(caught.value)


def test_bad_inline_pin_map_lists_problems() -> None:
    with pytest.raises(PinMapError, match="GPIO17 is already used"):
        hardware_config({"buttons": {"pins": {"OK": 17, "PASS": 17}}})


def test_broken_toml_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text("[gpio\n")
    with pytest.raises(ConfigError, match=r"table\.toml"):
        load_hardware_config(path)
