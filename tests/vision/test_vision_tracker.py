"""The card tracker on scripted observation streams (10 frames per second)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from vision.cards import CardObservation, Rank, Reading, Suit, parse_card
from vision.decide import shipped_decision
from vision.tracker import CardEvent, CardTracker, EventKind, TrackerConfig, TrackerError
from vision.zones import default_zones

ZONES = default_zones(1000, 800)
SPOT = {"N": (500.0, 200.0), "E": (750.0, 400.0), "S": (500.0, 600.0), "W": (250.0, 400.0)}
STEP = 0.1
SURE = round((1.0 + TrackerConfig().read_confidence) / 2, 3)
"""A reading the tracker counts as a vote: above the shipped decision's threshold."""
QUICK = TrackerConfig(unread_stable_time=0.3)
"""Unread cards placed after the same wait as named ones, for tests of voting and following."""


def card(centre: tuple[float, float], name: str | None = "TH", confidence: float = SURE,
         long_side: float = 140.0, angle: float = 0.0) -> CardObservation:
    """An observation of a card outline centred at `centre`."""
    half = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32) * [
        long_side / 1.45 / 2, long_side / 2]
    theta = math.radians(angle)
    rotation = np.array([[math.cos(theta), -math.sin(theta)], [math.sin(theta), math.cos(theta)]])
    corners = (half @ rotation.T + np.array(centre)).astype(np.float32)
    reading = None
    if name is not None:
        rank, suit = parse_card(name)
        reading = Reading(rank, suit, confidence)
    return CardObservation(corners, reading, confidence)


def run(tracker: CardTracker, frames: list[list[CardObservation]], start: float = 0.0,
        is_clear: bool | None = None) -> list[CardEvent]:
    """Feed frames at 10 fps; returns every event."""
    events = []
    clear = None if is_clear is None else (lambda corners: is_clear)
    for index, observations in enumerate(frames):
        events += tracker.update(start + index * STEP, observations, clear)
    return events


def test_a_still_card_is_placed_once_after_the_stable_time() -> None:
    tracker = CardTracker(ZONES, QUICK)
    events = run(tracker, [[card(SPOT["E"])]] * 3)
    assert events == []
    events = run(tracker, [[card(SPOT["E"])]] * 20, start=0.3)
    assert events == [CardEvent(EventKind.PLACED, 0.3, "E", "TH", SURE)]
    assert events[0].to_json() == {"event": "placed", "t": 0.3, "seat": "E", "card": "TH",
                                   "confidence": SURE, "at": [750.0, 400.0]}


def test_the_stable_time_is_configurable() -> None:
    tracker = CardTracker(ZONES, TrackerConfig(stable_time=1.0))
    events = run(tracker, [[card(SPOT["N"])]] * 15)
    assert [e.kind for e in events] == [EventKind.PLACED]
    assert events[0].t == pytest.approx(1.0)


def test_a_card_gone_for_the_stable_time_is_removed_with_its_identity() -> None:
    tracker = CardTracker(ZONES, QUICK)
    run(tracker, [[card(SPOT["S"], "JD")]] * 6)
    events = run(tracker, [[]] * 6, start=0.6)
    assert events == [CardEvent(EventKind.REMOVED, events[0].t, "S", "JD", SURE)]
    assert events[0].t == pytest.approx(0.9)
    assert tracker.on_table == []


def test_a_card_covered_for_a_moment_creates_and_removes_nothing() -> None:
    tracker = CardTracker(ZONES, QUICK)
    here = [card(SPOT["W"], "AS")]
    frames = [here] * 5 + [[]] * 2 + [here] * 5 + [[]] * 2 + [here] * 5
    events = run(tracker, frames)
    assert [e.kind for e in events] == [EventKind.PLACED]


