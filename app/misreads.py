"""Which cards the camera got wrong or could not read, per game: material for enrolling a deck."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from app.journal import UNREADABLE, CardRecord, Journal

CAMERA = "camera"


class MisreadKind(StrEnum):
    """How the camera failed on a card."""

    WRONG = "misread"  # the camera read one card, the players corrected it to another
    UNREADABLE = "unreadable"  # the camera saw a card it could not read; a person named it


@dataclass(frozen=True, slots=True)
class Misread:
    """One card the camera failed on: where it lay, what the camera read, what it was."""

    kind: MisreadKind
    hand: int
    trick: int
    seat: str
    read: str | None
    card: str

    def line(self) -> str:
        """`hand 2 trick 4 E: camera read KS, was KC`."""
        where = f"hand {self.hand} trick {self.trick} {self.seat}"
        if self.kind is MisreadKind.WRONG:
            return f"{where}: camera read {self.read}, was {self.card}"
        return f"{where}: unreadable, named {self.card}"


@dataclass(frozen=True, slots=True)
class CameraRecord:
    """A game's camera figures: cards it read first, and the cards it failed on."""

    read: int
    misreads: tuple[Misread, ...]


def camera_record(records: list[CardRecord]) -> CameraRecord:
    """The camera's record from a game's standing card and correct events.

    The first event at a place (hand, trick, seat) is the card played there; later ones are
    corrections, and the last of them is what was really played.
    """
    first: dict[tuple[int, int, str], CardRecord] = {}
    final: dict[tuple[int, int, str], str] = {}
    for record in records:
        provenance = record.provenance
        seat, card = getattr(record.event, "seat", None), getattr(record.event, "card", None)
        if provenance is None or provenance.hand is None or provenance.trick is None:
            continue
        if seat is None or card is None:
            continue
        place = (provenance.hand, provenance.trick, seat.value)
        first.setdefault(place, record)
        final[place] = card.code
    misreads: list[Misread] = []
    read = 0
    for place, record in first.items():
        provenance = record.provenance
        assert provenance is not None
        card = final[place]
        played = getattr(record.event, "card", None)
        if provenance.source == CAMERA:
            read += 1
            if played is not None and played.code != card:
                misreads.append(Misread(MisreadKind.WRONG, *place, played.code, card))
        elif provenance.camera_read == UNREADABLE:
            misreads.append(Misread(MisreadKind.UNREADABLE, *place, None, card))
        elif provenance.camera_read is not None and provenance.camera_read != card:
            misreads.append(Misread(MisreadKind.WRONG, *place, provenance.camera_read, card))
    return CameraRecord(read, tuple(misreads))


def misreads_report(journal: Journal) -> list[str]:
    """Lines for `cardtable games --misreads`: each game, then each card the camera failed on."""
    lines: list[str] = []
    wrong = unreadable = read = 0
    for game in journal.games():
        record = camera_record(journal.card_records(game.id))
        read += record.read
        counts = {kind: sum(1 for m in record.misreads if m.kind is kind) for kind in MisreadKind}
        wrong += counts[MisreadKind.WRONG]
        unreadable += counts[MisreadKind.UNREADABLE]
        lines.append(
            f"game {game.id}: {record.read} cards read by the camera, "
            f"{counts[MisreadKind.WRONG]} misread, {counts[MisreadKind.UNREADABLE]} unreadable"
        )
        lines.extend(f"  {misread.kind.value:<10} {misread.line()}" for misread in record.misreads)
    lines.append(f"all games: {read} cards read, {wrong} misread, {unreadable} unreadable")
    return lines
