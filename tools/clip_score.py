"""Score the card tracker on labelled recorded clips (`cardtable vision clips`).

Each clip is a video with a label file `NAME.json` beside it (shared/vision/clips): its frame
rate and size, and every card that comes to rest with its identity, the time it first lies
still, the time it leaves (null: it stays) and its centre in the frame. The frames are fed to
`TableWatcher` at index / fps and the events it reports are matched to the labelled cards.

The play area is the whole frame cut along its diagonals into N, E, S and W, unless
`tools/data/clip_areas.json` gives the clip a play-area rectangle [x0, y0, x1, y1]: the area a
person calibrating would mark. `greenfelt_webcam_01` shows the table only at x < 415 of its 690
pixels; the right 275 px is a static banner graphic drawn over the recording, not table, so
its play area is [0, 0, 415, 388].
"""

from __future__ import annotations

import json
import math
import statistics
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.live import TableWatcher
from vision.model import GlyphModel
from vision.tracker import CardEvent, EventKind
from vision.zones import TableZones, default_zones

Image = npt.NDArray[np.uint8]
AREAS = Path(__file__).with_name("data") / "clip_areas.json"
EUCHRE_RANKS = frozenset("9TJQKA")
MATCH_REACH = 0.35
"""A reported card is a labelled one when it lies within this share of the frame's short side."""
EARLY = 0.5
"""A card may be reported this many seconds before the label says it first lies still."""
PLACING = (EventKind.PLACED, EventKind.UNREADABLE)


class ClipError(ValueError):
    """A clip folder, label file or video that cannot be scored as given."""


@dataclass(frozen=True)
class LabelledCard:
    """A card the label says comes to rest in the clip."""

    card: str
    first_still_s: float
    leaves_s: float | None
    pos_xy: tuple[float, float]

    @property
    def is_euchre(self) -> bool:
        """True for the ranks of a euchre deck (9, T, J, Q, K, A)."""
        return self.card[:-1] in EUCHRE_RANKS

    def lies_at(self, t: float) -> bool:
        """True while the card may be reported: from just before it lies still until it leaves."""
        return t >= self.first_still_s - EARLY and (self.leaves_s is None or t < self.leaves_s)


@dataclass(frozen=True)
class ClipLabel:
    """One clip's label file: the video it names, its frame rate and size, and its cards."""

    name: str
    video: Path
    fps: float
    width: int
    height: int
    cards: tuple[LabelledCard, ...]

    @property
    def reach(self) -> float:
        """How far (pixels) a reported card may lie from a labelled card's centre."""
        return MATCH_REACH * min(self.width, self.height)


def _number(data: dict[str, Any], key: str, where: str,
            optional: bool = False) -> float | None:
    if key not in data:
        raise ClipError(f"{where}: no {key!r}")
    value = data[key]
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ClipError(f"{where}: {key!r} must be a number, got {value!r}")
    return float(value)


def _card(data: Any, where: str) -> LabelledCard:
    if not isinstance(data, dict):
        raise ClipError(f"{where}: a card must be an object, got {data!r}")
    name = data.get("card")
    if not isinstance(name, str) or len(name) < 2:
        raise ClipError(f"{where}: 'card' must be a card name like '6S', got {name!r}")
    first = _number(data, "first_still_s", where)
    leaves = _number(data, "leaves_s", where, optional=True)
    pos = data.get("pos_xy")
    if (not isinstance(pos, list) or len(pos) != 2
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in pos)):
        raise ClipError(f"{where}: 'pos_xy' must be [x, y], got {pos!r}")
    assert first is not None
    return LabelledCard(name.upper(), first, leaves, (float(pos[0]), float(pos[1])))


