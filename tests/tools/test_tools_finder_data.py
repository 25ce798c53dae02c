"""Training scenes of the learned finder: a label for every pixel, faithful to what was drawn."""

from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np
import pytest

from tools.finder_data import (
    IGNORE,
    SCENE,
    Scene,
    SceneMaker,
    card_quad,
    labels_of,
    read_pattern,
)
from tools.reader_faces import Face, with_alpha
from vision.finder_net import STRIDE

ARTWORK = Path(__file__).resolve().parents[2] / "vision" / "data" / "artwork"


def _faces() -> list[Face]:
    faces = []
    for path in sorted(ARTWORK.glob("*.png")):
        if len(path.stem) != 2:
            continue
        image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
        faces.append(Face(with_alpha(image), path.stem[0], path.stem[1], "svg-cards"))
    return faces


def _owner(quads: list[np.ndarray]) -> np.ndarray:
    owner = np.zeros((SCENE, SCENE), np.int32)
    for k, quad in enumerate(quads, start=1):
        cv2.fillConvexPoly(owner, np.round(quad).astype(np.int32), k)
    return owner


def test_a_card_is_labelled_inside_with_an_edge_band_around_it() -> None:
    quad = card_quad(np.array([128.0, 128.0]), 120.0, 1.45, 0.3, np.random.default_rng(0))
    labels = labels_of(_owner([quad]), np.zeros((SCENE, SCENE), bool))
    assert labels.shape == (SCENE // STRIDE, SCENE // STRIDE)
    inside, edge = labels == 1, labels == 2
    # The card's area at label scale is its inside and its band; nothing else is marked.
    area = cv2.contourArea(quad) / STRIDE**2
    assert abs(int(inside.sum() + edge.sum()) - area) < 0.05 * area
    # The band surrounds the inside: no inside pixel touches the table.
    grown = cv2.dilate(inside.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    assert not (grown & (labels == 0)).any()


def test_touching_cards_are_parted_by_their_bands() -> None:
    rng = np.random.default_rng(1)
    left = card_quad(np.array([90.0, 128.0]), 110.0, 1.45, 0.0, rng)
    right = left + np.array([left[:, 0].max() - left[:, 0].min(), 0], np.float32)
    labels = labels_of(_owner([left, right]), np.zeros((SCENE, SCENE), bool))
    count, _ = cv2.connectedComponents((labels == 1).astype(np.uint8), connectivity=4)
    assert count - 1 == 2


def test_unknown_pixels_are_ignored() -> None:
    unknown = np.zeros((SCENE, SCENE), bool)
    unknown[:40] = True
    labels = labels_of(np.zeros((SCENE, SCENE), np.int32), unknown)
    assert (labels[: 40 // STRIDE] == IGNORE).all()
    assert (labels[40 // STRIDE + 1:] == 0).all()


def test_a_back_painted_over_a_card_takes_its_pixels() -> None:
    faces = _faces()
    scene = Scene(np.full((SCENE, SCENE, 3), 60.0, np.float32))
    quad = card_quad(np.array([128.0, 128.0]), 100.0, 1.45, 0.0, np.random.default_rng(2))
    scene.paint(faces[0].image, quad, counts=True)
    scene.paint(faces[1].image, quad + np.array([40.0, 0.0], np.float32), counts=False)
    labels = labels_of(scene.owner, scene.unknown)
    # The card keeps only its uncovered strip: a third of its width or so.
    share = (labels > 0).sum() / (cv2.contourArea(quad) / STRIDE**2)
    assert 0.4 < share < 0.75


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_scenes_mark_cards_inside_their_edge_bands(seed: int) -> None:
    maker = SceneMaker(_faces(), [], None, [])
    rng = np.random.default_rng(seed)
    marked = 0
    for _ in range(6):
        image, labels = maker.make(rng)
        assert image.shape == (SCENE, SCENE, 3) and image.dtype == np.uint8
        assert labels.shape == (SCENE // STRIDE, SCENE // STRIDE)
        assert set(np.unique(labels)) <= {0, 1, 2, IGNORE}
        inside = (labels == 1).astype(np.uint8)
        marked += int(inside.any())
        # Every face's inside is wrapped in its edge band: none of it touches the table.
        grown = cv2.dilate(inside, np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], np.uint8)) > 0
        assert not (grown & (labels == 0)).any()
    assert marked >= 4


def test_the_same_seed_makes_the_same_scene() -> None:
    maker = SceneMaker(_faces(), [], None, [])
    first = maker.make(np.random.default_rng(7))
    second = maker.make(np.random.default_rng(7))
    assert (first[1] == second[1]).all()


def test_a_gimp_pattern_is_read(tmp_path: Path) -> None:
    pixels = np.arange(40 * 50 * 3, dtype=np.uint32).astype(np.uint8).reshape(40, 50, 3)
    name = b"test\x00"
    header = struct.pack(">5I4s", 24 + len(name), 1, 50, 40, 3, b"GPAT") + name
    path = tmp_path / "test.pat"
    path.write_bytes(header + pixels.tobytes())
    image = read_pattern(path)
    assert image is not None and image.shape == (40, 50, 3)
    assert (image[:, :, ::-1] == pixels).all()
    (tmp_path / "bad.pat").write_bytes(b"not a pattern at all, really not")
    assert read_pattern(tmp_path / "bad.pat") is None


def test_training_runs_two_steps_and_exports_for_opencv(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    import json

    from tools.train_finder import export, train
    from vision.finder_net import CLASSES, load_finder

    maker = SceneMaker(_faces(), [], None, [])
    checkpoint = tmp_path / "finder.pt"
    model = train(maker, 2, checkpoint, batch=2, log=lambda _: None, every=1, validate=4)
    assert checkpoint.exists()
    again = train(maker, 2, checkpoint, batch=2, log=lambda _: None, every=1, validate=4)
    for a, b in zip(model.state_dict().values(), again.state_dict().values(), strict=True):
        assert torch.equal(a, b)
    out = tmp_path / "finder.onnx"
    export(model, out)
    out.with_suffix(".json").write_text(json.dumps({"classes": list(CLASSES), "stride": STRIDE}))
    finder = load_finder(out)
    image, _ = maker.make(np.random.default_rng(3))
    frame = np.ascontiguousarray(image[:96, :160])
    blob = np.ascontiguousarray(frame.transpose(2, 0, 1)[None], np.float32)
    finder.net.setInput(blob)
    with torch.no_grad():
        expected = model(torch.from_numpy(blob)).numpy()
    assert np.allclose(finder.net.forward(), expected, atol=1e-3)
    assert finder.inside(frame).shape == frame.shape[:2]
