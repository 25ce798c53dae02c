"""Blurred index views restored by deconvolution with the blur measured on them."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.glyphs_only import glyph_config
from tests.vision.labelled import webcam_ten_names
from tools.synthetic import artwork_cards
from vision.cards import Image
from vision.config import VisionConfig
from vision.deblur_restore import Blur, measured_blur, point_spread, restored
from vision.glyphs import index_views
from vision.imageio import read_image
from vision.model import GlyphModel
from vision.pipeline import recognise
from vision.read import read_views

ARTWORK = Path(__file__).resolve().parents[2] / "vision" / "data" / "artwork"
LOOKS = (0.0, 0.4, 0.7, -0.3)
RESTORING = replace(glyph_config(), restore_looks=LOOKS)


def _faces() -> list[tuple[str, Image]]:
    faces = [(name, face) for name, face in artwork_cards(ARTWORK) if name != "JK"]
    assert len(faces) == 24, f"expected the 24 euchre faces in {ARTWORK}"
    return faces


def _views(face: Image, width: int, blur: Blur | None = None) -> list[Image]:
    """The index views of an artwork face drawn `width` pixels wide, blurred by `blur`."""
    height = round(face.shape[0] * width / face.shape[1])
    card = cv2.resize(face, (width, height), interpolation=cv2.INTER_AREA)
    if blur is not None:
        card = cv2.filter2D(card, -1, point_spread(blur), borderType=cv2.BORDER_REPLICATE)
    quad = np.array([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]],
                    np.float32)
    return index_views(card, quad, glyph_config())


def _blurred_view(name: str, blur: Blur) -> Image:
    """One index view (at the reference card's 200 px, so view pixels are drawn pixels) blurred
    by a known point spread."""
    (view, _) = _views(dict(_faces())[name], 200)
    return cv2.filter2D(view, -1, point_spread(blur), borderType=cv2.BORDER_REPLICATE)


def test_point_spread_sums_to_one_and_lies_along_its_line() -> None:
    kernel = point_spread(Blur(sigma=0.0, length=8.0, angle=math.pi / 2))
    assert float(kernel.sum()) == pytest.approx(1.0)
    centre = kernel.shape[1] // 2
    assert float(kernel[:, centre - 1 : centre + 2].sum()) == pytest.approx(1.0)


@pytest.mark.parametrize("name", ["9C", "QH", "TD"])
@pytest.mark.parametrize("sigma", [1.5, 2.5])
def test_measured_blur_finds_a_gaussian(name: str, sigma: float) -> None:
    found = measured_blur(_blurred_view(name, Blur(sigma, 0.0, 0.0)), glyph_config())
    assert 0.7 * sigma <= found.sigma <= 1.2 * sigma


@pytest.mark.parametrize("name", ["9C", "QH", "AS"])
@pytest.mark.parametrize(("length", "degrees"), [(8.0, 90), (10.0, 0), (8.0, 45)])
def test_measured_blur_finds_a_smear_and_its_direction(name: str, length: float,
                                                      degrees: int) -> None:
    blur = Blur(0.5, length, math.radians(degrees))
    found = measured_blur(_blurred_view(name, blur), glyph_config())
    assert found.length == pytest.approx(length, rel=0.25)
    turn = abs(math.degrees(found.angle) - degrees) % 180
    assert min(turn, 180 - turn) <= 15


def test_sharp_views_are_not_restored() -> None:
    for _, face in _faces()[::3]:
        for view in _views(face, 200):
            assert restored(view, glyph_config()) is None


def test_restoring_steepens_a_blurred_view() -> None:
    view = _blurred_view("AS", Blur(2.0, 0.0, 0.0))
    again = restored(view, glyph_config())
    assert again is not None
    assert measured_blur(again, glyph_config()).sigma < measured_blur(view, glyph_config()).sigma


def test_rendered_blurred_corners_read_restored_and_never_wrong() -> None:
    model = GlyphModel.load()
    plain = replace(glyph_config(), sharpen_looks=())
    restoring = replace(RESTORING, sharpen_looks=())
    counts = {"plain": 0, "restored": 0}
    for name, face in _faces():
        views = _views(face, 140, Blur(1.5, 0.0, 0.0))
        for key, config in (("plain", plain), ("restored", restoring)):
            reading, _ = read_views(views, model, config)
            if reading is not None:
                assert reading.rank.value + (reading.suit.value if reading.suit else "") == name
                counts[key] += 1
    assert counts["plain"] == 0
    assert counts["restored"] >= 5


def test_sharp_rendered_corners_pay_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    def not_blurred(view: Image, config: VisionConfig) -> Image | None:
        raise AssertionError("a sharp view was restored")

    monkeypatch.setattr("vision.read.restored", not_blurred)
    model = GlyphModel.load()
    for _, face in _faces():
        read_views(_views(face, 140), model, RESTORING)


def test_webcam_ten_of_clubs_reads_restored_instead_of_sharpened(shared_dir: Path) -> None:
    # The wider index views read it as it is: off, so that only the restored look can.
    plain = dict(sharpen_looks=(), wide_index_windows=())
    assert webcam_ten_names(shared_dir, replace(glyph_config(), **plain)) == []
    assert webcam_ten_names(shared_dir, replace(RESTORING, **plain)) == ["TC"]


def test_cable_crossed_queen_stays_unread_restored(shared_dir: Path) -> None:
    frame = read_image(shared_dir / "vision" / "dev" / "edje_train" / "IMG_2621.jpg")
    model = GlyphModel.load()
    # The queen's labelled box; leniently read, its index is `JS`.
    queen = [o for o in recognise(frame, model, RESTORING)
             if 53 <= o.corners[:, 0].mean() <= 218 and 33 <= o.corners[:, 1].mean() <= 214]
    assert queen
    assert all(o.name is None for o in queen)