def test_a_hand_resting_on_a_card_does_not_remove_it() -> None:
    tracker = CardTracker(ZONES, QUICK)
    run(tracker, [[card(SPOT["W"], "AS")]] * 5)
    assert run(tracker, [[]] * 20, start=0.5, is_clear=False) == []
    assert run(tracker, [[card(SPOT["W"], "AS")]] * 5, start=2.5) == []
    removed = run(tracker, [[]] * 5, start=3.0, is_clear=True)
    assert [(e.kind, e.card) for e in removed] == [(EventKind.REMOVED, "AS")]


def test_a_moving_hand_or_a_flickering_shape_creates_nothing() -> None:
    tracker = CardTracker(ZONES, QUICK)
    sweep = [[card((200.0 + 45 * i, 380.0), None, 0.0)] for i in range(14)]
    flicker = [[card(SPOT["N"], None, 0.1)] if i % 3 == 0 else [] for i in range(30)]
    assert run(tracker, sweep + flicker) == []


def test_a_card_that_settles_is_placed_only_once_it_lies_still() -> None:
    tracker = CardTracker(ZONES, QUICK)
    sliding = [[card((700.0 + 20 * i, 400.0))] for i in range(5)]
    still = [[card((780.0, 400.0))]] * 6
    events = run(tracker, sliding + still)
    assert [(e.kind, round(e.t, 1)) for e in events] == [(EventKind.PLACED, 0.7)]


def test_a_nudged_card_stays_the_same_card() -> None:
    tracker = CardTracker(ZONES, QUICK)
    x, y = SPOT["N"]
    frames = [[card((x, y), "KC")]] * 5
    frames += [[card((x + 6 * i, y + 3 * i), "KC", angle=i)] for i in range(1, 6)]
    frames += [[]] * 2 + [[card((x + 60, y + 40), "KC", angle=8)]] * 8
    events = run(tracker, frames)
    assert [(e.kind, e.card) for e in events] == [(EventKind.PLACED, "KC")]
    (track,) = tracker.on_table
    assert track.centre == pytest.approx((x + 60, y + 40))


def test_a_card_laid_where_one_was_taken_unseen_is_placed_as_itself() -> None:
    """A slow camera may miss a card taken and another laid in its place: a sure reading of
    another card starts a card of its own, and the one before is taken once the zone is clear."""
    tracker = CardTracker(ZONES, QUICK)
    run(tracker, [[card(SPOT["N"], "TH")]] * 5)
    events = run(tracker, [[card(SPOT["N"], "JC")]] * 5, start=0.5, is_clear=False)
    assert [(e.kind, e.card) for e in events] == [(EventKind.PLACED, "JC")]
    assert sorted(str(track.card) for track in tracker.on_table) == ["JC", "TH"]
    events = run(tracker, [[card(SPOT["N"], "JC")]] * 5, start=1.0, is_clear=True)
    assert [(e.kind, e.card) for e in events] == [(EventKind.REMOVED, "TH")]


def test_an_unsure_reading_of_another_card_does_not_end_a_card_lying_there() -> None:
    tracker = CardTracker(ZONES, QUICK)
    run(tracker, [[card(SPOT["N"], "TH")]] * 5)
    unsure = round(TrackerConfig().read_confidence / 2, 3)
    assert run(tracker, [[card(SPOT["N"], "JC", unsure)]] * 10, start=0.5) == []
    assert [str(track.card) for track in tracker.on_table] == ["TH"]


def test_low_confidence_makes_an_unreadable_card_in_its_zone() -> None:
    tracker = CardTracker(ZONES, QUICK)
    events = run(tracker, [[card(SPOT["E"], "QS", 0.55)]] * 6)
    assert events == [CardEvent(EventKind.UNREADABLE, events[0].t, "E", None, 0.55)]
    assert events[0].t == pytest.approx(0.3)
    assert events[0].to_json()["card"] is None


def test_an_unread_card_is_given_longer_than_a_named_one_before_it_is_placed() -> None:
    tracker = CardTracker(ZONES)
    events = run(tracker, [[card(SPOT["E"], "QS", 0.55)]] * 12)
    assert [e.kind for e in events] == [EventKind.UNREADABLE]
    assert events[0].t == pytest.approx(TrackerConfig().unread_stable_time)