def load_label(path: Path) -> ClipLabel:
    """Read and check one clip's label file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise ClipError(f"{path}: cannot be read: {error}") from error
    except json.JSONDecodeError as error:
        raise ClipError(f"{path}: not JSON: {error}") from error
    if not isinstance(data, dict):
        raise ClipError(f"{path}: a label file must hold a JSON object")
    file = data.get("file")
    if not isinstance(file, str) or not file:
        raise ClipError(f"{path}: no 'file' naming the video")
    video = data.get("video")
    if not isinstance(video, dict):
        raise ClipError(f"{path}: no 'video' object with fps, width and height")
    fps, width, height = (_number(video, key, f"{path} video") for key in
                          ("fps", "width", "height"))
    assert fps is not None and width is not None and height is not None
    if fps <= 0 or width < 1 or height < 1:
        raise ClipError(f"{path}: video fps, width and height must be positive")
    cards = data.get("cards")
    if not isinstance(cards, list):
        raise ClipError(f"{path}: no 'cards' list")
    labelled = tuple(_card(card, f"{path} card {number}")
                     for number, card in enumerate(cards, 1))
    return ClipLabel(path.stem, path.with_name(file), fps, int(width), int(height), labelled)


def clip_labels(folder: Path, names: Sequence[str] = ()) -> list[ClipLabel]:
    """The label files of a clip folder (only those named, when names are given)."""
    if not folder.is_dir():
        raise ClipError(f"{folder}: no such folder of clips")
    paths = sorted(folder.glob("*.json"))
    if names:
        missing = [name for name in names if not (folder / f"{name}.json").is_file()]
        if missing:
            raise ClipError(f"{folder}: no label file for {', '.join(missing)}")
        paths = [folder / f"{name}.json" for name in dict.fromkeys(names)]
    if not paths:
        raise ClipError(f"{folder}: no label files (NAME.json beside each video)")
    return [load_label(path) for path in paths]


def clip_areas(path: Path = AREAS) -> dict[str, tuple[float, float, float, float]]:
    """Play-area rectangles [x0, y0, x1, y1] by clip name."""
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise ClipError(f"{path}: not JSON: {error}") from error
    if not isinstance(data, dict):
        raise ClipError(f"{path}: must map clip names to [x0, y0, x1, y1]")
    areas = {}
    for name, box in data.items():
        if (not isinstance(box, list) or len(box) != 4
                or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in box)
                or not (box[0] < box[2] and box[1] < box[3])):
            raise ClipError(f"{path}: {name!r} must be [x0, y0, x1, y1], got {box!r}")
        areas[name] = (float(box[0]), float(box[1]), float(box[2]), float(box[3]))
    return areas


def area_zones(width: int, height: int,
               box: tuple[float, float, float, float] | None = None) -> TableZones:
    """Seat zones cut along the diagonals of a play-area rectangle (default: the whole frame)."""
    if box is None:
        return default_zones(width, height, margin=0.0)
    x0, y0, x1, y1 = max(0.0, box[0]), max(0.0, box[1]), min(width, box[2]), min(height, box[3])
    if not (x0 < x1 and y0 < y1):
        raise ClipError(f"play area {list(box)} lies outside a {width}x{height} frame")
    centre = ((x0 + x1) / 2, (y0 + y1) / 2)
    tl, tr, br, bl = (x0, y0), (x1, y0), (x1, y1), (x0, y1)
    return TableZones((width, height), (tl, tr, br, bl),
                      (("N", (tl, tr, centre)), ("E", (tr, br, centre)),
                       ("S", (br, bl, centre)), ("W", (bl, tl, centre))))


def clip_frames(label: ClipLabel) -> Iterator[tuple[float, Image]]:
    """(index / fps, frame) of the clip's video, decoded with OpenCV."""
    if not label.video.is_file():
        raise ClipError(f"{label.video}: no such video (named by {label.name}.json)")
    capture = cv2.VideoCapture(str(label.video))
    try:
        if not capture.isOpened():
            raise ClipError(f"{label.video}: does not decode as a video")
        index = 0
        while True:
            ok, frame = capture.read()
            if not ok or frame is None:
                break
            if index == 0 and frame.shape[:2] != (label.height, label.width):
                raise ClipError(f"{label.video}: decodes to {frame.shape[1]}x{frame.shape[0]}, "
                                f"the label says {label.width}x{label.height}")
            yield index / label.fps, np.asarray(frame, np.uint8)
            index += 1
        if index == 0:
            raise ClipError(f"{label.video}: decodes to no frame")
    finally:
        capture.release()


@dataclass
class ClipRun:
    """The tracker's events on one clip, with the frames fed and the CPU time they took."""

    events: list[CardEvent]
    frames: int
    cpu_s: float


