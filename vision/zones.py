"""The play area and the four seat zones as polygons in frame pixels; load and save them."""

from __future__ import annotations

import json
import math
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vision.errors import VisionError

SEATS = ("N", "E", "S", "W")
TOML_SECTION = "calibration"

Point = tuple[float, float]
Polygon = tuple[Point, ...]


class CalibrationError(VisionError, ValueError):
    """A calibration (play area and seat zones) is missing, malformed or unreadable."""


def polygon_of(points: object, what: str) -> Polygon:
    """Validate a list of [x, y] pairs as a polygon of at least three finite points."""
    if not isinstance(points, Sequence) or isinstance(points, str) or len(points) < 3:
        raise CalibrationError(f"{what} needs at least 3 points [x, y], got {points!r}")
    polygon = []
    for point in points:
        if (not isinstance(point, Sequence) or isinstance(point, str) or len(point) != 2
                or not all(isinstance(v, int | float) and not isinstance(v, bool)
                           for v in point)):
            raise CalibrationError(f"{what}: a point must be [x, y] numbers, got {point!r}")
        x, y = float(point[0]), float(point[1])
        if not (math.isfinite(x) and math.isfinite(y)):
            raise CalibrationError(f"{what}: point {point!r} is not finite")
        polygon.append((x, y))
    if abs(polygon_area(tuple(polygon))) < 1e-6:
        raise CalibrationError(f"{what}: polygon {points!r} has no area")
    return tuple(polygon)


def polygon_area(polygon: Polygon) -> float:
    """Signed area by the shoelace formula."""
    total = 0.0
    for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        total += x0 * y1 - x1 * y0
    return total / 2.0


def contains(polygon: Polygon, point: Point) -> bool:
    """True when the point lies inside the polygon (even-odd rule)."""
    x, y = point
    inside = False
    for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


@dataclass(frozen=True)
class TableZones:
    """Play area and seat zones of one camera view, in pixels of a frame of `frame_size`."""

    frame_size: tuple[int, int]
    play_area: Polygon
    seats: tuple[tuple[str, Polygon], ...]

    def seat_of(self, point: Point) -> str | None:
        """The seat whose zone holds the point, or None when it lies in no seat zone."""
        if not contains(self.play_area, point):
            return None
        return next((seat for seat, zone in self.seats if contains(zone, point)), None)

    def zone(self, seat: str) -> Polygon:
        """The polygon of one seat's zone."""
        for name, zone in self.seats:
            if name == seat:
                return zone
        raise CalibrationError(f"no zone for seat {seat!r}")

    def scaled_to(self, width: int, height: int) -> TableZones:
        """The same zones for frames of another size (the camera delivers a different size)."""
        if (width, height) == self.frame_size:
            return self
        sx, sy = width / self.frame_size[0], height / self.frame_size[1]

        def scale(polygon: Polygon) -> Polygon:
            return tuple((x * sx, y * sy) for x, y in polygon)

        return TableZones((width, height), scale(self.play_area),
                          tuple((seat, scale(zone)) for seat, zone in self.seats))

    def to_dict(self) -> dict[str, Any]:
        """Plain data, as stored in JSON and TOML."""

        def plain(polygon: Polygon) -> list[list[float]]:
            return [[round(x, 2), round(y, 2)] for x, y in polygon]

        return {
            "frame_size": list(self.frame_size),
            "play_area": plain(self.play_area),
            "seats": {seat: plain(zone) for seat, zone in self.seats},
        }

    @classmethod
    def from_dict(cls, data: object) -> TableZones:
        """Build zones from plain data; raises CalibrationError naming what is wrong."""
        if not isinstance(data, Mapping):
            raise CalibrationError(f"a calibration must be a table, got {data!r}")
        size = data.get("frame_size")
        if (not isinstance(size, Sequence) or len(size) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0
                           for v in size)):
            raise CalibrationError(f"frame_size must be [width, height] in pixels, got {size!r}")
        play_area = polygon_of(data.get("play_area"), "play_area")
        seats = data.get("seats")
        if not isinstance(seats, Mapping):
            raise CalibrationError(f"seats must map N, E, S, W to polygons, got {seats!r}")
        unknown = sorted(set(seats) - set(SEATS))
        missing = [seat for seat in SEATS if seat not in seats]
        if unknown or missing:
            raise CalibrationError(
                f"seats must be exactly N, E, S, W: missing {missing}, unknown {unknown}")
        zones = tuple((seat, polygon_of(seats[seat], f"seat {seat}")) for seat in SEATS)
        return cls((int(size[0]), int(size[1])), play_area, zones)


