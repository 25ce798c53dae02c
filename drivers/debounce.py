"""Turning raw switch edges into presses, holds and the new-game confirmation; no hardware."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from drivers.inputs import DriverEvent, NewGameCancelled, NewGameConfirmed, NewGameRequested, Seat
from drivers.keys import press_event


@dataclass(frozen=True)
class KeyTiming:
    """How presses are read; all times in seconds."""

    settle_s: float = 0.02  # a switch must stay put this long before a change counts
    repeat_s: float = 0.25  # a second press of the same key within this is the same press
    hold_s: float = 2.0  # UNDO held this long asks for a new game
    confirm_s: float = 10.0  # OK must follow a new-game request within this


@dataclass(frozen=True)
class KeyId:
    """A button: its name and the seat whose pad it is on (None on a shared panel)."""

    name: str
    seat: Seat | None = None

    @property
    def label(self) -> str:
        """`N.PASS` for a seat pad button, `PASS` for a shared one."""
        return f"{self.seat}.{self.name}" if self.seat else self.name


@dataclass
class _Switch:
    raw: bool = False
    raw_since: float = float("-inf")
    stable: bool = False


class Debouncer:
    """Accepts a switch change only once it has stayed put for `settle_s` (chatter is dropped)."""

    def __init__(self, settle_s: float) -> None:
        self.settle_s = settle_s
        self._switches: dict[KeyId, _Switch] = {}

    def edge(self, key: KeyId, pressed: bool, now: float) -> list[tuple[KeyId, bool, float]]:
        """Record a raw edge; returns the change it confirms, if the previous state had settled."""
        switch = self._switches.setdefault(key, _Switch())
        accepted = self._settle(key, switch, now)
        if switch.raw != pressed:
            switch.raw = pressed
            switch.raw_since = now
        return accepted

    def tick(self, now: float) -> list[tuple[KeyId, bool, float]]:
        """Changes that have now been stable long enough, each stamped with when it happened."""
        accepted: list[tuple[KeyId, bool, float]] = []
        for key, switch in self._switches.items():
            accepted.extend(self._settle(key, switch, now))
        return accepted

    def _settle(self, key: KeyId, switch: _Switch, now: float) -> list[tuple[KeyId, bool, float]]:
        if switch.raw != switch.stable and now - switch.raw_since >= self.settle_s:
            switch.stable = switch.raw
            return [(key, switch.stable, switch.raw_since)]
        return []


class KeyReader:
    """Edges in, typed events out: debouncing, double presses, UNDO hold and its confirmation.

    Feed `edge()` from the switch callbacks and call `tick()` regularly; `now` comes from the
    caller's clock, so tests drive time by hand.
    """

    def __init__(self, timing: KeyTiming | None = None) -> None:
        self.timing = timing or KeyTiming()
        self._debouncer = Debouncer(self.timing.settle_s)
        self._last_press: dict[KeyId, float] = {}
        self._undo_down: dict[KeyId, tuple[float, bool]] = {}  # key -> (pressed at, hold reported)
        self._pending: tuple[KeyId, float] | None = None  # new game asked by key at time

    @property
    def new_game_pending(self) -> bool:
        """Whether a new-game request waits for OK."""
        return self._pending is not None

    def edge(self, key: KeyId, pressed: bool, now: float) -> list[DriverEvent]:
        """A raw switch edge at time `now`."""
        return self._interpret(self._debouncer.edge(key, pressed, now), now)

    def tick(self, now: float) -> list[DriverEvent]:
        """Let time pass: settles switches, reports a long UNDO hold, expires a pending request."""
        events = self._interpret(self._debouncer.tick(now), now)
        for key, (since, reported) in list(self._undo_down.items()):
            if not reported and now - since >= self.timing.hold_s:
                self._undo_down[key] = (since, True)
                events.extend(self._request_new_game(key, now))
        if self._pending is not None and now - self._pending[1] > self.timing.confirm_s:
            events.append(NewGameCancelled(self._pending[0].seat, "no OK in time"))
            self._pending = None
        return events

    def _interpret(
        self, changes: Iterable[tuple[KeyId, bool, float]], now: float
    ) -> list[DriverEvent]:
        events: list[DriverEvent] = []
        for key, pressed, at in changes:
            if pressed:
                events.extend(self._press(key, at))
            else:
                events.extend(self._release(key, at))
        return events

    def _press(self, key: KeyId, at: float) -> list[DriverEvent]:
        last = self._last_press.get(key)
        if last is not None and at - last < self.timing.repeat_s:
            return []
        self._last_press[key] = at
        if self._pending is not None:
            asked_by = self._pending[0]
            self._pending = None
            if key.name == "OK":
                return [NewGameConfirmed(key.seat if key.seat else asked_by.seat)]
            return [NewGameCancelled(asked_by.seat, f"{key.label} pressed instead of OK")]
        if key.name == "UNDO":
            self._undo_down[key] = (at, False)
            return []
        return [press_event(key.name, key.seat)]

    def _release(self, key: KeyId, at: float) -> list[DriverEvent]:
        down = self._undo_down.pop(key, None)
        if down is None:
            return []
        since, reported = down
        if reported:
            return []
        if at - since >= self.timing.hold_s:
            return self._request_new_game(key, at)
        return [press_event("UNDO", key.seat)]

    def _request_new_game(self, key: KeyId, at: float) -> list[DriverEvent]:
        self._pending = (key, at)
        return [NewGameRequested(key.seat)]
