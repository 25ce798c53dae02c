"""A second look only adds names: nothing named at the first look changes."""

from __future__ import annotations

import numpy as np

from vision.cards import CardObservation, Quad, Rank, Reading, Suit
from vision.doubt import in_doubt, merged, on_one_card


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
    # The second look names the first card otherwise, and gives a name already given.
    second = [_seen(2, 2, "JD"), _seen(200, 0, "JH")]
    out = merged(first, second)
    assert [o.name for o in out] == ["JH", None]


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
