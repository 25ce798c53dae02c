"""Card events from recognised frames: placed, removed and unreadable cards per seat zone.

Pure: the caller passes each frame's time and observations (and, optionally, a test of
whether the table is visibly bare where a card lay); nothing here reads a clock. Only whole
card outlines are followed; an index corner read on its own does not make a card.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import cv2
import numpy as np

from vision.cards import CardObservation, Quad
from vision.decide import shipped_threshold
from vision.errors import VisionError
from vision.zones import TableZones

ClearTest = Callable[[Quad], bool]
"""Answers whether the table is visibly bare inside a card outline (not covered by a hand)."""


class TrackerError(VisionError, ValueError):
    """Frames given to the tracker out of order, or a bad tracker setting."""


class EventKind(StrEnum):
    """What happened to a card on the table."""

    PLACED = "placed"
    REMOVED = "removed"
    UNREADABLE = "unreadable"
    IDENTIFIED = "identified"
    """A card placed unreadable has since been read where it lies (straightened, uncovered)."""


@dataclass(frozen=True)
class CardEvent:
    """A card placed, removed or placed unreadable in a seat zone, at a frame time."""

    kind: EventKind
    t: float
    seat: str
    card: str | None
    confidence: float
    centre: tuple[float, float] | None = field(default=None, compare=False)
    """Where the card lies (its centre in frame pixels), when known; not part of equality."""

    def to_json(self) -> dict[str, Any]:
        """The event as one JSON object of the `vision track --json` stream."""
        record: dict[str, Any] = {"event": self.kind.value, "t": round(self.t, 3),
                                  "seat": self.seat, "card": self.card,
                                  "confidence": round(self.confidence, 3)}
        if self.centre is not None:
            record["at"] = [round(self.centre[0], 1), round(self.centre[1], 1)]
        return record


@dataclass(frozen=True)
class TrackerConfig:
    """Tunables of tracking; times in seconds, distances as shares of a card's long side."""

    stable_time: float = 0.3
    """A card is placed once it has lain still this long, and removed once gone this long."""
    unread_stable_time: float = 0.6
    """A card not yet read must lie still this long (and the stable time), and be looked at
    afresh `min_votes` times, the last look not naming it surely, to be unreadable."""
    still_distance: float = 0.08
    """The centre may wander this far while the card counts as lying still."""
    match_distance: float = 0.6
    """An observation this close to a known card is that card (also when nudged)."""
    size_change: float = 1.25
    """A placed card is only continued by outlines at most this much larger or smaller."""
    min_presence: float = 0.6
    """Share of the frames since a new card appeared in which it must have been seen."""
    max_gap: float = 0.25
    """A card not yet placed is forgotten after going unseen this long."""
    read_confidence: float = field(default_factory=shipped_threshold)
    """Readings below this confidence give no vote for the card's identity: the shipped
    decision's threshold (vision/data/decision.json), from which the calibrated probability
    that a name is right leaves at most 1 wrong name in 1000 of those taken."""
    min_votes: int = 3
    """Confident readings of one card needed to name it."""
    dissent_confidence: float = 0.5
    min_agreement: float = 0.9
    """Share of the readings above `dissent_confidence` that must name that same card."""
    min_read_side: float = 80.0
    """Cards whose long side is shorter (in pixels) are too small to trust their names. The
    camera shows a card 90-140 px long, the far seat's a tenth shorter; recognition is
    measured on cards shrunk to 80 px and names as few wrong there as at 95 px."""
    unique_cards: bool = True
    """A card already lying on the table cannot be placed again (single deck)."""
    late_readings: int = 12
    """Readings kept of a card lying unreadable, to name it once it can be read."""

    def __post_init__(self) -> None:
        if not self.stable_time > 0:
            raise TrackerError(f"stable_time must be positive, got {self.stable_time!r}")
        if not self.unread_stable_time >= 0:
            raise TrackerError("unread_stable_time must not be negative, got "
                               f"{self.unread_stable_time!r}")
        if not 0 < self.min_presence <= 1 or not 0 < self.min_agreement <= 1:
            raise TrackerError("min_presence and min_agreement must be in (0, 1]")
        if self.min_votes < 1:
            raise TrackerError(f"min_votes must be at least 1, got {self.min_votes!r}")


@dataclass(frozen=True)
class Sighting:
    """One observation in a seat zone, reduced to what tracking needs."""

    centre: tuple[float, float]
    size: float
    corners: Quad
    name: str | None
    confidence: float


@dataclass
class Track:
    """A card the tracker follows: a candidate until stable, then placed."""

    seat: str
    sighting: Sighting
    anchor: tuple[float, float]
    since: float
    since_frame: int
    last_seen: float
    seen: int = 1
    readings: list[tuple[str | None, float]] = field(default_factory=list)
    placed: bool = False
    card: str | None = None
    confidence: float = 0.0
    gone_since: float | None = None

    @property
    def centre(self) -> tuple[float, float]:
        """The card's latest centre."""
        return self.sighting.centre