def default_zones(width: int, height: int, margin: float = 0.08) -> TableZones:
    """A central play area cut along its diagonals into N (top), E, S (bottom) and W zones."""
    x0, y0 = width * margin, height * margin
    x1, y1 = width * (1 - margin), height * (1 - margin)
    centre = (width / 2, height / 2)
    tl, tr, br, bl = (x0, y0), (x1, y0), (x1, y1), (x0, y1)
    return TableZones(
        (width, height),
        (tl, tr, br, bl),
        (("N", (tl, tr, centre)), ("E", (tr, br, centre)), ("S", (br, bl, centre)),
         ("W", (bl, tl, centre))),
    )


def load_zones(path: Path) -> TableZones:
    """Read zones from a JSON calibration file or the [calibration] table of a TOML config."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise CalibrationError(f"cannot read calibration {str(path)!r}: {error}") from error
    if path.suffix.lower() == ".toml":
        try:
            data: Any = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise CalibrationError(f"{str(path)!r}: {error}") from error
        if TOML_SECTION not in data:
            raise CalibrationError(f"{str(path)!r} has no [{TOML_SECTION}] table")
        return TableZones.from_dict(data[TOML_SECTION])
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise CalibrationError(f"{str(path)!r} is not JSON: {error}") from error
    if isinstance(data, Mapping) and TOML_SECTION in data:
        data = data[TOML_SECTION]
    return TableZones.from_dict(data)


def toml_section(zones: TableZones) -> str:
    """The [calibration] tables of a TOML config for these zones."""

    def array(polygon: list[list[float]]) -> str:
        return "[" + ", ".join(f"[{x:g}, {y:g}]" for x, y in polygon) + "]"

    data = zones.to_dict()
    lines = [f"[{TOML_SECTION}]",
             f"frame_size = [{data['frame_size'][0]}, {data['frame_size'][1]}]",
             f"play_area = {array(data['play_area'])}",
             "", f"[{TOML_SECTION}.seats]"]
    lines += [f"{seat} = {array(zone)}" for seat, zone in data["seats"].items()]
    return "\n".join(lines) + "\n"


_HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.\-\"' ]+?)\s*\]\]?\s*(#.*)?$")


def _without_section(text: str) -> str:
    """The TOML text with the [calibration] table and its sub-tables cut out."""
    kept: list[str] = []
    skipping = False
    for line in text.splitlines():
        header = _HEADER.match(line)
        if header:
            name = header.group(1).replace('"', "").replace("'", "").strip()
            skipping = name == TOML_SECTION or name.startswith(TOML_SECTION + ".")
        if not skipping:
            kept.append(line)
    while kept and not kept[-1].strip():
        kept.pop()
    return "\n".join(kept)


def save_zones(zones: TableZones, path: Path) -> None:
    """Write zones as JSON, or into the [calibration] table of a TOML config (kept otherwise)."""
    if path.suffix.lower() != ".toml":
        path.write_text(json.dumps(zones.to_dict(), indent=2) + "\n", encoding="utf-8")
        return
    rest = ""
    if path.exists():
        rest = _without_section(path.read_text(encoding="utf-8"))
        try:
            tomllib.loads(rest)
        except tomllib.TOMLDecodeError as error:
            raise CalibrationError(f"{str(path)!r} is not valid TOML: {error}") from error
    text = (rest + "\n\n" if rest else "") + toml_section(zones)
    path.write_text(text, encoding="utf-8")
