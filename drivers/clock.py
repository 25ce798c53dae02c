"""A clock that moves only when told, for fakes and the unattended hardware check."""

from __future__ import annotations


class ManualClock:
    """Call it for the time; `advance()` or `sleep()` moves it on without waiting."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """Move time on."""
        self.now += seconds

    def sleep(self, seconds: float) -> None:
        """Stand-in for time.sleep: moves time on at once."""
        self.now += seconds
