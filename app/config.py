"""The table's one TOML config: documented defaults, and errors that say where the problem is."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from app.web.addresses import dns_name, public_url, url_host
from drivers.config import HardwareConfig, hardware_config
from drivers.errors import ConfigError as DriverConfigError
from drivers.errors import PinMapError
from table import Rules, RulesError, Seat
from table.seats import SeatError

DEFAULT_STATE_DIR = Path("~/.local/state/cardtable")

# Every section and key the file may hold; anything else is a mistake worth naming.
KNOWN_KEYS: dict[str, frozenset[str]] = {
    "game": frozenset({"dealer", "rules"}),
    "seats": frozenset({"N", "E", "S", "W"}),
    "state": frozenset({"dir"}),
    "display": frozenset({"width", "height", "fullscreen", "four_colour", "fps"}),
    "vision": frozenset({"calibration", "deck", "stable_s", "unreadable_prompt_s"}),
    "gpio": frozenset({"pin_factory", "layout", "pin_map"}),
    "panel": frozenset({"port"}),
    "camera": frozenset(
        {
            "kind",
            "device",
            "path",
            "width",
            "height",
            "fps",
            "exposure_us",
            "analogue_gain",
            "lens_position",
        }
    ),
    "signals": frozenset({"via"}),
    "web": frozenset({"enabled", "host", "port", "pin", "public_url", "hosts"}),
    "mqtt": frozenset({"enabled", "host", "port", "tls", "user", "password", "table"}),
    "buttons": frozenset(),  # inline pin map: any button names, checked by the pin-map validator
    "outputs": frozenset(),
    "calibration": frozenset(),  # seat zones written by `cardtable calibrate`, checked there
}
FREE_SECTIONS = frozenset({"buttons", "outputs", "calibration"})

# Keys a table once could set that nothing reads any more, and why.
RETIRED_KEYS: dict[tuple[str, str], str] = {
    ("vision", "min_confidence"): (
        "no longer a setting: the card reader's thresholds are chosen from the shipped model's "
        "measured calibration, and the table takes a name from the shipped decision's "
        "calibrated threshold (vision/data/decision.json), not per table; delete the line"
    ),
}


class ConfigError(ValueError):
    """The config cannot be used; the message names the file, the section and the key."""


@dataclass(frozen=True)
class DisplayConfig:
    """Screen size and look."""

    width: int = 800
    height: int = 480
    fullscreen: bool = True
    four_colour: bool = False
    fps: int = 30


DISPLAY_RANGES = {"width": (320, 7680), "height": (240, 4320), "fps": (1, 240)}
"""The screen sizes and frame rates a table may ask for."""


@dataclass(frozen=True)
class VisionSettings:
    """Where the calibration and deck profile are, and the tracker's tunables."""

    calibration: Path | None = None
    deck: Path | None = None
    stable_s: float = 0.3
    unreadable_prompt_s: float = 3.0  # an unreadable card is asked for by name after this


@dataclass(frozen=True)
class WebConfig:
    """The phone page served by the table: on by default, on this machine only (set host to
    0.0.0.0 for every address of the Pi, so phones can reach it)."""

    enabled: bool = True
    host: str = "127.0.0.1"
    port: int = 8080
    pin: str | None = field(default=None, repr=False)  # None: read-only, no corrections
    public_url: str | None = None  # the page's address for others (the club links to it)
    hosts: tuple[str, ...] = ()  # DNS names the page answers to beyond the machine's own

    @property
    def allowed_names(self) -> tuple[str, ...]:
        """The names the page answers to beyond the machine's own: `hosts` and the host of
        `public_url`."""
        if self.public_url is None:
            return self.hosts
        return (*self.hosts, url_host(self.public_url))


@dataclass(frozen=True)
class MqttConfig:
    """The MQTT broker the table publishes its events and state to."""

    host: str
    port: int = 1883
    tls: bool = False
    user: str | None = None
    password: str | None = None
    table: str = "table"


@dataclass(frozen=True)
class AppConfig:
    """Everything `cardtable run` needs."""

    rules: Rules = field(default_factory=Rules)
    dealer: Seat = Seat.N
    seat_names: dict[str, str] = field(default_factory=dict)
    state_dir: Path = DEFAULT_STATE_DIR
    display: DisplayConfig = field(default_factory=DisplayConfig)
    vision: VisionSettings = field(default_factory=VisionSettings)
    hardware: HardwareConfig | None = None
    source: Path | None = None
    web: WebConfig = field(default_factory=WebConfig)
    mqtt: MqttConfig | None = None

    @property
    def journal_path(self) -> Path:
        """The SQLite journal inside the state directory."""
        return self.state_dir.expanduser() / "journal.sqlite"


def load_config(path: Path | None) -> AppConfig:
    """Read the config file (None: all defaults); raises ConfigError naming file and key."""
    if path is None:
        return config_from_mapping({}, None)
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except IsADirectoryError:
        raise ConfigError(f"{path}: a folder, not a config file") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    except UnicodeDecodeError as error:
        raise ConfigError(f"{path}: not UTF-8 text (byte {error.start})") from None
    return config_from_mapping(data, path)


