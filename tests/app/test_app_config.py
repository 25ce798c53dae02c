"""The TOML config: defaults, and errors that name the file, section and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.config import ConfigError, load_config
from table import Rules, Seat
from vision.zones import default_zones, save_zones


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(text)
    return path


def test_defaults_without_a_file() -> None:
    config = load_config(None)
    assert config.rules == Rules() and config.dealer is Seat.N and config.hardware is None


def test_a_full_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CARDTABLE_STATE_DIR", raising=False)
    path = write(
        tmp_path,
        """
[game]
dealer = "E"
rules = { target = 40, joker = true }
[seats]
N = "Ann"
S = "Sam"
[state]
dir = "/var/lib/cardtable"
[display]
width = 1920
height = 1080
[vision]
calibration = "zones.json"
[gpio]
pin_factory = "mock"
layout = "shared"
""",
    )
    save_zones(default_zones(1280, 720), tmp_path / "zones.json")
    config = load_config(path)
    assert config.rules == Rules(target=40, joker=True) and config.dealer is Seat.E
    assert config.seat_names == {"N": "Ann", "S": "Sam"}
    assert config.journal_path == Path("/var/lib/cardtable/journal.sqlite")
    assert config.display.width == 1920
    assert config.vision.calibration == tmp_path / "zones.json"
    assert config.hardware is not None and config.hardware.pin_factory == "mock"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[gmae]\n", "unknown section [gmae]"),
        ("[game]\ndealr = 'N'\n", "[game] unknown key 'dealr'"),
        ("[game]\nrules = { targt = 3 }\n", "[game.rules] unknown rule option 'targt'"),
        ("[game]\ndealer = 'X'\n", "[game] dealer: 'X' is not a seat"),
        ("[display]\nwidth = '800'\n", "[display] width = '800': expected int"),
        ("[vision]\nstable_s = -1\n", "[vision] stable_s = -1"),
        ("[vision]\nmin_confidence = 0.7\n",
         "[vision] min_confidence: no longer a setting: the card reader's thresholds are chosen "
         "from the shipped model's measured calibration"),
        ("[gpio]\npin_factory = 'wires'\n", "gpio.pin_factory = 'wires'"),
        ("[seats]\nN = 3\n", "[seats] N = 3: expected text"),
        ("game = 3\n", "[game] must be a table"),
        ("[game\n", "not valid TOML"),
        ("[state]\ndir = 5\n", "[state] dir = 5: expected a folder path"),
        ("[display]\nwidth = -5\n", "[display] width = -5: expected 320 to 7680"),
        ("[display]\nfps = 0\n", "[display] fps = 0"),
        ("[gpio]\npin_map = 5\n", "gpio.pin_map = 5: expected the path"),
        ("[buttons.pins]\nOK = 99\n", "pin 99 is not a GPIO"),
        ("[buttons.pins]\nOK = 4\nUNDO = 4\n", "GPIO4 is already used"),
        ("[camera]\nkind = 'usb'\n[vision]\ncalibration = 'z.json'\n",
         "[vision] calibration = 'z.json': no such file"),
        ("[camera]\nkind = 'usb'\nexposure_us = 'fast'\n", "camera.exposure_us = 'fast'"),
        ("[camera]\nkind = 'usb'\nwidth = 0\n", "camera.width = 0"),
        ("[camera]\nkind = 'recorded'\npath = 'gone.mp4'\n", "no such video or folder"),
        ("[vision]\ndeck = 'deck.npz'\n", "[vision] deck = 'deck.npz': no such file"),
        ("[vision]\ncalibration = 'table.toml'\n", "[vision] calibration"),
    ],
)
def test_bad_config_names_where(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value).startswith(str(path))
    assert message in str(caught.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(tmp_path / "nope.toml")


def test_the_shipped_example_is_complete_and_loads() -> None:
    import tomllib

    from app.config import KNOWN_KEYS
    from vision.zones import load_zones

    example = Path(__file__).resolve().parents[2] / "hardware" / "table.example.toml"
    config = load_config(example)
    assert config.hardware is not None and config.vision.calibration == example
    assert {seat for seat, _ in load_zones(example).seats} == {"N", "E", "S", "W"}
    sections = set(tomllib.loads(example.read_text()))
    assert set(KNOWN_KEYS) - sections <= {"buttons", "outputs"}  # a pin map given inline instead
