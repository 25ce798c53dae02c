"""A recording's frames are made ahead in a thread of their own, in order, and paced on request."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from app.recorded_frames import at_recorded_pace, read_ahead


def made_in(threads: list[str], count: int) -> Iterator[int]:
    """0 .. count-1, noting the thread that made each."""
    for number in range(count):
        threads.append(threading.current_thread().name)
        yield number


def test_every_item_comes_in_order_made_in_another_thread() -> None:
    threads: list[str] = []
    assert list(read_ahead(made_in(threads, 10), depth=3)) == list(range(10))
    assert len(threads) == 10
    assert threading.current_thread().name not in threads


def test_items_are_made_at_most_depth_ahead_of_the_reader() -> None:
    threads: list[str] = []
    frames = read_ahead(made_in(threads, 100), depth=4)
    assert next(frames) == 0
    assert next(frames) == 1
    frames.close()  # waits for the worker, which made no more than it was asked for
    assert 2 <= len(threads) <= 6


def test_an_error_making_an_item_is_raised_where_it_is_read() -> None:
    def broken() -> Iterator[int]:
        yield 1
        raise OSError("card face missing")

    frames = read_ahead(broken())
    assert next(frames) == 1
    with pytest.raises(OSError, match="card face missing"):
        next(frames)


def test_a_depth_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 1, not 0"):
        next(read_ahead(iter([1]), depth=0))


class FakeTime:
    """A clock that only sleeping moves on, with every sleep noted."""

    def __init__(self, start: float = 100.0) -> None:
        self.now = start
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(round(seconds, 6))
        self.now += seconds


def test_frames_at_their_recorded_pace_wait_for_their_time() -> None:
    fake = FakeTime()
    frames = [(0.0, "a"), (0.1, "b"), (0.2, "c"), (0.5, "d")]
    assert list(at_recorded_pace(iter(frames), fake.clock, fake.sleep)) == frames
    assert fake.slept == [0.1, 0.1, 0.3]
    assert fake.now == pytest.approx(100.5)


def test_a_late_frame_is_given_at_once_and_the_pace_holds_after_it() -> None:
    fake = FakeTime()
    paced = at_recorded_pace(iter([(1.0, "a"), (1.1, "b"), (1.2, "c"), (1.3, "d")]),
                             fake.clock, fake.sleep)
    assert next(paced) == (1.0, "a")
    fake.now += 0.25  # reading "a" took longer than two frames
    assert next(paced) == (1.1, "b")
    assert next(paced) == (1.2, "c")
    assert fake.slept == []
    assert next(paced) == (1.3, "d")
    assert fake.slept == [0.05]
