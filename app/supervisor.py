"""Feed threads watched from the main loop: a dead or stuck one is shown and restarted."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from drivers.backoff import Backoff

STUCK_AFTER_S = 10.0
"""A feed that has not beaten for this long is stuck (well inside systemd's WatchdogSec=15)."""
STABLE_AFTER_S = 30.0
"""A restarted feed that runs this long is well again: its backoff starts over."""

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class FeedNews:
    """A change in a feed's health, for the log and the screen; `bad` when it failed."""

    feed: str
    text: str
    bad: bool


@dataclass
class Feed(Generic[T]):
    """One producer in its own thread. It yields items, or None to say "alive, nothing new"."""

    name: str
    make: Callable[[], Iterable[T | None]]
    backoff: Backoff = field(default_factory=lambda: Backoff(0.5, 2.0, 10.0))
    thread: threading.Thread | None = None
    generation: int = 0
    beat: float = 0.0
    started: float = 0.0
    error: str | None = None  # why the running thread ended, if it failed
    problem: str | None = None  # what the screen shows: "camera stopped: ..."
    restart_at: float | None = None
    failures: list[str] = field(default_factory=list)
    ends: bool = False  # the producer may run out by itself (a recording)
    finished: bool = False  # it did

    def is_alive(self) -> bool:
        """True while its thread runs (a stuck thread counts as alive)."""
        return self.thread is not None and self.thread.is_alive()


class Supervisor(Generic[T]):
    """Starts feeds, puts what they yield on `items`, and checks them from the main loop."""

    def __init__(
        self,
        items: queue.Queue[T],
        clock: Callable[[], float],
        *,
        stuck_after_s: float = STUCK_AFTER_S,
        stopping: threading.Event | None = None,
    ) -> None:
        self.items = items
        self.clock = clock
        self.stuck_after_s = stuck_after_s
        self.stopping = stopping or threading.Event()
        self.feeds: list[Feed[T]] = []

    def start(
        self, name: str, make: Callable[[], Iterable[T | None]], *, ends: bool = False
    ) -> Feed[T]:
        """Run `make()`'s producer in a thread named `name`, watched from now on.

        `ends`: the producer may run out by itself (a recording), which is no failure.
        """
        feed: Feed[T] = Feed(name, make, ends=ends)
        self.feeds.append(feed)
        self._launch(feed)
        return feed

    @property
    def healthy(self) -> bool:
        """True when no feed is dead or stuck."""
        return not self.problems()

    def problems(self) -> list[str]:
        """The standing problems, one per unwell feed."""
        return [feed.problem for feed in self.feeds if feed.problem is not None]

    def failures(self) -> list[str]:
        """Every failure of the run, oldest first: "camera: RuntimeError: ..."."""
        return [f"{feed.name}: {why}" for feed in self.feeds for why in feed.failures]

    def check(self) -> list[FeedNews]:
        """Look at every feed: report new problems, restart those whose backoff ran out."""
        now = self.clock()
        said: list[FeedNews] = []
        for feed in self.feeds:
            if self.stopping.is_set():
                continue
            if feed.finished and feed.ends:  # a recording restarted after a failure may run
                if feed.problem is not None:  # to its end before it is looked at again
                    said.append(FeedNews(feed.name, f"{feed.name} works again", bad=False))
                    feed.problem = None
                continue
            if feed.restart_at is not None:
                if now >= feed.restart_at:
                    self._launch(feed)
                    text = f"{feed.name} restarted (attempt {len(feed.failures)})"
                    said.append(FeedNews(feed.name, text, bad=False))
                continue
            why = self._trouble(feed, now)
            if why is None:
                if feed.problem is not None:
                    said.append(FeedNews(feed.name, f"{feed.name} works again", bad=False))
                feed.problem = None
                if feed.failures and now - feed.started >= STABLE_AFTER_S:
                    feed.backoff.reset()
                continue
            feed.failures.append(why)
            feed.problem = f"{feed.name} stopped: {why}"
            feed.generation += 1  # a stuck thread that wakes up feeds nothing more
            delay = feed.backoff.next_delay()
            feed.restart_at = now + delay
            said.append(FeedNews(feed.name, f"{feed.problem}; restart in {delay:g} s", bad=True))
        return said

    def _trouble(self, feed: Feed[T], now: float) -> str | None:
        if feed.error is not None:
            return feed.error
        if feed.thread is not None and not feed.thread.is_alive():
            return None if feed.finished and feed.ends else "its thread ended"
        silent = now - feed.beat
        if silent >= self.stuck_after_s:
            return f"no sign of life for {silent:.0f} s"
        return None

    def _launch(self, feed: Feed[T]) -> None:
        feed.generation += 1
        feed.error, feed.restart_at = None, None
        feed.beat = feed.started = self.clock()
        generation = feed.generation

        def pump() -> None:
            try:
                for item in feed.make():
                    if self.stopping.is_set() or feed.generation != generation:
                        return
                    feed.beat = self.clock()
                    if item is not None:
                        self.items.put(item)
            except Exception as error:  # the feed died: the main loop shows it and restarts it
                if feed.generation == generation:
                    feed.error = f"{type(error).__name__}: {error}"
                return
            if feed.generation == generation:
                feed.finished = True

        feed.thread = threading.Thread(target=pump, name=feed.name, daemon=True)
        feed.thread.start()