def track_clip(label: ClipLabel, model: GlyphModel,
               box: tuple[float, float, float, float] | None = None) -> ClipRun:
    """Feed the clip's frames to a TableWatcher; CPU time counts the watcher only."""
    watcher = TableWatcher(model, area_zones(label.width, label.height, box))
    events: list[CardEvent] = []
    frames, cpu = 0, 0.0
    for t, frame in clip_frames(label):
        start = time.process_time()
        events += watcher.process(t, frame)
        cpu += time.process_time() - start
        frames += 1
    return ClipRun(events, frames, cpu)


@dataclass
class _Placement:
    """A card the tracker placed, followed through its later events."""

    event: CardEvent
    at: tuple[float, float]
    card: str | None
    names: list[tuple[float, str]] = field(default_factory=list)
    removed_at: float | None = None


@dataclass
class CardOutcome:
    """What the tracker made of one labelled card."""

    label: LabelledCard
    outcome: str
    """'right', 'wrong', 'unreadable' or 'missed'."""
    latency_s: float | None = None
    named: str | None = None
    false_removal: bool = False


@dataclass
class ClipScore:
    """One clip's outcomes, phantoms and cost."""

    name: str
    cards: list[CardOutcome]
    phantoms: list[CardEvent]
    frames: int = 0
    cpu_s: float = 0.0

    def count(self, outcome: str) -> int:
        """How many labelled cards had this outcome."""
        return sum(card.outcome == outcome for card in self.cards)

    @property
    def latencies(self) -> list[float]:
        """Seconds from lying still to named right, per card named right."""
        return [card.latency_s for card in self.cards if card.latency_s is not None]

    def summary(self) -> dict[str, Any]:
        """The clip's figures as one JSON object, with each card's outcome and each phantom."""
        return {
            **summary(self.name, [self]),
            "outcomes": [{"card": c.label.card, "euchre": c.label.is_euchre,
                          "outcome": c.outcome, "named": c.named,
                          "latency_s": None if c.latency_s is None else round(c.latency_s, 3),
                          "false_removal": c.false_removal} for c in self.cards],
            "phantom_events": [event.to_json() for event in self.phantoms],
        }


def _distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _owner(label: ClipLabel, event: CardEvent) -> int | None:
    """The labelled card a placement reports: the nearest lying within reach at its time."""
    if event.centre is None:
        return None
    near = [(_distance(event.centre, card.pos_xy), index)
            for index, card in enumerate(label.cards)
            if card.lies_at(event.t) and _distance(event.centre, card.pos_xy) <= label.reach]
    return min(near)[1] if near else None


def _follow(events: Sequence[CardEvent]) -> list[_Placement]:
    """Placements with the names and removal the tracker later gave each one."""
    placements: list[_Placement] = []
    for event in sorted(events, key=lambda e: e.t):
        at = event.centre or (math.nan, math.nan)
        if event.kind in PLACING:
            placements.append(_Placement(event, at, event.card))
            if event.card is not None:
                placements[-1].names.append((event.t, event.card))
            continue
        lying = [p for p in placements if p.removed_at is None and p.event.seat == event.seat]
        if event.kind is EventKind.IDENTIFIED:
            lying = [p for p in lying if p.card is None]
        else:
            lying = [p for p in lying if p.card == event.card] or lying
        if not lying:
            continue
        placement = min(lying, key=lambda p: _distance(p.at, at) if event.centre else 0.0)
        placement.at = at if event.centre else placement.at
        if event.kind is EventKind.IDENTIFIED and event.card is not None:
            placement.card = event.card
            placement.names.append((event.t, event.card))
        elif event.kind is EventKind.REMOVED:
            placement.removed_at = event.t
    return placements


def _outcome(card: LabelledCard, placement: _Placement | None) -> CardOutcome:
    if placement is None:
        return CardOutcome(card, "missed")
    removed = placement.removed_at
    false_removal = removed is not None and (card.leaves_s is None or removed < card.leaves_s)
    wrong = next((name for _, name in placement.names if name != card.card), None)
    if wrong is not None:
        return CardOutcome(card, "wrong", named=wrong, false_removal=false_removal)
    right = [t for t, name in placement.names if card.lies_at(t)]
    if right:
        return CardOutcome(card, "right", right[0] - card.first_still_s, card.card,
                           false_removal)
    return CardOutcome(card, "unreadable", false_removal=false_removal)


