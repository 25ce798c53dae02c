"""Cards found on a plain cloth by its colour: rendered mats of several colours and card sizes."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from tests.vision.finder_switch import without_finders
from tools.scenes import paste_card, plain_card
from vision.cards import Image, Quad
from vision.config import VisionConfig
from vision.detect import card_masks
from vision.finder_felt import cloth_colour, object_mask
from vision.outline_boxes import box_iou
from vision.propose import FINDERS, Search, find_cards

CONFIG = VisionConfig()
NO_CLOTH = without_finders(CONFIG, "cloth")
CLOTHS = {"green": (40, 85, 30), "blue": (120, 60, 25), "red": (35, 30, 120),
          "black": (28, 28, 28), "brown": (45, 70, 110)}
"""Cloth colours (BGR) of the rendered mats."""
RANKS = ("9", "10", "J", "Q", "K", "A")
SUITS = ("S", "H", "D", "C")


def _mat_scene(cloth: tuple[int, int, int], long_side: float, seed: int,
               size: tuple[int, int] = (1280, 720)) -> tuple[Image, list[Quad]]:
    """A cloth mat on a white table (clutter beyond it), lit unevenly, with eight cards of one
    length laid apart at random angles, slightly foreshortened; their true outlines."""
    rng = np.random.default_rng(seed)
    width, height = size
    frame = np.full((height, width, 3), 235, np.float32)
    # Clutter beyond the table's far edge: no plain colour around the frame's border.
    for x in range(0, width, 40):
        frame[: int(0.06 * height), x:x + 40] = rng.uniform(20, 200, 3)
    mat = np.zeros((height, width), np.uint8)
    cv2.fillConvexPoly(mat, np.array([[int(0.08 * width), int(0.1 * height)],
                                      [int(0.92 * width), int(0.08 * height)],
                                      [int(0.96 * width), int(0.95 * height)],
                                      [int(0.04 * width), int(0.97 * height)]], np.int32), 255)
    texture = rng.normal(0.0, 5.0, (height // 3 + 1, width // 3 + 1, 1)).astype(np.float32)
    cloth_layer = np.array(cloth, np.float32) + cv2.resize(texture, (width, height))[:, :, None]
    frame[mat > 0] = cloth_layer[mat > 0]
    columns, rows = 4, 2
    cell_w, cell_h = 0.8 * width / columns, 0.75 * height / rows
    truths: list[Quad] = []
    for k in range(columns * rows):
        centre = (0.12 * width + (k % columns + 0.5) * cell_w + rng.uniform(-0.1, 0.1) * cell_w,
                  0.15 * height + (k // columns + 0.5) * cell_h + rng.uniform(-0.1, 0.1) * cell_h)
        face = plain_card(RANKS[k % len(RANKS)], SUITS[(k + seed) % len(SUITS)])
        canvas = frame.astype(np.uint8)
        truths.append(paste_card(canvas, face, centre, long_side, float(rng.uniform(-40, 40)),
                                 tilt=float(rng.uniform(0.0, 0.12))))
        frame = canvas.astype(np.float32)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    light = 1.1 - 0.35 * (((xs - 0.3 * width) / width) ** 2 + ((ys - 0.4 * height) / height) ** 2)
    frame *= light[:, :, None]
    noisy = frame + rng.normal(0.0, 3.0, frame.shape).astype(np.float32)
    image = np.clip(cv2.GaussianBlur(noisy, (3, 3), 0.8), 0, 255).astype(np.uint8)
    _, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
    decoded = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
    assert decoded is not None
    return decoded, truths


def _cloth_quads(frame: Image) -> list[Quad]:
    """The cloth finder's own outlines of a frame, in frame pixels."""
    masks = card_masks(frame, CONFIG)
    own = FINDERS["cloth"].propose(Search(frame, masks, CONFIG))
    return [masks.to_frame(quad) for _, quad in own]


def _outlined(quads: list[Quad], truths: list[Quad], least: float = 0.7) -> int:
    """How many true outlines some found quad matches at a box IoU of at least `least`."""
    return sum(any(box_iou(q, t) >= least for q in quads) for t in truths)


def _strays(quads: list[Quad], truths: list[Quad]) -> int:
    """Found quads that overlap no true card."""
    return sum(all(box_iou(q, t) < 0.3 for t in truths) for q in quads)


@pytest.mark.parametrize("cloth", sorted(CLOTHS))
@pytest.mark.parametrize("long_side", [95.0, 140.0])
def test_every_card_on_a_mat_is_outlined(cloth: str, long_side: float) -> None:
    for seed in range(2):
        frame, truths = _mat_scene(CLOTHS[cloth], long_side, seed)
        quads = find_cards(frame, CONFIG)
        assert _outlined(quads, truths) == len(truths), (cloth, long_side, seed)
        assert _strays(quads, truths) <= 1  # the mat itself may be outlined, nothing else