def config_from_mapping(data: Mapping[str, Any], path: Path | None) -> AppConfig:
    """Build the config from parsed TOML."""
    where = str(path) if path else "config"
    _check_keys(data, where)
    base = path.parent if path else Path.cwd()
    game = data.get("game", {})
    try:
        rules = Rules.from_mapping(game.get("rules", {}))
    except RulesError as error:
        raise ConfigError(f"{where}: [game.rules] {error}") from None
    try:
        dealer = Seat.parse(game.get("dealer", "N"))
    except SeatError as error:
        raise ConfigError(f"{where}: [game] dealer: {error}") from None
    seats = {
        str(seat): _text(where, "seats", seat, name) for seat, name in data.get("seats", {}).items()
    }
    state = data.get("state", {})
    folder = state.get("dir", str(DEFAULT_STATE_DIR))
    if not isinstance(folder, str) or not folder.strip():
        raise ConfigError(f"{where}: [state] dir = {folder!r}: expected a folder path (text)")
    state_dir = Path(os.environ.get("CARDTABLE_STATE_DIR") or folder)
    try:
        hardware = hardware_config(data, base) if _has_hardware(data) else None
    except (DriverConfigError, PinMapError) as error:
        raise ConfigError(f"{where}: {error}") from None
    vision = _vision(where, base, data.get("vision", {}))
    if "calibration" in data and vision.calibration is None and path is not None:
        vision = replace(vision, calibration=path)
    if vision.calibration is not None:
        _check_zones(where, vision.calibration)
    if hardware is not None and hardware.camera_kind != "none" and vision.calibration is None:
        raise ConfigError(
            f"{where}: [camera] needs the seat zones: run `cardtable calibrate` and set "
            "[vision] calibration"
        )
    return AppConfig(
        rules=rules,
        dealer=dealer,
        seat_names=seats,
        state_dir=state_dir,
        display=_section(where, "display", DisplayConfig, data.get("display", {})),
        vision=vision,
        hardware=hardware,
        source=path,
        web=_web(where, data.get("web", {})),
        mqtt=_mqtt(where, data["mqtt"]) if "mqtt" in data else None,
    )


def _check_zones(where: str, calibration: Path) -> None:
    """Read the seat zones once at start, so a bad file is named with the config's key."""
    from vision.api import CalibrationError, load_zones

    try:
        load_zones(calibration)
    except CalibrationError as error:
        raise ConfigError(f"{where}: [vision] calibration: {error}") from None


def _check_keys(data: Mapping[str, Any], where: str) -> None:
    problems = []
    for section, values in data.items():
        if section not in KNOWN_KEYS:
            problems.append(f"unknown section [{section}] (known: {', '.join(sorted(KNOWN_KEYS))})")
            continue
        if not isinstance(values, Mapping):
            problems.append(f"[{section}] must be a table, not {values!r}")
            continue
        if section in FREE_SECTIONS:
            continue
        for key in values:
            if (section, key) in RETIRED_KEYS:
                problems.append(f"[{section}] {key}: {RETIRED_KEYS[section, key]}")
            elif key not in KNOWN_KEYS[section]:
                known = ", ".join(sorted(KNOWN_KEYS[section]))
                problems.append(f"[{section}] unknown key {key!r} (known: {known})")
    if problems:
        raise ConfigError(f"{where}: " + "; ".join(problems))


def _has_hardware(data: Mapping[str, Any]) -> bool:
    return any(name in data for name in ("gpio", "panel", "camera", "signals", "buttons"))


def _text(where: str, section: str, key: str, value: object) -> str:
    if not isinstance(value, str):
        raise ConfigError(f"{where}: [{section}] {key} = {value!r}: expected text")
    return value


def _section(where: str, section: str, kind: type[DisplayConfig], values: Mapping[str, Any]) -> Any:
    defaults = kind()
    for key, value in values.items():
        expected = type(getattr(defaults, key))
        if type(value) is not expected:
            raise ConfigError(
                f"{where}: [{section}] {key} = {value!r}: expected {expected.__name__}"
            )
        low, high = DISPLAY_RANGES.get(key, (None, None))
        if low is not None and high is not None and not low <= value <= high:
            raise ConfigError(
                f"{where}: [{section}] {key} = {value!r}: expected {low} to {high}"
            )
    return kind(**values)


def _vision(where: str, base: Path, values: Mapping[str, Any]) -> VisionSettings:
    def path(key: str) -> Path | None:
        value = values.get(key)
        if value is None:
            return None
        resolved = Path(_text(where, "vision", key, value)).expanduser()
        resolved = resolved if resolved.is_absolute() else base / resolved
        if not resolved.is_file():
            raise ConfigError(f"{where}: [vision] {key} = {value!r}: no such file ({resolved})")
        return resolved

    stable = values.get("stable_s", 0.3)
    if not isinstance(stable, int | float) or isinstance(stable, bool) or stable <= 0:
        raise ConfigError(f"{where}: [vision] stable_s = {stable!r}: expected seconds above 0")
    prompt = values.get("unreadable_prompt_s", 3.0)
    if not isinstance(prompt, int | float) or isinstance(prompt, bool) or prompt < 0:
        raise ConfigError(
            f"{where}: [vision] unreadable_prompt_s = {prompt!r}: expected seconds, 0 or more"
        )
    return VisionSettings(path("calibration"), path("deck"), float(stable), float(prompt))


