"""Card sightings: what the camera tracker reports about one seat's zone."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from table import Card, Seat


class SightingKind(StrEnum):
    """A card came to rest, was read where it lies after being unreadable, or left the zone."""

    PLACED = "placed"
    IDENTIFIED = "identified"
    REMOVED = "removed"


@dataclass(frozen=True, slots=True)
class Sighting:
    """A card (None when unreadable) placed in or removed from a seat's zone at time `t`."""

    kind: SightingKind
    t: float
    seat: Seat
    card: Card | None
    confidence: float
