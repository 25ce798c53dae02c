"""The key reader on its own: properties of debouncing over generated chatter."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.debounce import KeyId, KeyReader, KeyTiming
from drivers.inputs import BidPressed, PassPressed, UndoPressed

TIMING = KeyTiming(settle_s=0.02, repeat_s=0.25, hold_s=2.0, confirm_s=10.0)
bounces = st.lists(st.floats(min_value=0.0001, max_value=0.0199), max_size=12)


def chatter(reader: KeyReader, key: KeyId, to: bool, gaps: list[float], now: float) -> tuple:
    """Edges alternating around the final state `to`, `gaps` apart; returns (events, time)."""
    events = []
    state = not to
    for gap in gaps:
        state = not state
        events += reader.edge(key, state, now)
        now += gap
    events += reader.edge(key, to, now)
    return events, now


@settings(max_examples=200, deadline=None)
@given(
    down=bounces,
    up=bounces,
    held=st.floats(min_value=0.03, max_value=1.5),
    rest=st.floats(min_value=0.03, max_value=2.0),
)
def test_any_chatter_gives_exactly_one_press(
    down: list[float], up: list[float], held: float, rest: float
) -> None:
    reader = KeyReader(TIMING)
    key = KeyId("5")
    events, now = chatter(reader, key, True, down, 10.0)
    events += reader.tick(now + held)
    more, now = chatter(reader, key, False, up, now + held)
    events += more + reader.tick(now + rest)
    assert events == [BidPressed(None, 5)]


@settings(max_examples=100, deadline=None)
@given(gaps=st.lists(st.floats(min_value=0.0, max_value=1.0), min_size=1, max_size=15))
def test_presses_count_once_per_repeat_window(gaps: list[float]) -> None:
    reader = KeyReader(TIMING)
    key = KeyId("PASS", "S")
    now = 100.0
    events = []
    accepted = []
    last = None
    for gap in gaps:
        events += reader.edge(key, True, now)
        if last is None or now - last >= TIMING.repeat_s:
            accepted.append(now)
            last = now
        now += 0.05
        events += reader.edge(key, False, now)
        now += 0.05 + gap
    events += reader.tick(now)
    assert events == [PassPressed("S")] * len(accepted)


@settings(max_examples=100, deadline=None)
@given(held=st.floats(min_value=0.03, max_value=4.0))
def test_undo_is_short_or_a_new_game_request_never_both(held: float) -> None:
    reader = KeyReader(TIMING)
    key = KeyId("UNDO")
    events = reader.edge(key, True, 0.0)
    events += reader.tick(held / 2)
    events += reader.edge(key, False, held)
    events += reader.tick(held + 1.0)
    names = [type(event).__name__ for event in events]
    if held < TIMING.hold_s:
        assert events == [UndoPressed(None)]
    else:
        assert names == ["NewGameRequested"]
