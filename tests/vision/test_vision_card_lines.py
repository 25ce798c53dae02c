"""Card quads made of four straight lines."""

from __future__ import annotations

import cv2
import numpy as np

from tools.scenes import paste_card, plain_card
from vision.card_lines import line_quads, line_segments
from vision.config import VisionConfig
from vision.outline_boxes import box_iou

CONFIG = VisionConfig()


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
