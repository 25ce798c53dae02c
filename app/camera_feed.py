"""Camera to sightings: frames through recognition and the tracker, in their own thread."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeAlias

from app.sightings import Sighting, SightingKind
from drivers.inputs import DriverEvent
from table import Card, CardParseError, Seat

if TYPE_CHECKING:
    from drivers.camera import Frame, Image
    from vision.api import CardEvent, EventKind, TableWatcher

CameraItem: TypeAlias = "Sighting | DriverEvent"
"""What the camera's thread hands the table: a sighting, or the camera's own status."""
FrameRead: TypeAlias = "Callable[[], tuple[Frame | None, Sequence[DriverEvent]]]"
"""Gives the next frame (None if none now) and status events, as `Hardware.frame()` does."""


class Watcher(Protocol):
    """Recognition plus tracking: one frame in, the card events it caused out."""

    def process(self, t: float, frame: Image) -> list[CardEvent]: ...


def _sighting_kinds() -> dict[EventKind, SightingKind]:
    from vision.api import EventKind

    return {
        EventKind.PLACED: SightingKind.PLACED,
        EventKind.UNREADABLE: SightingKind.PLACED,
        EventKind.REMOVED: SightingKind.REMOVED,
        EventKind.IDENTIFIED: SightingKind.IDENTIFIED,
    }


def sighting_of(event: CardEvent) -> Sighting:
    """A tracker event as a sighting; a card outside the euchre deck counts as unreadable."""
    from vision.api import EventKind

    try:
        card = Card.parse(event.card) if event.card else None
    except CardParseError:
        card = None
    if event.kind is EventKind.UNREADABLE:
        card = None
    kind = _sighting_kinds()[event.kind]
    return Sighting(kind, float(event.t), Seat(event.seat), card, float(event.confidence))


NO_DECK_NOTICE = (
    "no deck profile ([vision] deck): the camera reads any common deck, but leaves more cards "
    "to the players and cannot tell a four-colour deck's blue diamonds and green clubs from "
    "spades; `cardtable deck enroll` learns your deck"
)
"""Said when the camera starts without a deck profile."""


def deck_notice(deck: Path | None) -> str | None:
    """What the table says at start about the deck the camera reads: a hint to enrol one when
    there is no profile, else nothing."""
    return NO_DECK_NOTICE if deck is None else None


def open_watcher(calibration: Path, deck: Path | None, stable_s: float, copies: int = 1
                 ) -> TableWatcher:
    """Recognition plus tracking over the calibrated zones (a deck profile if given), naming
    no card more often in a frame than the deck holds `copies` of it."""
    from vision.api import (
        GlyphModel,
        TableWatcher,
        TrackerConfig,
        VisionConfig,
        load_zones,
        with_profile,
    )

    model = GlyphModel.load()
    if deck:
        model = with_profile(model, GlyphModel.load(deck))
    return TableWatcher(
        model, load_zones(calibration), VisionConfig(copies=copies),
        tracker_config=TrackerConfig(stable_time=stable_s),
    )


def watch(
    read: FrameRead,
    watcher: Watcher,
    running: Callable[[], bool],
    recorded_fps: float | None = None,
    idle_s: float = 0.005,
    sleep: Callable[[float], object] = time.sleep,
    ended: Callable[[], bool] | None = None,
    runs_out: bool | None = None,
) -> Iterator[CameraItem | None]:
    """Yield sightings and camera status events for as long as `running()` holds.

    A None now and then says the feed is alive with nothing new (its heartbeat).
    A recording (`recorded_fps` given) is stamped at its own frame rate, however fast it is
    decoded. A source that `runs_out` (by default, a recording) ends the feed when it runs
    out: when `ended()` says so (a bad frame or a reopening is no end), else at the first
    frame-less read without status.
    """
    finite = recorded_fps is not None if runs_out is None else runs_out
    while running():
        frame, status = read()
        yield from status
        yield None
        if frame is None:
            over = ended() if ended is not None else not status
            if finite and over:
                return
            sleep(idle_s)
            continue
        t = frame.index / recorded_fps if recorded_fps else frame.timestamp
        for event in watcher.process(t, frame.image):
            yield sighting_of(event)
