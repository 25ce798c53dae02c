"""The PIN a phone gives to correct the game: checked in constant time, wrong tries limited."""

from __future__ import annotations

import hmac
import threading
import time
from collections import deque
from collections.abc import Callable

TRIES = 5
WINDOW_S = 60.0
MAX_CLIENTS = 1024


class PinGate:
    """Checks PINs; a client with `tries` wrong ones within `window_s` waits until the oldest
    of them is that old."""

    def __init__(self, pin: str, clock: Callable[[], float] = time.monotonic, *,
                 tries: int = TRIES, window_s: float = WINDOW_S) -> None:
        self._pin = pin.encode("utf-8")
        self.clock, self.tries, self.window_s = clock, tries, window_s
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def wait_s(self, client: str) -> float:
        """How long `client` must wait before trying again; 0 when it may try now."""
        with self._lock:
            failures = self._recent(client)
            if len(failures) < self.tries:
                return 0.0
            return max(failures[0] + self.window_s - self.clock(), 0.0)

    def check(self, client: str, given: object) -> bool:
        """True for the right PIN; a wrong one (or none) counts against `client`."""
        candidate = given.encode("utf-8") if isinstance(given, str) else b""
        right = hmac.compare_digest(candidate, self._pin)
        if not right:
            with self._lock:
                self._recent(client).append(self.clock())
                self._forget_oldest_clients()
        return right

    def tries_left(self, client: str) -> int:
        """Wrong PINs `client` may still give before it must wait."""
        with self._lock:
            return max(self.tries - len(self._recent(client)), 0)

    def _recent(self, client: str) -> deque[float]:
        failures = self._failures.setdefault(client, deque())
        while failures and failures[0] <= self.clock() - self.window_s:
            failures.popleft()
        return failures

    def _forget_oldest_clients(self) -> None:
        """Keep the memory bounded: clients beyond MAX_CLIENTS are dropped, oldest first."""
        while len(self._failures) > MAX_CLIENTS:
            oldest = min(self._failures, key=lambda c: self._failures[c][-1]
                         if self._failures[c] else float("-inf"))
            del self._failures[oldest]
