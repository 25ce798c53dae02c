"""A second look only adds names: nothing named at the first look changes; it seeks the
outlines the learned finder sees, the first look having sought the indices."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from tools.scenes import paste_card, table_background
from tools.synthetic import artwork_cards
from vision.cards import CardObservation, Quad, Rank, Reading, Suit
from vision.config import VisionConfig
from vision.deck_limit import within_deck
from vision.doubt import doubt_region, in_doubt, merged, on_one_card
from vision.model import GlyphModel
from vision.pipeline import StageClock, read_frame

ARTWORK = Path(__file__).resolve().parents[2] / "vision" / "data" / "artwork"


def _quad(x: float, y: float, width: float = 60.0, height: float = 90.0) -> Quad:
    return np.array([[x, y], [x + width, y], [x + width, y + height], [x, y + height]],
                    np.float32)


def _seen(x: float, y: float, name: str | None, whole: bool = True) -> CardObservation:
    reading = Reading(Rank(name[0]), Suit(name[1]), 0.9) if name else None
    return CardObservation(_quad(x, y), reading, 0.9 if name else 0.0, whole)


def test_doubt_is_anything_present_but_unread() -> None:
    assert not in_doubt([_seen(0, 0, "JH"), _seen(100, 0, "9C", whole=False)])
    assert in_doubt([_seen(0, 0, "JH"), _seen(100, 0, None)])
    assert in_doubt([_seen(100, 0, None, whole=False)])
    assert not in_doubt([])


def test_a_fresh_name_takes_the_place_of_the_unread_outline_it_lies_on() -> None:
    first = [_seen(0, 0, "JH"), _seen(200, 0, None)]
    second = [_seen(0, 0, "JH"), _seen(205, 5, "QS")]
    out = merged(first, second)
    assert sorted(o.name or "-" for o in out) == ["JH", "QS"]
    assert out[0] is first[0]


def test_names_of_the_first_look_never_change() -> None:
    first = [_seen(0, 0, "JH"), _seen(200, 0, None)]
    # The second look names the first card otherwise, and gives a name already given: the
    # deck constraint, not the merge, judges the name given twice.
    second = [_seen(2, 2, "JD"), _seen(200, 0, "JH")]
    out = merged(first, second)
    assert [o.name for o in out] == ["JH", "JH"]
    assert out[0] is first[0]
    assert [o.name for o in within_deck(out)] == ["JH", None]


def test_a_card_found_only_by_the_second_look_is_added() -> None:
    first = [_seen(0, 0, "JH")]
    second = [_seen(0, 0, "JH"), _seen(400, 300, "AS"), _seen(600, 300, None)]
    out = merged(first, second)
    assert [o.name for o in out] == ["JH", "AS"]


def test_two_fresh_names_on_one_card_give_one() -> None:
    first = [_seen(0, 0, None)]
    second = [_seen(0, 0, "TC"), _seen(10, 10, "9C")]
    assert [o.name for o in merged(first, second)] == ["TC"]


def test_outlines_lie_on_one_card_when_a_centre_is_inside_the_other() -> None:
    assert on_one_card(_quad(0, 0), _quad(20, 30))
    assert not on_one_card(_quad(0, 0), _quad(70, 0))
    # A corner's small outline on a card's corner: a quarter of the smaller is covered.
    assert on_one_card(_quad(0, 0), _quad(45, 70, 20, 25))


def test_the_second_look_is_around_what_was_left_unread() -> None:
    # Cards named whole are 90 px long: the region reaches a card length and a half beyond.
    region = doubt_region([_seen(0, 0, "JH"), _seen(500, 300, None)], 1920, 1080)
    assert region == (365.0, 165.0, 695.0, 525.0)
    assert doubt_region([_seen(0, 0, "JH"), _seen(500, 300, None)], 1920, 1080,
                        reach=1.0) == (410.0, 210.0, 650.0, 480.0)


def test_the_second_look_is_clipped_to_the_frame() -> None:
    assert doubt_region([_seen(900, 900, "JH"), _seen(10, 10, None)], 1920, 1080) == (
        0.0, 0.0, 205.0, 235.0)


def test_the_second_look_is_whole_without_a_card_length_or_where_doubt_is_wide() -> None:
    # Nothing named whole: how far a card beside the unread one reaches is not known.
    assert doubt_region([_seen(500, 300, None)], 1920, 1080) is None
    assert doubt_region([_seen(0, 0, "JH", whole=False), _seen(500, 300, None)],
                        1920, 1080) is None
    spread = [_seen(10, 10, "JH"), _seen(10, 10, None), _seen(1800, 900, None, whole=False)]
    assert doubt_region(spread, 1920, 1080) is None
    assert doubt_region([_seen(10, 10, "JH")], 1920, 1080) is None


def test_the_second_look_seeks_outlines_and_leaves_the_indices_to_the_first() -> None:
    scene = table_background(960, 540, seed=5)
    paste_card(scene, dict(artwork_cards(ARTWORK))["QH"], (300, 270), 140, 10)
    blank = np.full((490, 338, 3), 250, np.uint8)
    cv2.rectangle(blank, (0, 0), (337, 489), (150, 150, 150), 3)
    paste_card(scene, blank, (640, 270), 140, -15)
    clock = StageClock()
    observations = read_frame(scene, GlyphModel.load(), VisionConfig(), clock)
    assert in_doubt(observations)
    assert clock.calls["index finder"] == 1 and clock.calls["second look: masks"] == 1
    assert "second look: index finder" not in clock.calls