def test_a_card_held_still_for_less_than_the_unread_wait_makes_nothing() -> None:
    tracker = CardTracker(ZONES)
    frames = [[card(SPOT["W"], None, 0.2)]] * 5 + [[]] * 10
    assert run(tracker, frames) == []


def test_a_card_read_during_the_unread_wait_is_placed_named() -> None:
    tracker = CardTracker(ZONES)
    frames = [[card(SPOT["N"], None, 0.2)]] * 4 + [[card(SPOT["N"], "KD", SURE)]] * 8
    events = run(tracker, frames)
    assert [(e.kind, e.card) for e in events] == [(EventKind.PLACED, "KD")]


def test_a_card_is_unreadable_only_after_as_many_looks_as_a_name_needs() -> None:
    """A slow camera looks at a card fewer times in the unread wait: it waits for the looks."""
    tracker = CardTracker(ZONES, QUICK)
    blank = [card(SPOT["W"], None, 0.0)]
    events = [e for t in (0.0, 0.5, 1.0) for e in tracker.update(t, blank, fresh=t < 1.0)]
    assert events == []
    events = tracker.update(1.5, blank)
    assert [(e.kind, e.seat) for e in events] == [(EventKind.UNREADABLE, "W")]


def test_a_card_whose_last_look_names_it_waits_for_the_looks_a_name_needs() -> None:
    tracker = CardTracker(ZONES, QUICK)
    blank, named = [card(SPOT["N"], None, 0.0)], [card(SPOT["N"], "TS", SURE)]
    events = run(tracker, [blank, blank, named, named, named])
    assert [(e.kind, e.card) for e in events] == [(EventKind.PLACED, "TS")]


def test_a_negative_unread_wait_is_refused() -> None:
    with pytest.raises(TrackerError, match="unread_stable_time"):
        TrackerConfig(unread_stable_time=-0.1)


def test_disagreeing_readings_make_an_unreadable_card() -> None:
    tracker = CardTracker(ZONES, QUICK)
    frames = [[card(SPOT["S"], "TH" if i % 2 else "TD", SURE)] for i in range(6)]
    events = run(tracker, frames)
    assert [(e.kind, e.card) for e in events] == [(EventKind.UNREADABLE, None)]


def test_a_single_confident_reading_among_misses_is_not_enough() -> None:
    tracker = CardTracker(ZONES, QUICK)
    frames = [[card(SPOT["S"], "TH", SURE)]] + [[card(SPOT["S"], None, 0.2)]] * 5
    assert [e.kind for e in run(tracker, frames)] == [EventKind.UNREADABLE]


def test_a_card_already_on_the_table_cannot_appear_again() -> None:
    tracker = CardTracker(ZONES, QUICK)
    frames = [[card(SPOT["N"], "JH"), card(SPOT["S"], "JH")]] * 6
    events = run(tracker, frames)
    assert sorted((e.seat, e.kind, e.card) for e in events) == [
        ("N", EventKind.PLACED, "JH"), ("S", EventKind.UNREADABLE, None)]
    assert sum(e.kind is EventKind.PLACED for e in events) == 1


def test_four_cards_of_a_trick_each_land_in_their_own_seat() -> None:
    tracker = CardTracker(ZONES, QUICK)
    names = {"N": "9C", "E": "AC", "S": "KC", "W": "QC"}
    frames: list[list[CardObservation]] = []
    for index in range(4):
        frames += [[card(SPOT[s], names[s]) for s in "NESW"[: index + 1]]] * 6
    events = run(tracker, frames)
    assert [(e.seat, e.card) for e in events] == [(s, names[s]) for s in "NESW"]


def test_cards_outside_every_seat_zone_are_ignored() -> None:
    tracker = CardTracker(ZONES, QUICK)
    assert run(tracker, [[card((20.0, 20.0))]] * 10) == []


