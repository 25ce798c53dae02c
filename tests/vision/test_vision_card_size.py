"""Recognition that knows the card length: sizes taken from the card, not from the view."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from tests.vision.dev_family import family_folder, family_reading
from tools.scenes import paste_card, plain_card, table_background
from tools.table_frame import cached_frame_folder
from vision.card_size import CARD_ASPECT, known_width
from vision.config import VisionConfig
from vision.corners import find_corners
from vision.detect import card_masks
from vision.live import LiveConfig, view_config
from vision.model import GlyphModel
from vision.pipeline import recognise, typical_width
from vision.read_search import least_edge

VIEW = 1080
"""A 1080p camera's play-area view, in which a card is about 140 px long."""
CARD = 140.0


def _quad(x: float, y: float, width: float, height: float) -> np.ndarray:
    return np.array([[x, y], [x + width, y], [x + width, y + height], [x, y + height]],
                    np.float32)


def test_the_known_width_is_a_poker_cards_share_of_its_length() -> None:
    assert known_width(VisionConfig()) is None
    assert known_width(VisionConfig(card_length=CARD)) == CARD * 63 / 88


def test_with_no_card_read_the_typical_width_is_the_known_cards_not_a_blobs() -> None:
    card, blob = _quad(100, 100, 100, 140), _quad(400, 400, 420, 300)
    unknown, known = VisionConfig(), VisionConfig(card_length=CARD)
    # From the view's size alone a card 100 px wide is too narrow for a 1080 px view (under
    # 0.12 of it): only the blob over several cards counts.
    assert typical_width([], [card, blob], VIEW, unknown) == 300
    assert typical_width([], [card, blob], VIEW, known) == 100
    assert typical_width([], [blob], VIEW, known) == CARD * CARD_ASPECT
    assert typical_width([], [], VIEW, unknown) is None
    # A card read tells the width, known length or not.
    read = _quad(0, 0, 90, 126)
    assert typical_width([read], [card, blob], VIEW, known) == 90


def test_the_least_side_of_an_unread_card_comes_from_the_known_width() -> None:
    view = np.zeros((VIEW, VIEW, 3), np.uint8)
    assert least_edge(view, None, VisionConfig()) == 0.12 * VIEW
    assert least_edge(view, None, VisionConfig(card_length=CARD)) == (
        VisionConfig().search_min_edge * CARD * CARD_ASPECT)
    assert least_edge(view, 80.0, VisionConfig(card_length=CARD)) == (
        VisionConfig().search_min_edge * 80.0)


def test_a_corner_of_a_covered_card_is_sought_at_the_known_cards_scale() -> None:
    scene = table_background(VIEW, VIEW, seed=5)
    outline = paste_card(scene, plain_card("K", "S"), (500.0, 500.0), CARD, 0.0)
    # Something dark lies over all of the card but a corner 55 px wide and 60 px high.
    left, top = outline.min(axis=0)
    cv2.rectangle(scene, (int(left) + 55, int(top) - 30), (int(left) + 200, int(top) + 220),
                  (40, 45, 60), -1)
    cv2.rectangle(scene, (int(left) - 30, int(top) + 60), (int(left) + 200, int(top) + 220),
                  (40, 45, 60), -1)
    config = view_config(VisionConfig(), LiveConfig())

    def near_tip(config: VisionConfig) -> bool:
        corners = find_corners(card_masks(scene, config), config, None)
        return any(np.linalg.norm(c.tip - (left, top)) < 8 for c in corners)

    # From the view's size alone, corner edges of 0.08 of its short side (86 px) are wanted.
    assert not near_tip(config)
    assert near_tip(replace(config, card_length=CARD))


def test_an_outline_three_card_lengths_long_is_no_card_when_the_length_is_known() -> None:
    # A card's picture 420 px long (on a box, a tray or a poster) in a view of 140 px cards.
    scene = table_background(VIEW, VIEW, seed=7)
    paste_card(scene, plain_card("K", "S"), (540.0, 540.0), 3 * CARD, 8.0)
    model = GlyphModel.load()
    config = view_config(VisionConfig(), LiveConfig())
    assert [o.name for o in recognise(scene, model, config) if o.whole] == ["KS"]
    assert [o.name for o in recognise(scene, model, replace(config, card_length=CARD))
            if o.whole] == [None]


def test_a_known_card_length_names_more_of_the_family_in_the_tables_view(
        shared_dir: Path) -> None:
    # Every fourth training-half photo of edje_train shrunk to 140 px and set in the middle of
    # a 1080 px play-area view (smaller for a photo whose cards are shorter), read with the
    # table's settings, knowing each view's card length or not.
    folder = cached_frame_folder(family_folder(shared_dir, CARD), CARD)
    scorer = shared_dir / "vision" / "score.py"
    view = view_config(VisionConfig(), LiveConfig())
    unknown = family_reading(folder, view, ("edje_train",), scorer, every=4)
    known = family_reading(folder, view, ("edje_train",), scorer, every=4, knowing_length=True)
    gained = known.identified - unknown.identified
    lost = unknown.identified - known.identified
    assert len(gained) > len(lost), f"gains {sorted(gained)}, loses {sorted(lost)}"
    assert known.wrong <= unknown.wrong