@pytest.mark.parametrize("cloth", sorted(CLOTHS))
@pytest.mark.parametrize("long_side", [95.0, 140.0])
def test_the_cloth_finder_alone_outlines_every_card(cloth: str, long_side: float) -> None:
    for seed in range(2):
        frame, truths = _mat_scene(CLOTHS[cloth], long_side, seed + 10)
        quads = _cloth_quads(frame)
        assert _outlined(quads, truths) == len(truths), (cloth, long_side, seed)
        assert _strays(quads, truths) == 0


def test_the_cloth_finder_repeats_no_outline_found_otherwise() -> None:
    frame, truths = _mat_scene(CLOTHS["green"], 120.0, 3)
    masks = card_masks(frame, CONFIG)
    own = FINDERS["cloth"].propose(Search(frame, masks, CONFIG))
    assert len(own) == len(truths)
    assert FINDERS["cloth"].propose(Search(frame, masks, CONFIG, candidates=own)) == []


def _graphics(frame: Image, seed: int) -> None:
    """Printed table graphics: box outlines, lettering, an arc and coloured discs."""
    rng = np.random.default_rng(seed)
    height, width = frame.shape[:2]
    for _ in range(4):
        x, y = int(rng.uniform(0.1, 0.7) * width), int(rng.uniform(0.1, 0.7) * height)
        cv2.rectangle(frame, (x, y), (x + 120, y + 170), (230, 230, 225), 3)
    cv2.putText(frame, "DEALER MUST DRAW TO 16", (int(0.15 * width), int(0.85 * height)),
                cv2.FONT_HERSHEY_DUPLEX, 2.0, (200, 235, 240), 4, cv2.LINE_AA)
    cv2.putText(frame, "PAYS 2 TO 1", (int(0.4 * width), int(0.45 * height)),
                cv2.FONT_HERSHEY_COMPLEX, 1.4, (230, 230, 230), 3, cv2.LINE_AA)
    cv2.ellipse(frame, (width // 2, 0), (width // 3, height // 2), 0, 0, 180, (220, 220, 220), 4)
    for k in range(3):
        cv2.circle(frame, (int(0.2 * width) + 150 * k, int(0.3 * height)), 30, (30, 30, 160), -1)


@pytest.mark.parametrize("cloth", sorted(CLOTHS))
def test_printed_table_graphics_are_no_cards(cloth: str) -> None:
    for seed in range(2):
        frame = np.zeros((720, 1280, 3), np.uint8)
        frame[:] = CLOTHS[cloth]
        _graphics(frame, seed)
        before = find_cards(frame, NO_CLOTH)
        added = [q for q in find_cards(frame, CONFIG)
                 if not any(box_iou(q, other) > 0.9 for other in before)]
        assert added == [], (cloth, seed)


@pytest.mark.parametrize("grey", [200, 225, 245])
def test_no_cloth_is_seen_on_paper(grey: int) -> None:
    rng = np.random.default_rng(grey)
    frame = np.clip(grey + rng.normal(0.0, 4.0, (360, 640, 3)), 0, 255).astype(np.uint8)
    felt = CONFIG.felt_finder
    assert felt is not None
    assert cloth_colour(cv2.cvtColor(frame, cv2.COLOR_BGR2LAB), felt) is None
    assert object_mask(frame, felt) is None


def test_the_cloth_colour_is_the_mat_in_every_scene() -> None:
    felt = CONFIG.felt_finder
    assert felt is not None
    for seed, (name, bgr) in enumerate(sorted(CLOTHS.items())):
        frame, _ = _mat_scene(bgr, 120.0, seed)
        lab = cv2.cvtColor(frame, cv2.COLOR_BGR2LAB)
        colour = cloth_colour(lab, felt)
        assert colour is not None, name
        pixel = np.array([[bgr]], np.uint8)
        expected = cv2.cvtColor(pixel, cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32)
        assert float(np.linalg.norm(colour[1:] - expected[1:])) < 12.0, name


def test_webcam_felt_cards_are_outlined_at_its_own_size(shared_dir) -> None:  # type: ignore[no-untyped-def]
    folder = shared_dir / "vision"
    labels = json.loads((folder / "labels.json").read_text())
    keys = [k for k, r in labels["images"].items() if r["set"] == "webcam_felt"]
    if not keys:
        pytest.skip(f"no webcam_felt photos in {folder / 'labels.json'}")
    counts = {"with": 0, "without": 0, "cards": 0}
    for key in keys:
        frame = cv2.imread(str(folder / "dev" / key))
        assert frame is not None, key
        truths = [np.array([[c["box"][0], c["box"][1]], [c["box"][2], c["box"][1]],
                            [c["box"][2], c["box"][3]], [c["box"][0], c["box"][3]]], np.float32)
                  for c in labels["images"][key]["cards"] if not c.get("partial")]
        counts["cards"] += len(truths)
        counts["with"] += _outlined(find_cards(frame, CONFIG), truths, 0.5)
        counts["without"] += _outlined(find_cards(frame, NO_CLOTH), truths, 0.5)
    assert counts["with"] >= 0.9 * counts["cards"], counts
    assert counts["with"] > counts["without"], counts
