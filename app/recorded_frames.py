"""A recording's frames as the demos read them: made ahead in a thread of their own, and played
as fast as they are read or, asked for, at their recorded pace."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

Item = TypeVar("Item")
READ_AHEAD = 4
"""Frames made before they are asked for: enough to keep recognition fed, a few MB of memory."""
_ENDED = object()


def read_ahead(items: Iterator[Item], depth: int = READ_AHEAD) -> Iterator[Item]:
    """`items` in order, each made in a worker thread up to `depth` ahead of its reader.

    Rendering a frame and recognising the one before run side by side (both spend their time
    in numpy and OpenCV, which let go of the interpreter). An error making an item is raised
    where that item is read.
    """
    if depth < 1:
        raise ValueError(f"read-ahead depth must be at least 1, not {depth}")
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="read-ahead") as worker:
        pending: deque[Future[Any]] = deque(
            worker.submit(next, items, _ENDED) for _ in range(depth)
        )
        try:
            while (item := pending.popleft().result()) is not _ENDED:
                pending.append(worker.submit(next, items, _ENDED))
                yield item
        finally:
            for future in pending:
                future.cancel()


def at_recorded_pace(
    frames: Iterator[tuple[float, Item]],
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], object] = time.sleep,
) -> Iterator[tuple[float, Item]]:
    """(time, frame) pairs given no sooner than their recorded time after the first is asked
    for, as a camera gives them; a frame already late is given at once."""
    started: float | None = None
    for t, frame in frames:
        if started is None:
            started = clock() - t
        wait = started + t - clock()
        if wait > 0:
            sleep(wait)
        yield t, frame
