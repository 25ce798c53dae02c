"""What enrolment learns of one card in a frame: its index read and split, and its face."""

from __future__ import annotations

import numpy as np

from tools.scenes import paste_card, plain_card, table_background
from vision.config import VisionConfig
from vision.deck_faces import FaceViews
from vision.model import GlyphModel
from vision.propose import find_cards
from vision.samples import face_sample, index_sample


def test_a_lone_card_is_read_split_into_glyphs_and_its_face_kept() -> None:
    config = VisionConfig()
    frame = table_background(640, 480, seed=11)
    paste_card(frame, plain_card("Q", "H"), (320, 240), 420, 4)
    [quad] = find_cards(frame, config)
    sample = index_sample(frame, quad, GlyphModel.load(), config)
    assert len(sample.views) == 2
    assert sample.reading is not None and sample.reading.name == "QH"
    assert 0.0 < sample.confidence <= 1.0
    glyphs = sample.glyphs(config)
    assert glyphs and all(rank.shape == suit.shape for rank, suit in glyphs)
    face, views = face_sample(frame, quad)
    assert face.ndim == 1 and np.isfinite(face).all()
    assert isinstance(views, FaceViews)
