"""Pin maps: which button or output sits on which GPIO of the 40-pin header, validated."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from drivers.errors import PinMapError
from drivers.inputs import SEATS, Seat
from drivers.keys import KEY_NAMES

# The Raspberry Pi 40-pin header, row by row as it sits on the board: (odd pin, even pin).
HEADER_40: tuple[tuple[str, str], ...] = (
    ("3V3", "5V"),
    ("GPIO2", "5V"),
    ("GPIO3", "GND"),
    ("GPIO4", "GPIO14"),
    ("GND", "GPIO15"),
    ("GPIO17", "GPIO18"),
    ("GPIO27", "GND"),
    ("GPIO22", "GPIO23"),
    ("3V3", "GPIO24"),
    ("GPIO10", "GND"),
    ("GPIO9", "GPIO25"),
    ("GPIO11", "GPIO8"),
    ("GND", "GPIO7"),
    ("GPIO0", "GPIO1"),
    ("GPIO5", "GND"),
    ("GPIO6", "GPIO12"),
    ("GPIO13", "GND"),
    ("GPIO19", "GPIO16"),
    ("GPIO26", "GPIO20"),
    ("GND", "GPIO21"),
)

# GPIO0/1 (ID EEPROM) and 14/15 (UART) are on the header but kept free by default.
RESERVED_GPIOS: frozenset[int] = frozenset({0, 1, 14, 15})

_GPIO_RE = re.compile(r"^(?:GPIO|BCM)(\d+)$", re.IGNORECASE)
_BOARD_RE = re.compile(r"^(?:BOARD|PIN)(\d+)$", re.IGNORECASE)


def physical_pin_names() -> dict[int, str]:
    """Physical pin number (1..40) to its name, from HEADER_40."""
    names: dict[int, str] = {}
    for row, (odd, even) in enumerate(HEADER_40):
        names[2 * row + 1] = odd
        names[2 * row + 2] = even
    return names


def header_gpios() -> frozenset[int]:
    """BCM numbers of every GPIO on the 40-pin header."""
    return frozenset(int(name[4:]) for name in physical_pin_names().values() if name[:4] == "GPIO")


def parse_pin(value: object) -> int:
    """Turn 17, "GPIO17", "BCM17" or "BOARD11" into a BCM GPIO number on the header."""
    if isinstance(value, bool):
        raise ValueError(f"pin {value!r} is not a GPIO number or name")
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and (match := _GPIO_RE.match(value.strip())):
        number = int(match.group(1))
    elif isinstance(value, str) and (match := _BOARD_RE.match(value.strip())):
        physical = int(match.group(1))
        name = physical_pin_names().get(physical)
        if name is None:
            raise ValueError(f"pin {value!r}: the header has physical pins 1..40")
        if not name.startswith("GPIO"):
            raise ValueError(f"pin {value!r} is {name}, not a GPIO")
        return int(name[4:])
    else:
        raise ValueError(
            f"pin {value!r} is not a GPIO number or name (e.g. 17, 'GPIO17', 'BOARD11')"
        )
    if number not in header_gpios():
        raise ValueError(f"pin {value!r} is not a GPIO on the 40-pin header (GPIO0..GPIO27)")
    return number


@dataclass(frozen=True)
class ButtonSpec:
    """One button: its name, the seat whose pad it is on (None on a shared panel) and GPIO."""

    name: str
    seat: Seat | None
    gpio: int

    @property
    def label(self) -> str:
        """`N.PASS` for a seat pad button, `PASS` for a shared one."""
        return f"{self.seat}.{self.name}" if self.seat else self.name


@dataclass(frozen=True)
class OutputSpec:
    """Where the optional buzzer and lights sit; every field may be absent."""

    buzzer: int | None = None
    accept_led: int | None = None
    renege_led: int | None = None
    turn_leds: Mapping[Seat, int] = field(default_factory=dict)
    active_high: bool = True


@dataclass(frozen=True)
class PinMap:
    """A validated pin map: buttons and outputs."""

    buttons: tuple[ButtonSpec, ...]
    outputs: OutputSpec
    pull_up: bool = True

    def gpio_of(self, label: str) -> int:
        """GPIO number of the button labelled `label` (`PASS` or `N.PASS`)."""
        for spec in self.buttons:
            if spec.label == label:
                return spec.gpio
        raise KeyError(label)


def _collect(problems: list[str], where: str, raw: object, used: dict[int, str]) -> int | None:
    try:
        gpio = parse_pin(raw)
    except ValueError as error:
        problems.append(f"{where}: {error}")
        return None
    if gpio in RESERVED_GPIOS:
        problems.append(f"{where}: GPIO{gpio} is reserved (ID EEPROM or UART); pick another pin")
        return None
    if gpio in used:
        problems.append(f"{where}: GPIO{gpio} is already used by {used[gpio]}")
        return None
    used[gpio] = where
    return gpio


def build_pin_map(data: Mapping[str, Any]) -> PinMap:
    """Validate a parsed pin map (`buttons` and optional `outputs` tables) and return it.

    Every problem is collected first, then one PinMapError lists them all.
    """
    problems: list[str] = []
    used: dict[int, str] = {}
    buttons: list[ButtonSpec] = []
    section = data.get("buttons", {})
    if not isinstance(section, Mapping):
        raise PinMapError([f"buttons: expected a table, got {section!r}"])
    for key in section:
        if key not in ("pins", "seats", "pull_up", "layout"):
            problems.append(f"buttons.{key}: unknown entry (expected pins, seats, pull_up, layout)")
    groups: list[tuple[Seat | None, str, Any]] = [(None, "buttons.pins", section.get("pins", {}))]
    seats = section.get("seats", {})
    if isinstance(seats, Mapping):
        for seat_name, pins in seats.items():
            if seat_name not in SEATS:
                problems.append(f"buttons.seats.{seat_name}: unknown seat (expected N, E, S, W)")
                continue
            groups.append((seat_name, f"buttons.seats.{seat_name}", pins))
    for seat, where, pins in groups:
        if not isinstance(pins, Mapping):
            problems.append(f"{where}: expected a table of NAME = pin, got {pins!r}")
            continue
        for name, raw in pins.items():
            entry = f"{where}.{name}"
            if name not in KEY_NAMES:
                problems.append(f"{entry}: unknown button name {name!r}")
                continue
            gpio = _collect(problems, entry, raw, used)
            if gpio is not None:
                buttons.append(ButtonSpec(name, seat, gpio))
    if not buttons and not problems:
        problems.append("buttons: no buttons defined")
    outputs = _build_outputs(data.get("outputs", {}), problems, used)
    pull_up = section.get("pull_up", True)
    if not isinstance(pull_up, bool):
        problems.append(f"buttons.pull_up: expected true or false, got {pull_up!r}")
    if problems:
        raise PinMapError(problems)
    return PinMap(tuple(buttons), outputs, bool(pull_up))


def _build_outputs(raw: object, problems: list[str], used: dict[int, str]) -> OutputSpec:
    if not isinstance(raw, Mapping):
        problems.append(f"outputs: expected a table, got {raw!r}")
        return OutputSpec()
    single: dict[str, int | None] = {}
    for key in raw:
        if key not in ("buzzer", "accept_led", "renege_led", "turn_leds", "active_high"):
            problems.append(f"outputs.{key}: unknown entry")
    for key in ("buzzer", "accept_led", "renege_led"):
        value = raw.get(key)
        single[key] = None if value is None else _collect(problems, f"outputs.{key}", value, used)
    turn: dict[Seat, int] = {}
    turn_raw = raw.get("turn_leds", {})
    if isinstance(turn_raw, Mapping):
        for seat_name, value in turn_raw.items():
            if seat_name not in SEATS:
                problems.append(
                    f"outputs.turn_leds.{seat_name}: unknown seat (expected N, E, S, W)"
                )
                continue
            gpio = _collect(problems, f"outputs.turn_leds.{seat_name}", value, used)
            if gpio is not None:
                turn[seat_name] = gpio
    else:
        problems.append(f"outputs.turn_leds: expected a table of SEAT = pin, got {turn_raw!r}")
    active_high = raw.get("active_high", True)
    return OutputSpec(
        single["buzzer"], single["accept_led"], single["renege_led"], turn, bool(active_high)
    )


def load_pin_map(path: Path) -> PinMap:
    """Read and validate a pin map TOML file."""
    with path.open("rb") as handle:
        return build_pin_map(tomllib.load(handle))


DEFAULT_PIN_MAPS = Path(__file__).with_name("pinmaps")


def default_pin_map(layout: str) -> PinMap:
    """One of the shipped pin maps: `shared` (one panel) or `seats` (a pad per seat)."""
    path = DEFAULT_PIN_MAPS / f"{layout}.toml"
    if not path.is_file():
        raise FileNotFoundError(f"no default pin map {layout!r}: expected 'shared' or 'seats'")
    return load_pin_map(path)
