"""Exponential backoff for reopening a device, on an injected clock."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Backoff:
    """Delays that double from `initial` up to `maximum`; `reset()` after a success."""

    initial: float = 0.5
    factor: float = 2.0
    maximum: float = 10.0
    _next: float | None = None

    def __post_init__(self) -> None:
        if not 0 < self.initial <= self.maximum or self.factor < 1:
            raise ValueError(
                f"backoff initial={self.initial}, factor={self.factor}, maximum={self.maximum}: "
                "need 0 < initial <= maximum and factor >= 1"
            )

    def next_delay(self) -> float:
        """The delay before the next attempt; each call grows the following one."""
        delay = self.initial if self._next is None else self._next
        self._next = min(delay * self.factor, self.maximum)
        return delay

    def reset(self) -> None:
        """Start again from `initial`."""
        self._next = None
