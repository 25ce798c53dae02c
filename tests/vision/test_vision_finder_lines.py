"""Cards found by their outline lines: a white card on white paper or a light floor."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from tools.scenes import paste_card, plain_card, table_background
from vision.cards import Rank, Suit
from vision.config import VisionConfig
from vision.detect import _line_candidates, _unexplained_light, card_masks
from vision.finder_lines import line_quads, line_segments
from vision.model import GlyphModel
from vision.outline_boxes import box_iou
from vision.pipeline import recognise
from vision.propose import find_cards

CONFIG = VisionConfig()
NO_LINES = dataclasses.replace(CONFIG, lines=False)


def _card_on_paper(paper: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A borderless white card (level 248) on textured paper of grey level `paper`."""
    rng = np.random.default_rng(seed)
    height, width = 480, 640
    base = np.full((height, width), paper, np.float32)
    noise = rng.normal(0.0, 6.0, (height // 3, width // 3)).astype(np.float32)
    base += cv2.resize(noise, (width, height))
    frame = cv2.cvtColor(np.clip(base, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    face = plain_card("K", "S")
    face[face == 250] = 248
    face[:3], face[-3:], face[:, :3], face[:, -3:] = 248, 248, 248, 248
    truth = paste_card(frame, face, (300, 240), 260, 25.0)
    return frame, truth


@pytest.mark.parametrize("seed", [0, 1])
def test_a_white_card_on_white_paper_is_found_only_by_its_lines(seed: int) -> None:
    frame, truth = _card_on_paper(225, seed)
    assert max(box_iou(quad, truth) for quad in find_cards(frame, CONFIG)) > 0.9
    assert max((box_iou(quad, truth) for quad in find_cards(frame, NO_LINES)), default=0) < 0.5


def test_a_card_found_by_its_lines_is_read() -> None:
    frame, truth = _card_on_paper(225)
    model = GlyphModel.load()
    read = [o for o in recognise(frame, model, CONFIG) if o.reading is not None]
    assert [(o.reading.rank, o.reading.suit) for o in read if o.reading] == [
        (Rank.KING, Suit.SPADES)
    ]
    assert box_iou(read[0].corners, truth) > 0.9
    assert all(o.reading is None for o in recognise(frame, model, NO_LINES))


def test_a_drawn_outline_gives_one_quad() -> None:
    gray = np.full((300, 400), 200, np.uint8)
    cv2.rectangle(gray, (100, 60), (199, 204), 235, -1)
    segments = line_segments(gray, 1.0, 30.0, 80)
    quads = line_quads(gray, segments, CONFIG, 40.0, 400.0)
    assert len(quads) == 1
    quad, support = quads[0]
    card = np.array([[100, 60], [199, 60], [199, 204], [100, 204]], np.float32)
    assert box_iou(quad, card) > 0.95
    assert support > 0.9


def test_a_quad_of_lines_with_an_edge_across_it_is_no_card() -> None:
    # A light rectangle of card shape on paper with a straight edge across it a quarter down:
    # the corner of another card lying on it, not one card.
    frame = np.full((480, 640, 3), 225, np.uint8)
    frame[140:340, 250:390] = 248
    outline = np.array([[250, 140], [389, 140], [389, 339], [250, 339]], np.float32)
    masks = card_masks(frame, CONFIG)
    frame_area = masks.masks[0].shape[0] * masks.masks[0].shape[1]
    in_mask = outline * masks.scale + masks.pad
    found = _line_candidates(masks, [], frame_area, CONFIG)
    assert any(box_iou(quad, in_mask) > 0.95 for _, quad in found)
    frame[189:191, 250:390] = 200
    masks = card_masks(frame, CONFIG)
    assert not any(box_iou(quad, in_mask) > 0.6
                   for _, quad in _line_candidates(masks, [], frame_area, CONFIG))


def test_no_lines_are_sought_where_every_light_area_is_an_outlined_card() -> None:
    frame = table_background(640, 480)
    for centre, angle in (((180, 240), 10.0), ((450, 220), -20.0)):
        paste_card(frame, plain_card("A", "H"), centre, 220, angle)
    masks = card_masks(frame, CONFIG)
    frame_area = masks.masks[0].shape[0] * masks.masks[0].shape[1]
    quads = find_cards(frame, NO_LINES, masks)
    assert len(quads) == 2
    outlined = [(1.0, q * masks.scale + masks.pad) for q in quads]
    assert _unexplained_light(masks, outlined, frame_area, CONFIG) is None
    # Without the outlines, the two cards are light area a line finder should look at.
    assert _unexplained_light(masks, [], frame_area, CONFIG) is not None


def test_scattered_light_specks_are_no_reason_to_look_for_lines() -> None:
    frame = table_background(640, 480)
    rng = np.random.default_rng(3)
    for x, y in rng.integers(20, 460, size=(300, 2)):
        cv2.circle(frame, (int(x), int(y)), 4, (250, 250, 250), -1)
    masks = card_masks(frame, CONFIG)
    frame_area = masks.masks[0].shape[0] * masks.masks[0].shape[1]
    # Together the specks cover far more than a card's area, each far less.
    assert cv2.countNonZero(masks.masks[0]) > 3 * CONFIG.min_card_area * frame_area
    assert _unexplained_light(masks, [], frame_area, CONFIG) is None
    cv2.rectangle(frame, (200, 150), (300, 290), (250, 250, 250), -1)
    assert _unexplained_light(card_masks(frame, CONFIG), [], frame_area, CONFIG) is not None
