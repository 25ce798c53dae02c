"""Where the live page's snapshots come from: the running table, or a journal being written."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from app.journal import JournalError
from app.notices import Notice
from app.prompts import MisreadPrompt
from app.web.history import read_only
from app.web.hub import LiveHub
from app.web.live import live_snapshot
from table import replay
from table.summary import renege_summary

JOURNAL_POLL_S = 0.05


def table_snapshot(app: Any) -> dict[str, Any]:
    """The live view of a running TableApp: its state, its standing problems and alarms."""
    controller = app.controller
    problems = [{"kind": "unreadable_card", "seat": seat.value}
                for seat in sorted(controller.problems.unreadable)]
    problems += [{"kind": "already_played", "seat": seat.value, "card": card.code}
                 for seat, card in sorted(controller.problems.already_played.items())]
    problems += [{"kind": "out_of_turn", "seat": seat.value, "card": card.code}
                 for seat, card in sorted(controller.problems.out_of_turn.items())]
    problems += [{"kind": "disconnected", "device": device, "reason": reason}
                 for device, reason in sorted(app.devices_down.items())]
    alarms = [dict(renege_summary(prompt.renege), hand=prompt.hand)
              for prompt in controller.prompts if isinstance(prompt, MisreadPrompt)]
    return live_snapshot(controller.state, controller.game_id, seq=len(controller.events),
                         seat_names=app.config.seat_names, problems=problems, alarms=alarms)


class TableFeed:
    """A TableApp listener: after every input the table handled, the hub gets the new view."""

    def __init__(self, app: Any, hub: LiveHub) -> None:
        self.app, self.hub = app, hub
        hub.publish(table_snapshot(app))

    def __call__(self, notices: list[Notice]) -> None:
        self.hub.publish(table_snapshot(self.app))


class JournalWatcher:
    """Follows a journal another process writes: each commit there becomes a new snapshot."""

    def __init__(self, path: Path, hub: LiveHub, seat_names: Mapping[str, str] | None = None,
                 poll_s: float = JOURNAL_POLL_S) -> None:
        self.path, self.hub, self.poll_s = path, hub, poll_s
        self.seat_names = dict(seat_names or {})
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="journal-watch", daemon=True)

    def start(self) -> JournalWatcher:
        """Publish the journal's latest game now, then follow it in a thread."""
        self.refresh()
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop following."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    def refresh(self) -> bool:
        """Publish the latest game's view; False when the journal is missing or unchanged."""
        try:
            with read_only(self.path) as journal:
                game_id = journal.latest_game(imported=True)
                if game_id is None:
                    return False
                events = journal.events(game_id)
                state = replay(events)
        except (JournalError, sqlite3.DatabaseError):
            return False
        return self.hub.publish(live_snapshot(state, game_id, seq=len(events),
                                              seat_names=self.seat_names))

    def _run(self) -> None:
        marker: tuple[object, ...] | None = None
        while not self._stop.wait(self.poll_s):
            now = self._marker()
            if now is not None and now != marker:
                marker = now
                self.refresh()

    def _marker(self) -> tuple[object, ...] | None:
        """What changes whenever the journal takes an event: the last game and its last event."""
        try:
            with read_only(self.path) as journal:
                row = journal._db.execute(
                    "SELECT MAX(game_id), COUNT(*), MAX(rowid) FROM events"
                ).fetchone()
        except (JournalError, sqlite3.DatabaseError):
            return None
        return tuple(row)
