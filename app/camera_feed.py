"""Camera to sightings: frames through recognition and the tracker, in their own thread."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from app.sightings import Sighting, SightingKind
from table import Card, CardParseError, Seat


def sighting_of(event: Any) -> Sighting:
    """A tracker event as a sighting; a card outside the euchre deck counts as unreadable."""
    try:
        card = Card.parse(event.card) if event.card else None
    except CardParseError:
        card = None
    kind = {"removed": SightingKind.REMOVED, "identified": SightingKind.IDENTIFIED}.get(
        event.kind.value, SightingKind.PLACED
    )
    if event.kind.value == "unreadable":
        card = None
    return Sighting(kind, float(event.t), Seat(event.seat), card, float(event.confidence))


def open_watcher(calibration: Path, deck: Path | None, stable_s: float) -> Any:
    """Recognition plus tracking over the calibrated zones (a deck profile if given)."""
    from vision.live import TableWatcher
    from vision.model import GlyphModel
    from vision.profile import with_profile
    from vision.tracker import TrackerConfig
    from vision.zones import load_zones

    model = GlyphModel.load()
    if deck:
        model = with_profile(model, GlyphModel.load(deck))
    return TableWatcher(
        model, load_zones(calibration), tracker_config=TrackerConfig(stable_time=stable_s)
    )


def watch(
    read: Callable[[], tuple[Any, list[Any]]],
    watcher: Any,
    running: Callable[[], bool],
    recorded_fps: float | None = None,
    idle_s: float = 0.005,
) -> Iterator[Any]:
    """Yield sightings and camera status events for as long as `running()` holds.

    `read()` gives a drivers Frame (or None) and status events, as `Hardware.frame()` does.
    A recording (`recorded_fps` given) is stamped at its own frame rate, however fast it is
    decoded, and ends the feed when it runs out.
    """
    while running():
        frame, status = read()
        yield from status
        if frame is None:
            if recorded_fps is not None and not status:
                return
            time.sleep(idle_s)
            continue
        t = frame.index / recorded_fps if recorded_fps else frame.timestamp
        for event in watcher.process(t, frame.image):
            yield sighting_of(event)