def test_time_must_not_run_backwards() -> None:
    tracker = CardTracker(ZONES, QUICK)
    tracker.update(1.0, [])
    with pytest.raises(TrackerError, match=r"0\.5"):
        tracker.update(0.5, [])
    with pytest.raises(TrackerError, match="nan"):
        tracker.update(float("nan"), [])


def test_bad_settings_are_refused() -> None:
    with pytest.raises(TrackerError, match="stable_time"):
        TrackerConfig(stable_time=0.0)
    with pytest.raises(TrackerError, match="min_votes"):
        TrackerConfig(min_votes=0)


def test_readings_are_typed() -> None:
    observation = card(SPOT["N"], "TH")
    assert observation.reading == Reading(Rank.TEN, Suit.HEARTS, SURE)


def test_a_hand_merged_with_a_card_cannot_drag_it_away() -> None:
    tracker = CardTracker(ZONES, QUICK)
    x, y = SPOT["S"]
    frames = [[card((x, y), "9D")]] * 5
    frames += [[card((x + 20 * i, y + 25 * i), None, 0.0, long_side=220.0)] for i in range(1, 5)]
    frames += [[]] * 3 + [[card((x, y), "9D")]] * 6
    events = run(tracker, frames, is_clear=False)
    assert [(e.kind, e.card) for e in events] == [(EventKind.PLACED, "9D")]
    (track,) = tracker.on_table
    assert track.centre == pytest.approx((x, y))


def test_a_card_too_small_to_read_is_unreadable() -> None:
    tracker = CardTracker(ZONES, TrackerConfig(min_read_side=100.0, unread_stable_time=0.3))
    events = run(tracker, [[card(SPOT["N"], "AC", 1.0, long_side=80.0)]] * 6)
    assert [(e.kind, e.card) for e in events] == [(EventKind.UNREADABLE, None)]
    tracker = CardTracker(ZONES, QUICK)
    events = run(tracker, [[card(SPOT["N"], "AC", 1.0, long_side=60.0)]] * 6)
    assert [(e.kind, e.card) for e in events] == [(EventKind.UNREADABLE, None)]


@pytest.mark.parametrize("long_side", [82.0, 90.0, 95.0])
def test_a_card_at_the_cameras_size_is_named(long_side: float) -> None:
    # A 720p camera shows a card 90-95 px long, the far seat's a little shorter.
    tracker = CardTracker(ZONES, QUICK)
    events = run(tracker, [[card(SPOT["N"], "AC", SURE, long_side=long_side)]] * 6)
    assert [(e.kind, e.card) for e in events] == [(EventKind.PLACED, "AC")]


def test_unsure_readings_of_another_card_spoil_the_vote() -> None:
    tracker = CardTracker(ZONES, QUICK)
    sure, unsure = [card(SPOT["E"], "9C", SURE)], [card(SPOT["E"], "9S", 0.6)]
    assert [e.kind for e in run(tracker, [sure, unsure, sure, sure])] == [EventKind.UNREADABLE]
    tracker = CardTracker(ZONES, QUICK)
    assert [e.card for e in run(tracker, [sure, sure, sure, sure])] == ["9C"]


def test_reused_observations_count_for_presence_but_not_as_new_readings() -> None:
    tracker = CardTracker(ZONES, QUICK)
    seen = [card(SPOT["N"], "KH", SURE)]
    events: list[CardEvent] = []
    for index in range(6):
        events += tracker.update(index * STEP, seen, fresh=index == 0)
    assert events == [] and tracker.is_settling  # one look: neither named nor unreadable
    for index in range(6, 8):
        events += tracker.update(index * STEP, seen, fresh=True)
    assert [(e.kind, e.card, e.t) for e in events] == [(EventKind.PLACED, "KH", 7 * STEP)]
    tracker = CardTracker(ZONES, QUICK)
    assert tracker.update(0.0, seen) == [] and tracker.is_settling
    events = [e for i in range(1, 6) for e in tracker.update(i * STEP, seen, fresh=i < 3)]
    assert [(e.kind, e.card) for e in events] == [(EventKind.PLACED, "KH")]
    assert not tracker.is_settling


