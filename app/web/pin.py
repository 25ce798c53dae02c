"""The PIN a phone gives to correct the game: checked in constant time, wrong tries limited.

Every try is counted before the PIN is compared, in one step under a lock, so requests sent in
parallel cannot all be compared: past the limit they are refused without a look at the PIN.
"""

from __future__ import annotations

import hmac
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

TRIES = 5  # wrong PINs one address may give within WINDOW_S before it is locked out
ROOM_TRIES = 20  # wrong PINs from all addresses together within WINDOW_S before all are
WINDOW_S = 60.0
LOCKOUT_S = 300.0
MAX_CLIENTS = 1024


@dataclass(frozen=True)
class PinVerdict:
    """What a try came to: right, wrong (with the tries left), or refused unlooked (`wait_s`)."""

    right: bool
    tries_left: int = 0
    wait_s: float = 0.0

    @property
    def locked(self) -> bool:
        """True when the PIN was not even compared: the address (or the room) is locked out."""
        return self.wait_s > 0


class PinGate:
    """Checks PINs; `tries` wrong ones from one address within `window_s` (or `room_tries` from
    all addresses together) lock it (or everyone) out for `lockout_s`."""

    def __init__(self, pin: str, clock: Callable[[], float] = time.monotonic, *,
                 tries: int = TRIES, window_s: float = WINDOW_S, lockout_s: float = LOCKOUT_S,
                 room_tries: int = ROOM_TRIES) -> None:
        self._pin = pin.encode("utf-8")
        self.clock, self.tries, self.window_s = clock, tries, window_s
        self.lockout_s, self.room_tries = lockout_s, room_tries
        self._failures: dict[str, deque[float]] = {}
        self._room: deque[float] = deque()
        self._locked_until: dict[str, float] = {}
        self._room_locked_until = 0.0
        self._lock = threading.Lock()

    def attempt(self, client: str, given: object) -> PinVerdict:
        """One try from `client`: counted first, then compared unless a lockout stands."""
        with self._lock:
            now = self.clock()
            wait = max(self._locked_until.get(client, 0.0), self._room_locked_until) - now
            if wait > 0:
                return PinVerdict(False, 0, wait)
            failures = self._recent(self._failures.setdefault(client, deque()), now)
            failures.append(now)  # counted before the comparison
            candidate = given.encode("utf-8") if isinstance(given, str) else b""
            if hmac.compare_digest(candidate, self._pin):
                failures.pop()
                return PinVerdict(True, self.tries - len(failures))
            self._recent(self._room, now).append(now)
            if len(failures) >= self.tries:
                self._locked_until[client] = now + self.lockout_s
            if len(self._room) >= self.room_tries:
                self._room_locked_until = now + self.lockout_s
            self._forget_oldest_clients()
            return PinVerdict(False, max(self.tries - len(failures), 0))

    def _recent(self, failures: deque[float], now: float) -> deque[float]:
        while failures and failures[0] <= now - self.window_s:
            failures.popleft()
        return failures

    def _forget_oldest_clients(self) -> None:
        """Keep the memory bounded: clients beyond MAX_CLIENTS are dropped, oldest first."""
        while len(self._failures) > MAX_CLIENTS:
            oldest = min(self._failures, key=lambda c: self._failures[c][-1]
                         if self._failures[c] else float("-inf"))
            del self._failures[oldest]
        for client, until in list(self._locked_until.items()):
            if until <= self.clock():
                del self._locked_until[client]