def _inside(point: tuple[float, float], corners: Quad) -> bool:
    """True when `point` lies within the outline `corners`."""
    contour = np.asarray(corners, np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(contour, (float(point[0]), float(point[1])), False) >= 0


def _distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def sighting_of(observation: CardObservation) -> Sighting:
    """Centre, long side and reading of an observation."""
    corners = np.asarray(observation.corners, dtype=np.float32).reshape(4, 2)
    centre = corners.mean(axis=0)
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    return Sighting((float(centre[0]), float(centre[1])), float(sides.max()), corners,
                    observation.name, float(observation.confidence))


class CardTracker:
    """Folds (time, observations) frames into placed / removed / unreadable events."""

    def __init__(self, zones: TableZones, config: TrackerConfig | None = None) -> None:
        self.zones = zones
        self.config = config or TrackerConfig()
        self.tracks: list[Track] = []
        self.frame = -1
        self.time = -math.inf

    @property
    def on_table(self) -> list[Track]:
        """The cards placed and not yet removed."""
        return [track for track in self.tracks if track.placed]

    @property
    def is_settling(self) -> bool:
        """True while some new card waits to be placed (its readings are being gathered)."""
        return any(not track.placed for track in self.tracks)

    def update(self, t: float, observations: Sequence[CardObservation],
               is_clear: ClearTest | None = None,
               fresh: bool | Sequence[bool] = True) -> list[CardEvent]:
        """Take one frame's observations at time `t`; return the events it completes.

        `fresh` is False when the observations are the previous frame's, reused because the
        view did not change: they then count for presence but not again as readings. It may
        also be given per observation (a card read again where the view changed, the others
        kept from before).
        """
        if not math.isfinite(t) or t < self.time:
            raise TrackerError(f"frame time {t!r} is not after the previous one ({self.time!r})")
        flags = [fresh] * len(observations) if isinstance(fresh, bool) else list(fresh)
        if len(flags) != len(observations):
            raise TrackerError(f"{len(flags)} freshness flags for {len(observations)} "
                               "observations")
        self.time = t
        self.frame += 1
        sightings: list[tuple[Sighting, bool]] = []
        for observation, new in zip(observations, flags, strict=True):
            if not observation.whole:
                continue  # an index corner alone (a pile, a covered card) is not a card laid
            sighting = sighting_of(observation)
            if self.zones.seat_of(sighting.centre) is not None:
                sightings.append((sighting, new))
        matched = self._associate([sighting for sighting, _ in sightings])
        events: list[CardEvent] = []
        read_again: set[int] = set()
        for index, (sighting, new) in enumerate(sightings):
            track = matched.get(index)
            if track is None:
                seat = self.zones.seat_of(sighting.centre) or ""
                readings = [(sighting.name, sighting.confidence)] if new else []
                self.tracks.append(Track(seat, sighting, sighting.centre, t, self.frame, t,
                                         readings=readings))
            else:
                self._continue(track, sighting, t, new)
                if new:
                    read_again.add(id(track))
        for track in list(self.tracks):
            if track.last_seen != t:
                continue
            if not track.placed:
                events += self._settle(track, t)
            elif track.card is None and id(track) in read_again:
                events += self._identify_late(track, t)
        for track in list(self.tracks):
            if track.last_seen < t:
                events += self._missing(track, t, is_clear)
        return events

    def _associate(self, sightings: list[Sighting]) -> dict[int, Track]:
        """Pair sightings with known cards, nearest first, one to one.

        A placed card is only continued by an outline of about its own size, so a hand
        merged with it into a bigger shape cannot drag it away, and not by one surely named
        another card (a slow camera may miss a card taken and another laid in its place).
        """
        pairs = []
        for index, sighting in enumerate(sightings):
            for track in self.tracks:
                known = track.sighting.size
                if track.placed:
                    ratio = sighting.size / known
                    if not 1 / self.config.size_change <= ratio <= self.config.size_change:
                        continue
                    if (track.card is not None and sighting.name not in (None, track.card)
                            and sighting.confidence >= self.config.read_confidence):
                        continue  # another card surely: laid where one was taken unseen
                    reach = self.config.match_distance * known
                else:
                    reach = self.config.match_distance * max(sighting.size, known)
                distance = _distance(sighting.centre, track.centre)
                if distance <= reach:
                    pairs.append((distance, not track.placed, index, track))
        matched: dict[int, Track] = {}
        used: set[int] = set()
        for _, _, index, track in sorted(pairs, key=lambda p: (p[0], p[1], p[2])):
            if index in matched or id(track) in used:
                continue
            matched[index] = track
            used.add(id(track))
        return matched

    def _continue(self, track: Track, sighting: Sighting, t: float, fresh: bool) -> None:
        """A known card seen again: follow it; a candidate that moved starts its wait again."""
        track.sighting = sighting
        track.last_seen = t
        track.gone_since = None
        if track.placed:
            if track.card is None and fresh:
                track.readings = [*track.readings, (sighting.name, sighting.confidence)][
                    -self.config.late_readings:]
            return
        limit = self.config.still_distance * sighting.size
        if _distance(sighting.centre, track.anchor) > limit:
            track.anchor = sighting.centre
            track.since = t
            track.since_frame = self.frame
            track.seen = 1
            track.readings = [(sighting.name, sighting.confidence)] if fresh else []
            return
        track.seen += 1
        if fresh:
            track.readings.append((sighting.name, sighting.confidence))

    def _missing(self, track: Track, t: float, is_clear: ClearTest | None) -> list[CardEvent]:
        """A known card not seen in this frame: forget, wait, or report it removed."""
        if not track.placed:
            if t - track.last_seen > self.config.max_gap:
                self.tracks.remove(track)
            return []
        if is_clear is not None and not is_clear(track.sighting.corners):
            track.gone_since = None
            return []
        if track.gone_since is None:
            track.gone_since = t
        if t - track.gone_since + 1e-9 < self.config.stable_time:
            return []
        self.tracks.remove(track)
        return [CardEvent(EventKind.REMOVED, t, track.seat, track.card, track.confidence,
                          track.centre)]

    def _settle(self, track: Track, t: float) -> list[CardEvent]:
        """Place a candidate that has lain still for the stable time."""
        if t - track.since + 1e-9 < self.config.stable_time:
            return []
        frames = self.frame - track.since_frame + 1
        if track.seen / frames < self.config.min_presence:
            return []
        card, confidence = self._identity(track)
        if card is None and (t - track.since + 1e-9 < self.config.unread_stable_time
                             or len(track.readings) < self.config.min_votes
                             or self._being_named(track)):
            return []  # a card still unread gets longer, and as many looks as a name needs
        seat = self.zones.seat_of(track.centre)
        if seat is None:
            self.tracks.remove(track)
            return []
        for other in self.tracks:
            if (other.placed and other.seat == seat and other.last_seen < t
                    and (card is None or other.card is None or other.card == card)):
                other.sighting = track.sighting
                other.last_seen = t
                other.gone_since = None
                self.tracks.remove(track)
                return []
        if card is None and any(other.placed and self._is_part_of(track, other, seat)
                                for other in self.tracks):
            self.tracks.remove(track)  # a piece of a card already lying there, not a new card
            return []
        if card is not None and self.config.unique_cards and any(
                other.placed and other.card == card for other in self.tracks):
            card = None
        track.placed = True
        track.seat = seat
        track.card = card
        track.confidence = confidence
        if card is None:
            track.readings = []  # only readings from now on may name it later
        kind = EventKind.PLACED if card is not None else EventKind.UNREADABLE
        return [CardEvent(kind, t, seat, card, confidence, track.centre)]

    def _being_named(self, track: Track) -> bool:
        """Whether a card's last look named it surely, no reading before named another, and
        it is large enough to be named: more looks will name it."""
        name, confidence = track.readings[-1]
        if (name is None or confidence < self.config.read_confidence
                or track.sighting.size < self.config.min_read_side):
            return False
        return all(other in (None, name) or sure < self.config.dissent_confidence
                   for other, sure in track.readings)

    def _is_part_of(self, track: Track, other: Track, seat: str) -> bool:
        """Whether an unread candidate is a piece of a placed card, or an outline around it:
        inside it in its seat, or, across seats, inside it or holding it while of another
        size (a card laid over another is about its size)."""
        inside = _inside(track.centre, other.sighting.corners)
        if other.seat == seat:
            return inside
        ratio = track.sighting.size / other.sighting.size
        if 1 / self.config.size_change <= ratio <= self.config.size_change:
            return False
        return inside or _inside(other.centre, track.sighting.corners)

    def _identify_late(self, track: Track, t: float) -> list[CardEvent]:
        """Name a card lying unreadable once enough fresh readings agree on it."""
        card, confidence = self._identity(track)
        if card is None or (self.config.unique_cards and any(
                other.placed and other.card == card for other in self.tracks)):
            return []
        track.card = card
        track.confidence = confidence
        return [CardEvent(EventKind.IDENTIFIED, t, track.seat, card, confidence, track.centre)]

    def _identity(self, track: Track) -> tuple[str | None, float]:
        """The card named by enough agreeing confident readings, else None; with a confidence."""
        if not track.readings:
            return None, 0.0
        overall = statistics.median(conf for _, conf in track.readings)
        if track.sighting.size < self.config.min_read_side:
            return None, overall
        named = [(name, conf) for name, conf in track.readings
                 if name is not None and conf >= self.config.dissent_confidence]
        votes = Counter(name for name, conf in named if conf >= self.config.read_confidence)
        if not votes:
            return None, overall
        name, count = votes.most_common(1)[0]
        agreeing = [conf for n, conf in named if n == name]
        if count >= self.config.min_votes and (
                len(agreeing) / len(named) >= self.config.min_agreement):
            return name, statistics.median(agreeing)
        return None, overall
