"""Seat zones: which seat a point belongs to, scaling, and saving to JSON and TOML."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from vision.zones import (
    CalibrationError,
    TableZones,
    contains,
    default_zones,
    load_zones,
    save_zones,
)


def test_default_zones_put_each_side_in_its_seat() -> None:
    zones = default_zones(1000, 800)
    assert zones.seat_of((500, 150)) == "N"
    assert zones.seat_of((850, 400)) == "E"
    assert zones.seat_of((500, 700)) == "S"
    assert zones.seat_of((150, 400)) == "W"


def test_points_outside_the_play_area_have_no_seat() -> None:
    zones = default_zones(1000, 800)
    assert zones.seat_of((10, 10)) is None
    assert zones.seat_of((995, 400)) is None


def test_contains_follows_a_concave_outline() -> None:
    l_shape = ((0.0, 0.0), (10.0, 0.0), (10.0, 4.0), (4.0, 4.0), (4.0, 10.0), (0.0, 10.0))
    assert contains(l_shape, (2, 8))
    assert not contains(l_shape, (8, 8))


def test_scaling_moves_the_zones_with_the_frame() -> None:
    zones = default_zones(640, 360).scaled_to(1280, 720)
    assert zones.frame_size == (1280, 720)
    assert zones.seat_of((640, 100)) == "N"
    assert zones.play_area[0] == pytest.approx((640 * 0.08 * 2, 360 * 0.08 * 2))


def test_json_round_trip(tmp_path: Path) -> None:
    zones = default_zones(1280, 720)
    path = tmp_path / "calibration.json"
    save_zones(zones, path)
    assert json.loads(path.read_text())["seats"]["E"]
    assert load_zones(path) == TableZones.from_dict(zones.to_dict())


def test_toml_keeps_the_rest_of_the_config(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text('[camera]\nkind = "usb"\n\n[calibration]\nframe_size = [1, 1]\n'
                    '[calibration.seats]\nN = 3\n\n[gpio]\nlayout = "shared"\n')
    zones = default_zones(1280, 720)
    save_zones(zones, path)
    data = tomllib.loads(path.read_text())
    assert data["camera"] == {"kind": "usb"}
    assert data["gpio"] == {"layout": "shared"}
    assert load_zones(path).seat_of((640, 100)) == "N"
    save_zones(zones, path)
    assert path.read_text().count("[calibration]") == 1


@pytest.mark.parametrize(
    ("data", "named"),
    [
        ({"frame_size": [10, 10], "play_area": [[0, 0], [1, 1]], "seats": {}}, "play_area"),
        ({"frame_size": [0, 10], "play_area": [], "seats": {}}, "frame_size"),
        ({"frame_size": [10, 10], "play_area": [[0, 0], [9, 0], [9, 9]],
          "seats": {"N": [[0, 0], [9, 0], [9, 9]]}}, "missing"),
        ({"frame_size": [10, 10], "play_area": [[0, 0], [9, 0], [9, 9]],
          "seats": {s: [[0, 0], [1, 1], [2, 2]] for s in "NESW"}}, "no area"),
        ({"frame_size": [10, 10], "play_area": [[0, 0], [9, "x"], [9, 9]], "seats": {}},
         "'x'"),
    ],
)
def test_bad_calibrations_are_refused_with_the_reason(data: object, named: str) -> None:
    with pytest.raises(CalibrationError, match=named):
        TableZones.from_dict(data)


def test_a_toml_without_calibration_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text('[camera]\nkind = "usb"\n')
    with pytest.raises(CalibrationError, match="no \\[calibration\\]"):
        load_zones(path)
    with pytest.raises(CalibrationError, match="cannot read"):
        load_zones(tmp_path / "missing.json")
