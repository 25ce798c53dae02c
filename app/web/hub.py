"""The latest live snapshot, handed to every page listening for Server-Sent Events."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any


class LiveHub:
    """Holds the newest snapshot; listeners wait for a version newer than the one they have."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._version = 0
        self._data = ""
        self._closed = False
        self._listeners = 0
        self._watchers: list[Callable[[], None]] = []

    def publish(self, snapshot: dict[str, Any]) -> bool:
        """Make `snapshot` the newest; False (and nothing sent) when it is the same as before."""
        data = json.dumps(snapshot, separators=(",", ":"))
        with self._changed:
            if data == self._data:
                return False
            self._data = data
            self._version += 1
            self._changed.notify_all()
        self._tell_watchers()
        return True

    def watch(self, watcher: Callable[[], None]) -> None:
        """Call `watcher` (from the publishing thread) after each new snapshot and on close."""
        with self._changed:
            self._watchers.append(watcher)

    def unwatch(self, watcher: Callable[[], None]) -> None:
        """Stop calling `watcher`."""
        with self._changed:
            if watcher in self._watchers:
                self._watchers.remove(watcher)

    def _tell_watchers(self) -> None:
        with self._changed:
            watchers = list(self._watchers)
        for watcher in watchers:
            watcher()

    def latest(self) -> tuple[int, str]:
        """The newest version and its JSON text (version 0, "" before anything was published)."""
        with self._changed:
            return self._version, self._data

    def wait_newer(self, version: int, timeout: float) -> tuple[int, str] | None:
        """The first snapshot newer than `version`, or None after `timeout` or once closed."""
        with self._changed:
            self._changed.wait_for(lambda: self._version > version or self._closed, timeout)
            if self._closed or self._version <= version:
                return None
            return self._version, self._data

    def listening(self) -> None:
        """Count one more stream opened (a page connecting or reconnecting)."""
        with self._changed:
            self._listeners += 1
            self._changed.notify_all()

    def wait_listeners(self, count: int, timeout: float) -> bool:
        """True once `count` streams have been opened in all, False after `timeout`."""
        with self._changed:
            return self._changed.wait_for(lambda: self._listeners >= count, timeout)

    @property
    def closed(self) -> bool:
        """True once the server stops: listeners end their streams."""
        return self._closed

    def close(self) -> None:
        """Wake and end every listener."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()
        self._tell_watchers()
