"""The pin map validator: good maps load, bad ones list every offending entry."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from drivers.errors import DriverError, PinMapError
from drivers.keys import SHARED_PANEL_KEYS
from drivers.pinmap import (
    HEADER_40,
    build_pin_map,
    default_pin_map,
    header_gpios,
    load_pin_map,
    parse_pin,
    physical_pin_names,
)

REPO = Path(__file__).resolve().parents[2]


def test_header_has_40_pins_and_28_gpios() -> None:
    assert len(HEADER_40) == 20
    assert len(physical_pin_names()) == 40
    assert header_gpios() == frozenset(range(28))
    assert physical_pin_names()[11] == "GPIO17"
    assert physical_pin_names()[39] == "GND"


@pytest.mark.parametrize(
    ("raw", "gpio"),
    [(17, 17), ("GPIO17", 17), ("gpio4", 4), ("BCM27", 27), ("BOARD11", 17), ("BOARD40", 21)],
)
def test_parse_pin_accepts(raw: object, gpio: int) -> None:
    assert parse_pin(raw) == gpio


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (28, "not a GPIO on the 40-pin header"),
        ("GPIO40", "not a GPIO on the 40-pin header"),
        ("BOARD1", "is 3V3, not a GPIO"),
        ("BOARD6", "is GND, not a GPIO"),
        ("BOARD41", "physical pins 1..40"),
        ("P1-7", "not a GPIO number or name"),
        (True, "not a GPIO number or name"),
        (4.0, "not a GPIO number or name"),
    ],
)
def test_parse_pin_rejects(raw: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_pin(raw)


GOOD_MAPS: list[dict[str, Any]] = [
    {"buttons": {"pins": {"OK": 17}}},
    {"buttons": {"pins": {"OK": "GPIO17", "UNDO": "BOARD13"}}},
    {"buttons": {"seats": {"N": {"PASS": 4}, "S": {"PASS": 5}}, "pins": {"4": 6}}},
    {"buttons": {"pins": {"12": 4, "ACE_NO_FACE": 5}}, "outputs": {"buzzer": 18}},
    {
        "buttons": {"pins": {"OK": 17}, "pull_up": False},
        "outputs": {"turn_leds": {"N": 21, "E": 20}, "renege_led": 26, "active_high": False},
    },
]


@pytest.mark.parametrize("data", GOOD_MAPS)
def test_good_maps_validate(data: dict[str, Any]) -> None:
    pin_map = build_pin_map(data)
    assert pin_map.buttons


BAD_MAPS: list[tuple[dict[str, Any], list[str]]] = [
    ({"buttons": {"pins": {}}}, ["buttons: no buttons defined"]),
    ({"buttons": {"pins": {"OK": 17, "UNDO": 17}}}, ["buttons.pins.UNDO: GPIO17 is already used"]),
    ({"buttons": {"pins": {"OK": 30}}}, ["buttons.pins.OK: pin 30 is not a GPIO"]),
    ({"buttons": {"pins": {"OKAY": 17}}}, ["buttons.pins.OKAY: unknown button name 'OKAY'"]),
    ({"buttons": {"pins": {"OK": 14}}}, ["buttons.pins.OK: GPIO14 is reserved"]),
    ({"buttons": {"seats": {"X": {"OK": 4}}}}, ["buttons.seats.X: unknown seat"]),
    (
        {"buttons": {"pins": {"OK": 17}}, "outputs": {"buzzer": "GPIO17"}},
        ["outputs.buzzer: GPIO17 is already used by buttons.pins.OK"],
    ),
    (
        {"buttons": {"pins": {"OK": 17}}, "outputs": {"turn_leds": {"Q": 4}}},
        ["outputs.turn_leds.Q: unknown seat"],
    ),
    ({"buttons": {"pins": {"OK": 17}, "pulls": True}}, ["buttons.pulls: unknown entry"]),
    (
        {
            "buttons": {
                "pins": {"OK": 17, "UNDO": 17, "FOO": 4, "PASS": "BOARD2"},
                "seats": {"N": {"OK": 99}},
            },
            "outputs": {"buzzer": 4, "beeper": 5},
        },
        [
            "buttons.pins.UNDO: GPIO17 is already used by buttons.pins.OK",
            "buttons.pins.FOO: unknown button name 'FOO'",
            "buttons.pins.PASS: pin 'BOARD2' is 5V, not a GPIO",
            "buttons.seats.N.OK: pin 99 is not a GPIO",
            "outputs.beeper: unknown entry",
        ],
    ),
]


@pytest.mark.parametrize(("data", "expected"), BAD_MAPS)
def test_bad_maps_list_every_offending_entry(data: dict[str, Any], expected: list[str]) -> None:
    with pytest.raises(PinMapError) as caught:
        build_pin_map(data)
    assert len(caught.value.problems) == len(expected)
    for problem, start in zip(caught.value.problems, expected, strict=True):
        assert problem.startswith(start), problem
    assert isinstance(caught.value, DriverError)
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("layout", ["shared", "seats"])
def test_default_maps_load_and_match_hardware_copies(layout: str) -> None:
    pin_map = default_pin_map(layout)
    shipped = REPO / "drivers" / "pinmaps" / f"{layout}.toml"
    documented = REPO / "hardware" / "pinmaps" / f"{layout}.toml"
    assert documented.read_bytes() == shipped.read_bytes()
    with documented.open("rb") as handle:
        assert tomllib.load(handle)["buttons"]["layout"] == layout
    assert load_pin_map(documented) == pin_map


def test_default_shared_map_has_every_panel_key() -> None:
    names = [spec.name for spec in default_pin_map("shared").buttons]
    assert names == list(SHARED_PANEL_KEYS)


def test_default_seat_map_gives_every_seat_pass_and_ok() -> None:
    labels = {spec.label for spec in default_pin_map("seats").buttons}
    for seat in "NESW":
        assert {f"{seat}.PASS", f"{seat}.OK"} <= labels


def test_unknown_default_layout() -> None:
    with pytest.raises(FileNotFoundError, match="'round'"):
        default_pin_map("round")
