"""hardware/ stays true to the code: pin tables, example config, firmware pins."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from drivers.config import load_hardware_config
from drivers.keys import KEY_NAMES, SHARED_PANEL_KEYS
from drivers.pinmap import default_pin_map, physical_pin_names

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
ROW = re.compile(r"^\| GPIO(\d+) \| (\d+) \| (.+?) \|$")


def documented_rows(layout_heading: str) -> list[tuple[int, int, str]]:
    text = (HARDWARE / "README.md").read_text()
    section = text.split(f"### Pin table: {layout_heading}")[1].split("\n\n#")[0]
    return [
        (int(m.group(1)), int(m.group(2)), m.group(3))
        for line in section.splitlines()
        if (m := ROW.match(line))
    ]


@pytest.mark.parametrize(
    ("layout", "heading"), [("shared", "shared panel"), ("seats", "seat pads")]
)
def test_readme_pin_table_matches_the_pin_map(layout: str, heading: str) -> None:
    pin_map = default_pin_map(layout)
    expected = [(b.gpio, f"button {b.label}") for b in pin_map.buttons]
    outputs = pin_map.outputs
    if outputs.buzzer is not None:
        expected.append((outputs.buzzer, "buzzer"))
    if outputs.accept_led is not None:
        expected.append((outputs.accept_led, "LED accept"))
    if outputs.renege_led is not None:
        expected.append((outputs.renege_led, "LED renege"))
    expected += [(gpio, f"LED turn {seat}") for seat, gpio in outputs.turn_leds.items()]
    rows = documented_rows(heading)
    assert [(gpio, use) for gpio, _, use in rows] == expected
    names = physical_pin_names()
    for gpio, pin, _ in rows:
        assert names[pin] == f"GPIO{gpio}"


def test_example_config_loads() -> None:
    config = load_hardware_config(HARDWARE / "table.example.toml")
    assert config.pin_map == default_pin_map("shared")
    assert config.pin_factory == "lgpio"
    assert config.camera.lens_position == pytest.approx(1 / 0.88, abs=0.01)


def test_firmware_buttons_are_known_and_pins_distinct() -> None:
    tree = ast.parse((HARDWARE / "panel" / "main.py").read_text())
    tables = {
        node.targets[0].id: ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id in ("BUTTONS", "LEDS", "BUZZER")
    }
    assert tuple(tables["BUTTONS"]) == SHARED_PANEL_KEYS
    assert set(tables["BUTTONS"]) <= KEY_NAMES
    pins = [*tables["BUTTONS"].values(), *tables["LEDS"].values(), tables["BUZZER"]]
    assert len(pins) == len(set(pins))
    assert all(0 <= pin <= 28 and pin not in (23, 24, 25) for pin in pins)  # Pico GPIOs


def test_readme_key_labels_match_the_card_seat_and_trick_keys() -> None:
    from drivers.keys import JOKER_KEY, RANK_KEYS, SEAT_KEYS, TRICK_KEYS

    text = (HARDWARE / "README.md").read_text()
    section = text.split("## Key labels")[1].split("\n\n")[2]
    rows = {
        cells[0].strip("`"): cells[1:]
        for line in section.splitlines()[2:]
        if (cells := [cell.strip() for cell in line.strip("|").split("|")])
    }
    ranks = {"9": "9", "T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}
    assert {key: row[1] for key, row in rows.items() if row[1] and key != JOKER_KEY} == {
        key: ranks[rank] for key, rank in RANK_KEYS.items()
    }
    assert rows[JOKER_KEY][1] == "JOKER"
    assert {key: row[2] for key, row in rows.items() if row[2]} == SEAT_KEYS
    assert {key: int(row[3]) for key, row in rows.items() if row[3].isdigit()} == TRICK_KEYS
    assert set(rows) <= KEY_NAMES