def score_clip(label: ClipLabel, events: Sequence[CardEvent]) -> ClipScore:
    """Match the tracker's events to the labelled cards of one clip."""
    matched: dict[int, _Placement] = {}
    phantoms: list[CardEvent] = []
    for placement in _follow(events):
        owner = _owner(label, placement.event)
        if owner is None or owner in matched:
            phantoms.append(placement.event)  # no card there, or that card was placed already
        else:
            matched[owner] = placement
    outcomes = [_outcome(card, matched.get(index)) for index, card in enumerate(label.cards)]
    return ClipScore(label.name, outcomes, phantoms)


def summary(name: str, scores: Sequence[ClipScore]) -> dict[str, Any]:
    """Figures of one clip, or of several together (the total)."""
    cards = [card for score in scores for card in score.cards]
    frames = sum(score.frames for score in scores)
    cpu = sum(score.cpu_s for score in scores)
    latencies = [latency for score in scores for latency in score.latencies]

    def wrong(euchre: bool) -> int:
        return sum(c.outcome == "wrong" and c.label.is_euchre == euchre for c in cards)

    return {
        "clip": name,
        "cards": len(cards),
        "euchre_cards": sum(card.label.is_euchre for card in cards),
        "right": sum(card.outcome == "right" for card in cards),
        "wrong": sum(card.outcome == "wrong" for card in cards),
        "wrong_euchre": wrong(True),
        "wrong_other": wrong(False),
        "unreadable": sum(card.outcome == "unreadable" for card in cards),
        "missed": sum(card.outcome == "missed" for card in cards),
        "phantoms": sum(len(score.phantoms) for score in scores),
        "false_removals": sum(card.false_removal for card in cards),
        "median_latency_s": round(statistics.median(latencies), 3) if latencies else None,
        "frames": frames,
        "ms_per_frame": round(1000.0 * cpu / frames, 1) if frames else None,
    }


COLUMNS = (("clip", "clip", 22), ("cards", "cards", 5), ("right", "right", 5),
           ("wrong_euchre", "wrong E", 7), ("wrong_other", "wrong X", 7),
           ("unreadable", "unread", 6), ("missed", "missed", 6), ("phantoms", "phantom", 7),
           ("false_removals", "false rm", 8), ("median_latency_s", "latency s", 9),
           ("frames", "frames", 6), ("ms_per_frame", "ms/frame", 8))


def table_row(figures: dict[str, Any]) -> str:
    """One line of the clip table."""
    cells = []
    for key, _, width in COLUMNS:
        value = figures[key]
        text = "-" if value is None else f"{value:.2f}" if key == "median_latency_s" else str(
            value)
        cells.append(text.ljust(width) if key == "clip" else text.rjust(width))
    return "  ".join(cells)


def table_header() -> str:
    """The clip table's heading line."""
    return "  ".join(title.ljust(width) if key == "clip" else title.rjust(width)
                     for key, title, width in COLUMNS)


def score_clips(labels: Sequence[ClipLabel], model: GlyphModel,
                areas: dict[str, tuple[float, float, float, float]]) -> Iterator[ClipScore]:
    """Track and score each clip in turn."""
    for label in labels:
        run = track_clip(label, model, areas.get(label.name))
        score = score_clip(label, run.events)
        score.frames, score.cpu_s = run.frames, run.cpu_s
        yield score


def report(folder: Path, names: Sequence[str] = (), as_json: bool = False,
           areas_path: Path = AREAS) -> int:
    """Score every labelled clip of a folder and print the table (or JSON lines); 0 when done."""
    labels = clip_labels(folder, names)
    areas = clip_areas(areas_path)
    model = GlyphModel.load()
    if not as_json:
        print(table_header(), flush=True)
    scores = []
    for score in score_clips(labels, model, areas):
        scores.append(score)
        figures = score.summary()
        print(json.dumps(figures) if as_json else table_row(figures), flush=True)
    total = summary("total", scores)
    if as_json:
        print(json.dumps(total))
    else:
        print(table_row(total))
        print("wrong E / wrong X: named wrong with a euchre / a non-euchre label; latency: "
              "median seconds from lying still to named right; ms/frame: CPU per frame")
    return 0
