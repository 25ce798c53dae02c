"""Shrunk photo folders set into whole camera frames, boxes and quads moved with the photo."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.tools.rendered_folder import rendered_folder
from tools.scaling import cached_scaled_folder
from tools.table_frame import (
    cached_frame_folder,
    frame_size,
    in_frame,
    moved_record,
    view_card_length,
)
from vision.errors import VisionError


@pytest.mark.parametrize(("card", "size"), [(140.0, (1080, 1080)), (95.0, (732, 732)),
                                            (70.0, (540, 540))])
def test_the_view_keeps_the_cards_share_of_the_play_area(card: float,
                                                            size: tuple[int, int]) -> None:
    assert frame_size(card) == size


def test_the_photo_sits_unchanged_in_the_middle_of_its_border_colour() -> None:
    image = np.full((100, 60, 3), (20, 120, 30), np.uint8)
    image[40:60, 20:40] = 250
    frame, (dx, dy) = in_frame(image, 400, 300, seed=1)
    assert frame.shape == (300, 400, 3) and (dx, dy) == (170, 100)
    assert np.array_equal(frame[dy:dy + 100, dx:dx + 60], image)
    outside = frame[:50].reshape(-1, 3).mean(axis=0)
    assert np.allclose(outside, (20, 120, 30), atol=2.0)


def test_a_photo_larger_than_the_frame_is_not_cut() -> None:
    image = np.zeros((500, 900, 3), np.uint8)
    frame, offset = in_frame(image, 640, 360, seed=0)
    assert frame.shape == (500, 900, 3) and offset == (0, 0)


def test_boxes_and_quads_move_by_the_offset() -> None:
    record = {"width": 10, "height": 10,
              "cards": [{"card": "9C", "box": [1, 2, 3, 4],
                         "quad": [[1, 2], [3, 2], [3, 4], [1, 4]]},
                        {"card": "TD", "partial": True}]}
    moved = moved_record(record, 100, 50, 640, 360)
    assert moved["cards"][0]["box"] == [101, 52, 103, 54]
    assert moved["cards"][0]["quad"][2] == [103, 54]
    assert moved["cards"][1] == {"card": "TD", "partial": True}
    assert (moved["width"], moved["height"]) == (640, 360)
    assert record["width"] == 10


def test_a_framed_folder_keeps_every_card_where_its_labels_say(tmp_path: Path) -> None:
    source = rendered_folder(tmp_path / "photos", {"rendered": 2}, long_side=380.0)
    scaled = cached_scaled_folder(source, 95.0, tmp_path / "cache")
    framed = cached_frame_folder(scaled, 95.0, tmp_path / "cache")
    before = json.loads((scaled / "labels.json").read_text())["images"]
    after = json.loads((framed / "labels.json").read_text())["images"]
    assert after.keys() == before.keys()
    for key, record in after.items():
        image = cv2.imread(str(framed / "dev" / key))
        small = cv2.imread(str(scaled / "dev" / key))
        assert image.shape[:2] == (732, 732) == (record["height"], record["width"])
        for old, new in zip(before[key]["cards"], record["cards"], strict=True):
            x0, y0, x1, y1 = (round(v) for v in new["box"])
            ox0, oy0 = round(old["box"][0]), round(old["box"][1])
            inside = image[y0 + 5:y1 - 5, x0 + 5:x1 - 5].astype(int)
            there = small[oy0 + 5:oy0 + 5 + inside.shape[0], ox0 + 5:ox0 + 5 + inside.shape[1]]
            assert np.abs(inside - there.astype(int)).mean() < 6.0
    assert cached_frame_folder(scaled, 95.0, tmp_path / "cache") == framed
    assert {record["card_length"] for record in after.values()} == {95.0}


def test_a_photo_whose_cards_are_shorter_sits_in_the_view_of_its_own_card_length(
        tmp_path: Path) -> None:
    # Cards 80 px long are never enlarged to 95 px: under the table's camera they lie in the
    # smaller play area of a camera further away, which is read knowing their length.
    source = rendered_folder(tmp_path / "photos", {"rendered": 1}, long_side=80.0)
    scaled = cached_scaled_folder(source, 95.0, tmp_path / "cache")
    framed = cached_frame_folder(scaled, 95.0, tmp_path / "cache")
    record = json.loads((framed / "labels.json").read_text())["images"]["rendered/00.jpg"]
    assert 78.0 <= record["card_length"] <= 82.0
    side = frame_size(record["card_length"])[0]
    assert side < 720 < frame_size(95.0)[0]
    # The 1280x720 photo is larger than its own view (never cut), not set in a 732 px one.
    image = cv2.imread(str(framed / "dev" / "rendered" / "00.jpg"))
    assert image.shape[:2] == (720, 1280) == (record["height"], record["width"])


@pytest.mark.parametrize(("record", "length"), [
    ({"scaled_by": 0.25, "cards": [{"card": "9C", "box": [0, 0, 60, 140]}]}, 140.0),
    ({"scaled_by": 1.0, "cards": [{"card": "9C", "box": [0, 0, 70, 100]},
                                  {"card": "TD", "box": [0, 0, 80, 120]},
                                  {"card": "JS", "box": [0, 0, 90, 400], "partial": True}]},
     110.0),
    ({"cards": [{"card": "9C", "box": [0, 0, 60, 300]}]}, 140.0),
    ({"cards": [{"card": "9C", "partial": True}]}, 140.0),
])
def test_the_views_card_length_is_the_target_or_the_photos_own_shorter_one(
        record: dict[str, object], length: float) -> None:
    assert view_card_length(record, 140.0) == length


def test_a_folder_without_labels_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(VisionError, match="cannot read labels"):
        cached_frame_folder(tmp_path, 95.0, tmp_path / "cache")