def test_an_index_corner_alone_does_not_make_a_card() -> None:
    tracker = CardTracker(ZONES, QUICK)
    whole = card(SPOT["E"], "AH", SURE)
    middle = np.array(SPOT["E"], np.float32)
    corner = CardObservation(whole.corners * 0.3 + middle * 0.7, whole.reading, SURE,
                             whole=False)
    assert run(tracker, [[corner]] * 10) == []


def test_an_unreadable_piece_inside_a_card_lying_there_is_not_a_new_card() -> None:
    tracker = CardTracker(ZONES, QUICK)
    placed = run(tracker, [[card(SPOT["S"])]] * 5)
    assert [e.kind for e in placed] == [EventKind.PLACED]
    x, y = SPOT["S"]
    piece = card((x + 15, y + 30), name=None, confidence=0.0, long_side=70.0)
    events = run(tracker, [[card(SPOT["S"]), piece]] * 10, start=0.5)
    assert events == []
    beside = card((x + 150, y), name=None, confidence=0.0)
    events = run(tracker, [[card(SPOT["S"]), beside]] * 10, start=1.5)
    assert [(e.kind, e.seat) for e in events] == [(EventKind.UNREADABLE, "S")]


@pytest.mark.parametrize("offset", [(0.0, -40.0), (45.0, 0.0), (-45.0, 0.0), (0.0, 40.0)])
def test_an_unreadable_piece_of_a_card_across_the_seat_line_is_not_a_new_card(
        offset: tuple[float, float]) -> None:
    centre = (500.0, 400.0)  # where the four seat zones meet
    tracker = CardTracker(ZONES, QUICK)
    placed = run(tracker, [[card(centre, long_side=300.0)]] * 5)
    assert [e.kind for e in placed] == [EventKind.PLACED]
    piece = card((centre[0] + offset[0], centre[1] + offset[1]), None, 0.0, long_side=120.0)
    assert run(tracker, [[card(centre, long_side=300.0), piece]] * 10, start=0.5) == []


def test_an_unreadable_outline_around_a_card_lying_there_is_not_a_new_card() -> None:
    tracker = CardTracker(ZONES, QUICK)
    run(tracker, [[card(SPOT["S"])]] * 5)
    around = card((SPOT["S"][0], SPOT["S"][1] - 210), None, 0.0, long_side=480.0)
    assert ZONES.seat_of(around.corners.mean(axis=0)) != "S"
    assert run(tracker, [[card(SPOT["S"]), around]] * 10, start=0.5) == []


def test_an_unreadable_card_laid_over_another_across_the_seat_line_is_placed() -> None:
    tracker = CardTracker(ZONES, QUICK)
    run(tracker, [[card((500.0, 470.0))]] * 5)
    over = card((500.0, 380.0), None, 0.0)
    events = run(tracker, [[card((500.0, 470.0)), over]] * 10, start=0.5)
    assert [(e.kind, e.seat) for e in events] == [(EventKind.UNREADABLE, "N")]


def test_a_card_placed_unreadable_is_identified_once_it_can_be_read_where_it_lies() -> None:
    tracker = CardTracker(ZONES, QUICK)
    events = run(tracker, [[card(SPOT["S"], None, 0.0)]] * 5)
    assert [(e.kind, e.card) for e in events] == [(EventKind.UNREADABLE, None)]
    # Straightened where it lies: nudged a little, and now read.
    nudged = (SPOT["S"][0] + 6, SPOT["S"][1] + 4)
    events = run(tracker, [[card(nudged, "QS", SURE, angle=4)]] * 5, start=0.5)
    assert [(e.kind, e.seat, e.card) for e in events] == [(EventKind.IDENTIFIED, "S", "QS")]
    assert events[0].t == pytest.approx(0.5 + 2 * STEP)
    assert tracker.on_table[0].card == "QS"
    events = run(tracker, [[]] * 5, start=1.0, is_clear=True)
    assert [(e.kind, e.card) for e in events] == [(EventKind.REMOVED, "QS")]