def _port(where: str, section: str, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 65535:
        raise ConfigError(f"{where}: [{section}] port = {value!r}: expected a port, 1 to 65535")
    return value


def _flag(where: str, section: str, key: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{where}: [{section}] {key} = {value!r}: expected true or false")
    return value


def _web(where: str, values: Mapping[str, Any]) -> WebConfig:
    host = _text(where, "web", "host", values.get("host", "127.0.0.1")).strip()
    if not host:
        raise ConfigError(f"{where}: [web] host = '': expected an address such as 0.0.0.0")
    return WebConfig(
        enabled=_flag(where, "web", "enabled", values.get("enabled", True)),
        host=host,
        port=_port(where, "web", values.get("port", 8080)),
        pin=_pin(where, values.get("pin")),
        public_url=_public_url(where, values.get("public_url")),
        hosts=_hosts(where, values.get("hosts", [])),
    )


def _public_url(where: str, value: object) -> str | None:
    """The page's address as others reach it: http(s), no credentials, at most MAX_URL long."""
    if value is None:
        return None
    example = 'such as public_url = "http://cardtable.local:8080/"'
    if not isinstance(value, str):
        raise ConfigError(f"{where}: [web] public_url = {value!r}: expected text, {example}")
    try:
        return public_url(value)
    except ValueError as error:
        shown = "" if "@" in value else f" = {value[:80]!r}"  # a password is never repeated
        raise ConfigError(f"{where}: [web] public_url{shown}: {error}; expected an http:// or "
                          f"https:// address, {example}") from None


MAX_HOSTS = 32


def _hosts(where: str, value: object) -> tuple[str, ...]:
    """The extra DNS names the page answers to, in lower case."""
    if not isinstance(value, list) or len(value) > MAX_HOSTS:
        raise ConfigError(f"{where}: [web] hosts = {str(value)[:80]}: expected a list of at most "
                          f'{MAX_HOSTS} DNS names, such as hosts = ["scores.club.example"]')
    names = []
    for name in value:
        if not isinstance(name, str):
            raise ConfigError(f"{where}: [web] hosts: {name!r}: expected text, a DNS name")
        try:
            names.append(dns_name(name))
        except ValueError as error:
            raise ConfigError(f"{where}: [web] hosts: {name[:80]!r}: {error}") from None
    return tuple(names)


PIN_DIGITS = (4, 12)


def _pin(where: str, value: object) -> str | None:
    """The PIN a phone gives to correct the game: 4 to 12 digits, in quotes; None: none."""
    # The messages never repeat the value: it is a secret.
    if value is None:
        return None
    low, high = PIN_DIGITS
    if isinstance(value, bool) or not isinstance(value, str | int):
        problem = f"a {type(value).__name__}, not text"
    elif isinstance(value, int):
        problem = "a number, not text (a leading 0 would be lost)"
    elif not value:
        problem = "empty (leave the key out for a read-only page)"
    elif not (value.isascii() and value.isdigit()):
        problem = "not only the digits 0 to 9"
    elif not low <= len(value) <= high:
        problem = f"{len(value)} digits"
    else:
        return value
    raise ConfigError(
        f'{where}: [web] pin: {problem}: expected {low} to {high} digits in quotes, such as '
        'pin = "4711"'
    )


TABLE_NAME_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_")


def _mqtt(where: str, values: Mapping[str, Any]) -> MqttConfig | None:
    """The broker settings; None when the section says `enabled = false`."""
    enabled = _flag(where, "mqtt", "enabled", values.get("enabled", True))
    if "host" not in values:
        raise ConfigError(f"{where}: [mqtt] host is missing: the broker's name or address")
    host = _text(where, "mqtt", "host", values["host"]).strip()
    if not host:
        raise ConfigError(f"{where}: [mqtt] host = '': expected the broker's name or address")
    table = _text(where, "mqtt", "table", values.get("table", "table"))
    if not table or not set(table) <= TABLE_NAME_CHARACTERS:
        raise ConfigError(
            f"{where}: [mqtt] table = {table!r}: expected lower-case letters, digits, - or _ "
            "(it names the topics cardtable/<table>/...)"
        )
    user = values.get("user")
    password = values.get("password")
    if password is not None and user is None:
        raise ConfigError(f"{where}: [mqtt] password without user")
    if not enabled:
        return None
    return MqttConfig(
        host=host,
        port=_port(where, "mqtt", values.get("port", 1883)),
        tls=_flag(where, "mqtt", "tls", values.get("tls", False)),
        user=None if user is None else _text(where, "mqtt", "user", user),
        password=None if password is None else _text(where, "mqtt", "password", password),
        table=table,
    )
