"""The finders behind their interfaces: registered by name, run in order, each only filling gaps."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from tools.scenes import paste_card, plain_card, table_background
from vision.cards import Image, Quad
from vision.config import VisionConfig
from vision.detect import card_masks
from vision.errors import VisionError
from vision.outline_boxes import box_iou
from vision.propose import (
    FINDERS,
    PART_FINDERS,
    Search,
    find_cards,
    finders_of,
    part_finders_of,
    unexplained_light,
)

CONFIG = VisionConfig()


def _table(cloth: tuple[int, int, int]) -> tuple[Image, list[Quad]]:
    """Four cards lying apart on a plain cloth, and their true outlines."""
    frame = np.full((480, 640, 3), cloth, np.uint8)
    truths = [paste_card(frame, plain_card(rank, suit), centre, 150.0, angle)
              for rank, suit, centre, angle in (("9", "S", (130, 130), 5.0),
                                                ("K", "H", (330, 140), -12.0),
                                                ("A", "D", (520, 250), 30.0),
                                                ("J", "C", (230, 350), 80.0))]
    return frame, truths


def test_every_shipped_finder_is_registered_in_priority_order() -> None:
    assert set(CONFIG.finders) == set(FINDERS) | set(PART_FINDERS)
    for found in (finders_of(CONFIG), part_finders_of(CONFIG)):
        priorities = [finder.priority for finder in found]
        assert priorities == sorted(priorities, reverse=True)
    assert all(FINDERS[name].name == name for name in FINDERS)
    assert all(PART_FINDERS[name].name == name for name in PART_FINDERS)


def test_the_part_finders_run_only_when_named_highest_priority_first() -> None:
    outlines_only = dataclasses.replace(CONFIG, finders=("outlines", "sides", "cloth"))
    assert part_finders_of(outlines_only) == []
    assert [f.name for f in part_finders_of(dataclasses.replace(
        CONFIG, finders=("index", "outlines", "corners")))] == ["corners", "index"]
    assert [f.name for f in finders_of(dataclasses.replace(CONFIG, finders=("index",)))] == []


def test_a_finder_not_registered_is_a_clear_error() -> None:
    config = dataclasses.replace(CONFIG, finders=("outlines", "no such finder"))
    with pytest.raises(VisionError, match="no such finder"):
        find_cards(np.zeros((120, 160, 3), np.uint8), config)
    with pytest.raises(VisionError, match="no such finder"):
        part_finders_of(config)


@pytest.mark.parametrize("cloth", [(40, 85, 30), (120, 60, 25), (60, 60, 60)])
def test_the_outline_finder_alone_outlines_cards_on_a_plain_cloth(
        cloth: tuple[int, int, int]) -> None:
    frame, truths = _table(cloth)
    quads = find_cards(frame, dataclasses.replace(CONFIG, finders=("outlines",)))
    assert all(any(box_iou(q, t) > 0.9 for q in quads) for t in truths)


def test_no_finder_proposes_nothing() -> None:
    frame, _ = _table((40, 85, 30))
    assert find_cards(frame, dataclasses.replace(CONFIG, finders=())) == []


def test_later_finders_fill_gaps_and_repeat_no_outline() -> None:
    frame, truths = _table((40, 85, 30))
    masks = card_masks(frame, CONFIG)
    search = Search(frame, masks, CONFIG)
    for finder in finders_of(CONFIG):
        search.candidates += [(finder.priority + score, quad)
                              for score, quad in finder.propose(search)]
    found = find_cards(frame, CONFIG)
    assert len(found) == len(truths)
    # The outline finder found every card: the ones after it offer none of them again.
    first = [quad for _, quad in FINDERS["outlines"].propose(Search(frame, masks, CONFIG))]
    assert len(first) >= len(truths)
    assert len(search.candidates) == len(first)


def test_no_light_is_left_unexplained_where_every_light_area_is_an_outlined_card() -> None:
    frame = table_background(640, 480)
    for centre, angle in (((180, 240), 10.0), ((450, 220), -20.0)):
        paste_card(frame, plain_card("A", "H"), centre, 220, angle)
    masks = card_masks(frame, CONFIG)
    quads = find_cards(frame, CONFIG, masks)
    assert len(quads) == 2
    outlined = [(1.0, q * masks.scale + masks.pad) for q in quads]
    cover = CONFIG.felt_finder.explained_area
    assert unexplained_light(Search(frame, masks, CONFIG, outlined), cover) is None
    # Without the outlines, the two cards are light area the cloth finder should look at.
    assert unexplained_light(Search(frame, masks, CONFIG), cover) is not None


def test_scattered_light_specks_leave_no_light_unexplained() -> None:
    frame = table_background(640, 480)
    rng = np.random.default_rng(3)
    for x, y in rng.integers(20, 460, size=(300, 2)):
        cv2.circle(frame, (int(x), int(y)), 4, (250, 250, 250), -1)
    masks = card_masks(frame, CONFIG)
    search = Search(frame, masks, CONFIG)
    # Together the specks cover far more than a card's area, each far less.
    assert cv2.countNonZero(masks.masks[0]) > 3 * CONFIG.min_card_area * search.area
    cover = CONFIG.felt_finder.explained_area
    assert unexplained_light(search, cover) is None
    cv2.rectangle(frame, (200, 150), (300, 290), (250, 250, 250), -1)
    assert unexplained_light(Search(frame, card_masks(frame, CONFIG), CONFIG), cover) is not None