def test_a_card_lying_unreadable_is_not_named_by_a_few_stray_readings() -> None:
    tracker = CardTracker(ZONES, QUICK)
    run(tracker, [[card(SPOT["W"], None, 0.0)]] * 5)
    stray = [[card(SPOT["W"], "9H", SURE)], [card(SPOT["W"], None, 0.0)],
             [card(SPOT["W"], "KH", SURE)], [card(SPOT["W"], "9H", SURE)]]
    assert run(tracker, stray * 3, start=0.5) == []
    assert tracker.on_table[0].card is None


def test_a_card_read_late_as_one_already_on_the_table_stays_unreadable() -> None:
    tracker = CardTracker(ZONES, QUICK)
    run(tracker, [[card(SPOT["N"], "AH"), card(SPOT["E"], None, 0.0)]] * 5)
    events = run(tracker, [[card(SPOT["N"], "AH"), card(SPOT["E"], "AH")]] * 6, start=0.5)
    assert events == []
    assert [t.card for t in tracker.on_table] == ["AH", None]


@pytest.mark.parametrize("seat", ["N", "E", "S", "W"])
def test_freshness_is_told_per_observation(seat: str) -> None:
    tracker = CardTracker(ZONES, QUICK)
    other = "S" if seat == "N" else "N"
    kept, read = card(SPOT[seat], "QD", SURE), card(SPOT[other], "AS", SURE)
    events = tracker.update(0.0, [kept, read], fresh=[True, True])
    for index in range(1, 6):
        events += tracker.update(index * STEP, [kept, read], fresh=[False, True])
    assert [(e.seat, e.kind, e.card) for e in events] == [(other, EventKind.PLACED, "AS")]
    assert tracker.is_settling  # the card kept from one look waits for more


def test_freshness_flags_must_match_the_observations() -> None:
    tracker = CardTracker(ZONES, QUICK)
    with pytest.raises(TrackerError, match="freshness"):
        tracker.update(0.0, [card(SPOT["N"], "QD")], fresh=[True, False])


def test_every_event_carries_where_the_card_lies() -> None:
    tracker = CardTracker(ZONES, QUICK)
    x, y = SPOT["W"]
    events = run(tracker, [[card((x, y), None, 0.0)]] * 5)
    events += run(tracker, [[card((x + 6.04, y + 3.96), "KD", SURE)]] * 5, start=0.5)
    events += run(tracker, [[]] * 5, start=1.0, is_clear=True)
    assert [e.kind for e in events] == [EventKind.UNREADABLE, EventKind.IDENTIFIED,
                                        EventKind.REMOVED]
    assert events[0].centre == pytest.approx((x, y))
    assert events[1].centre == events[2].centre == pytest.approx((x + 6.04, y + 3.96))
    assert events[1].to_json()["at"] == [round(x + 6.04, 1), round(y + 3.96, 1)]


def test_where_a_card_lies_is_not_part_of_an_event_s_equality() -> None:
    here = CardEvent(EventKind.PLACED, 1.0, "N", "AS", SURE, (10.0, 20.0))
    there = CardEvent(EventKind.PLACED, 1.0, "N", "AS", SURE, (300.0, 40.0))
    unknown = CardEvent(EventKind.PLACED, 1.0, "N", "AS", SURE)
    assert here == there == unknown
    assert "at" not in unknown.to_json()
    assert here.to_json()["at"] == [10.0, 20.0]


def test_a_vote_is_a_reading_from_the_shipped_decisions_threshold_on() -> None:
    threshold = shipped_decision().threshold
    assert TrackerConfig().read_confidence == threshold
    below = run(CardTracker(ZONES, QUICK), [[card(SPOT["E"], "QS", threshold - 0.001)]] * 6)
    at = run(CardTracker(ZONES, QUICK), [[card(SPOT["E"], "QS", threshold)]] * 6)
    assert [(e.kind, e.card) for e in below] == [(EventKind.UNREADABLE, None)]
    assert [(e.kind, e.card) for e in at] == [(EventKind.PLACED, "QS")]
