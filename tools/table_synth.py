"""Synthetic camera views of a table log being played: frames, true events and calibration.

Cards are laid in the plane of the table and seen through a perspective camera; hands carry
them in, pass over them, nudge them and gather each trick; light drifts, a shadow wanders,
frames are blurred and noisy. Everything is drawn from a seed, so a scene is reproducible.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

import vision
from tools.scenes import table_background
from vision.errors import VisionError
from vision.zones import Polygon, TableZones, default_zones

Image = npt.NDArray[np.uint8]
Matrix = npt.NDArray[np.float64]

ARTWORK = Path(vision.__file__).with_name("data") / "artwork"
CARD_ASPECT = 489 / 338
SKIN = (120, 150, 205)
SLEEVE = (90, 60, 50)
EDGE_OF = {"N": (0.5, -0.25), "E": (1.25, 0.5), "S": (0.5, 1.25), "W": (-0.25, 0.5)}
"""Where each seat's arm comes from, in shares of the table plane."""
SPOT_OF = {"N": (0.5, 0.3), "E": (0.69, 0.5), "S": (0.5, 0.7), "W": (0.31, 0.5)}
"""Where each seat's card lands, in shares of the table plane."""
NOISE_SHIFTS = 1 << 20
"""Offsets a frame's window of a reused noise field may start at (`SynthConfig.noise_reuse`)."""


class SynthError(VisionError, ValueError):
    """A table log or setting that cannot be rendered."""


@dataclass(frozen=True)
class SynthConfig:
    """Size, timing and effects of a synthetic scene."""

    width: int = 1280
    height: int = 720
    fps: float = 10.0
    seed: int = 0
    card_size: float = 0.24
    """The card's long side as a share of the frame height (in the table plane)."""
    perspective: float = 0.18
    """How much wider the far edge of the view is than the near edge, in the table plane."""
    lighting: bool = True
    shadow: bool = True
    blur: float = 1.0
    """Largest Gaussian blur sigma in pixels (varies frame to frame)."""
    noise: float = 4.0
    noise_reuse: bool = False
    """Take each frame's sensor noise from one field made once, at a random offset, instead of
    drawing it afresh: the same statistics in every frame, a frame rendered in about half the
    time."""
    hand_passes: bool = True
    nudges: bool = True
    max_tricks: int | None = None


@dataclass(frozen=True)
class TruthEvent:
    """What really happened: a card placed into or removed from a seat zone."""

    event: str
    t: float
    seat: str
    card: str

    def to_json(self) -> dict[str, Any]:
        """Plain data for truth.jsonl."""
        return {"event": self.event, "t": round(self.t, 3), "seat": self.seat, "card": self.card}


@dataclass
class _Card:
    """A card on (or over) the table plane, while it is visible."""

    name: str
    seat: str
    start: float
    end: float
    poses: list[tuple[float, tuple[float, float], float]] = field(default_factory=list)
    """(time, centre in the plane, angle in degrees) keys, linearly interpolated."""


@dataclass
class _Hand:
    """An arm from a table edge, its hand moving through keyed points."""

    edge: tuple[float, float]
    keys: list[tuple[float, tuple[float, float]]]


def _lerp(keys: list[tuple[float, Any]], t: float) -> Any:
    """Linear interpolation of (time, value) keys, values being floats or tuples."""
    if t <= keys[0][0]:
        return keys[0][1]
    for (t0, v0), (t1, v1) in itertools.pairwise(keys):
        if t <= t1:
            share = (t - t0) / (t1 - t0) if t1 > t0 else 1.0
            if isinstance(v0, tuple):
                return tuple(a + (b - a) * share for a, b in zip(v0, v1, strict=True))
            return v0 + (v1 - v0) * share
    return keys[-1][1]


def tricks_from_log(path: Path) -> list[tuple[list[tuple[str, str]], str | None]]:
    """The tricks of a table log in play order: (seat, card) pairs and the winner (or None)."""
    from table.errors import TableError
    from table.log import read_log

    try:
        state = read_log(path)
    except (OSError, TableError) as error:
        raise SynthError(f"cannot replay table log {str(path)!r}: {error}") from error
    tricks = []
    for hand in state.hands:
        for trick in hand.tricks:
            if trick.cards:
                cards = [(str(seat.value), card.code) for seat, card in trick.cards]
                winner = None if trick.winner is None else str(trick.winner.value)
                tricks.append((cards, winner))
    if not tricks:
        raise SynthError(f"table log {str(path)!r} has no cards played")
    return tricks


def load_faces(names: set[str], folder: Path = ARTWORK) -> dict[str, Image]:
    """BGRA card faces by card name (the joker is drawn with the red joker)."""
    faces = {}
    for name in sorted(names):
        path = folder / ("JK_red.png" if name == "JK" else f"{name}.png")
        face = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
        if face is None or face.ndim != 3 or face.shape[2] != 4:
            raise SynthError(f"no card face for {name!r} at {str(path)!r}")
        faces[name] = np.asarray(face, np.uint8)
    return faces


class TableScene:
    """A scripted scene: card moves, hands and effects over time, rendered frame by frame."""

    def __init__(self, tricks: list[tuple[list[tuple[str, str]], str | None]],
                 config: SynthConfig | None = None, faces: dict[str, Image] | None = None) -> None:
        self.config = config or SynthConfig()
        if self.config.width < 64 or self.config.height < 48 or self.config.fps <= 0:
            raise SynthError(f"scene size {self.config.width}x{self.config.height} at "
                             f"{self.config.fps} fps is not usable")
        self.rng = np.random.default_rng(self.config.seed)
        self.tricks = tricks[: self.config.max_tricks]
        names = {card for cards, _ in self.tricks for _, card in cards}
        self.faces = faces if faces is not None else load_faces(names)
        w, h = self.config.width, self.config.height
        self.card_long = self.config.card_size * h
        self.plane_to_frame = self._camera()
        self.cards: list[_Card] = []
        self.hands: list[_Hand] = []
        self.truth: list[TruthEvent] = []
        self.duration = self._script()
        self.background = table_background(w, h, self.config.seed)
        self._shade_phase = float(self.rng.uniform(0, 2 * math.pi))
        self._shadow_path = self.rng.uniform(0.2, 0.8, (2, 2))
        self._noise_field: npt.NDArray[np.float32] | None = None

    # ---- geometry -----------------------------------------------------------------------

    def _camera(self) -> Matrix:
        """Homography from the table plane to the frame: the far side appears narrower."""
        w, h = self.config.width, self.config.height
        p = self.config.perspective * w / 2
        plane = np.array([[-p, 0], [w + p, 0], [w, h], [0, h]], np.float32)
        frame = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
        return np.asarray(cv2.getPerspectiveTransform(plane, frame), np.float64)

    def to_frame(self, points: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """Map table-plane points to frame pixels."""
        pts = np.asarray(points, np.float32).reshape(-1, 1, 2)
        return np.asarray(cv2.perspectiveTransform(pts, self.plane_to_frame),
                          np.float32).reshape(-1, 2)

    def zones(self) -> TableZones:
        """The play area and seat zones as the camera sees them."""
        plane = default_zones(self.config.width, self.config.height, margin=0.06)

        def mapped(polygon: Polygon) -> Polygon:
            return tuple((float(x), float(y)) for x, y in self.to_frame(polygon))

        return TableZones(plane.frame_size, mapped(plane.play_area),
                          tuple((seat, mapped(zone)) for seat, zone in plane.seats))

    def _plane(self, share: tuple[float, float]) -> tuple[float, float]:
        return share[0] * self.config.width, share[1] * self.config.height

    # ---- script -------------------------------------------------------------------------

    def _jitter(self, share: tuple[float, float], amount: float) -> tuple[float, float]:
        x, y = self._plane(share)
        dx, dy = self.rng.uniform(-amount, amount, 2) * self.card_long
        return float(x + dx), float(y + dy)

    def _script(self) -> float:
        """Lay out every card, hand and true event; returns the scene's length in seconds."""
        t = 0.5
        for cards, winner in self.tricks:
            trick_cards = []
            for seat, name in cards:
                spot = self._jitter(SPOT_OF[seat], 0.12)
                angle = (90.0 if seat in "EW" else 0.0) + float(self.rng.uniform(-18, 18))
                edge = self._plane(EDGE_OF[seat])
                carry = float(self.rng.uniform(0.5, 0.8))
                start = (edge[0] + (spot[0] - edge[0]) * 0.3, edge[1] + (spot[1] - edge[1]) * 0.3)
                card = _Card(name, seat, t, math.inf,
                             [(t, start, angle + 30.0), (t + carry, spot, angle)])
                land = t + carry
                back = land + float(self.rng.uniform(0.3, 0.5))
                self.hands.append(_Hand(edge, [(t, start), (land, spot), (back, edge)]))
                self.cards.append(card)
                trick_cards.append(card)
                self.truth.append(TruthEvent("placed", land, seat, name))
                t = back + float(self.rng.uniform(0.2, 0.6))
            t += 0.6
            if self.config.nudges and self.rng.random() < 0.7:
                t = self._nudge(trick_cards[int(self.rng.integers(len(trick_cards)))], t)
            if self.config.hand_passes:
                t = self._pass_over(t)
            if winner is None:
                continue
            t = self._gather(trick_cards, winner, t)
        return t + 1.0

    def _nudge(self, card: _Card, t: float) -> float:
        """A hand touches a lying card and pushes it a little within its zone."""
        _, centre, angle = card.poses[-1]
        edge = self._plane(EDGE_OF[card.seat])
        push = self.rng.uniform(-0.08, 0.08, 2) * self.card_long
        moved = (centre[0] + float(push[0]), centre[1] + float(push[1]))
        reach = t + 0.4
        card.poses += [(reach, centre, angle), (reach + 0.25, moved, angle + 4.0)]
        self.hands.append(_Hand(edge, [(t, edge), (reach, centre), (reach + 0.25, moved),
                                       (reach + 0.6, edge)]))
        return reach + 0.9

    def _pass_over(self, t: float) -> float:
        """An arm sweeps over the table without touching the cards."""
        w, h = self.config.width, self.config.height
        side = self.rng.choice(["N", "E", "S", "W"])
        edge = self._plane(EDGE_OF[str(side)])
        if side in ("N", "S"):
            path = [(0.15 * w, 0.5 * h), (0.85 * w, 0.45 * h)]
        else:
            path = [(0.5 * w, 0.15 * h), (0.45 * w, 0.85 * h)]
        if self.rng.random() < 0.5:
            path.reverse()
        self.hands.append(_Hand(edge, [(t, edge), (t + 0.35, path[0]), (t + 1.0, path[1]),
                                       (t + 1.35, edge)]))
        return t + 1.7

    def _gather(self, cards: list[_Card], winner: str, t: float) -> float:
        """The winner's hand sweeps the trick together and takes it off the table."""
        w, h = self.config.width, self.config.height
        edge = self._plane(EDGE_OF[winner])
        middle = (w / 2, h / 2)
        reach, collect, leave = t + 0.45, t + 0.85, t + 1.35
        for card in cards:
            _, centre, angle = card.poses[-1]
            card.poses += [(reach, centre, angle), (collect, middle, angle)]
            card.poses.append((leave, edge, angle))
            card.end = leave
            self.truth.append(TruthEvent("removed", reach, card.seat, card.name))
        self.hands.append(_Hand(edge, [(t, edge), (reach, middle), (collect, middle),
                                       (leave, edge)]))
        return leave + 0.5

    # ---- rendering ----------------------------------------------------------------------

    @property
    def frame_count(self) -> int:
        """Frames in the whole scene."""
        return int(self.duration * self.config.fps) + 1

    def frames(self) -> Iterator[tuple[float, Image]]:
        """(time, BGR frame) for every frame of the scene, in order."""
        for index in range(self.frame_count):
            t = index / self.config.fps
            yield t, self.render(t)

    def render(self, t: float) -> Image:
        """The camera's view at time `t`."""
        canvas = self.background.astype(np.float32)
        for card in self.cards:
            if card.start <= t < card.end:
                centre = _lerp([(k, c) for k, c, _ in card.poses], t)
                angle = _lerp([(k, a) for k, _, a in card.poses], t)
                self._paste(canvas, self.faces[card.name], centre, angle)
        for hand in self.hands:
            if hand.keys[0][0] <= t <= hand.keys[-1][0]:
                self._draw_hand(canvas, hand, _lerp(hand.keys, t))
        return self._effects(canvas, t)

    def _paste(self, canvas: npt.NDArray[np.float32], face: Image,
               centre: tuple[float, float], angle: float) -> None:
        """Warp a BGRA face onto the canvas at a pose in the table plane."""
        long_side = self.card_long
        half_w, half_h = long_side / CARD_ASPECT / 2, long_side / 2
        theta = math.radians(angle)
        rot = np.array([[math.cos(theta), -math.sin(theta)], [math.sin(theta), math.cos(theta)]])
        local = np.array([[-half_w, -half_h], [half_w, -half_h], [half_w, half_h],
                          [-half_w, half_h]])
        corners = self.to_frame(local @ rot.T + np.array(centre))
        x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 1
        x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 1
        height, width = canvas.shape[:2]
        cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
        if cx0 >= cx1 or cy0 >= cy1:
            return
        fh, fw = face.shape[:2]
        source = np.array([[0, 0], [fw - 1, 0], [fw - 1, fh - 1], [0, fh - 1]], np.float32)
        target = (corners - np.array([cx0, cy0], np.float32)).astype(np.float32)
        matrix = cv2.getPerspectiveTransform(source, target)
        warped = cv2.warpPerspective(face, matrix, (cx1 - cx0, cy1 - cy0),
                                     flags=cv2.INTER_AREA).astype(np.float32)
        alpha = warped[:, :, 3:4] / 255.0
        region = canvas[cy0:cy1, cx0:cx1]
        region[:] = region * (1.0 - alpha) + warped[:, :, :3] * alpha

    def _draw_hand(self, canvas: npt.NDArray[np.float32], hand: _Hand,
                   at: tuple[float, float]) -> None:
        """An arm from the table edge to a hand with fingers, in perspective."""
        size = self.card_long
        edge = np.array(hand.edge)
        tip = np.array(at)
        direction = tip - edge
        length = float(np.linalg.norm(direction)) or 1.0
        along = direction / length
        across = np.array([-along[1], along[0]])
        palm = tip - along * 0.35 * size
        wrist = palm - along * 0.35 * size
        sleeve = [edge + across * 0.3 * size, wrist + across * 0.25 * size,
                  wrist - across * 0.25 * size, edge - across * 0.3 * size]
        cv2.fillPoly(canvas, [np.round(self.to_frame(sleeve)).astype(np.int32)], SLEEVE,
                     cv2.LINE_AA)
        outline = [palm + along * math.cos(a) * 0.42 * size + across * math.sin(a) * 0.33 * size
                   for a in np.linspace(0, 2 * math.pi, 32, endpoint=False)]
        cv2.fillPoly(canvas, [np.round(self.to_frame(outline)).astype(np.int32)], SKIN,
                     cv2.LINE_AA)
        for finger, reach in ((-1.5, 0.55), (-0.5, 0.7), (0.5, 0.68), (1.5, 0.5)):
            base = palm + across * finger * 0.15 * size
            points = np.round(self.to_frame([base, base + along * reach * size])).astype(int)
            cv2.line(canvas, (int(points[0][0]), int(points[0][1])),
                     (int(points[1][0]), int(points[1][1])), SKIN, max(2, round(0.12 * size)),
                     cv2.LINE_AA)
        thumb = palm + across * 0.3 * size
        points = np.round(self.to_frame([thumb, thumb + (across + along) * 0.3 * size]))
        cv2.line(canvas, (int(points[0][0]), int(points[0][1])),
                 (int(points[1][0]), int(points[1][1])), SKIN, max(2, round(0.13 * size)),
                 cv2.LINE_AA)

    def _effects(self, canvas: npt.NDArray[np.float32], t: float) -> Image:
        """Drifting light, a wandering shadow, blur and sensor noise."""
        config = self.config
        height, width = canvas.shape[:2]
        if config.lighting:
            gain = 1.0 + 0.18 * math.sin(2 * math.pi * t / 9.0 + self._shade_phase)
            ramp = np.linspace(0.9, 1.1, width, dtype=np.float32)
            tilt = 0.5 + 0.5 * math.sin(2 * math.pi * t / 13.0)
            canvas *= (gain * (1.0 + (ramp - 1.0) * tilt))[None, :, None]
        if config.shadow:
            share = 0.5 + 0.5 * math.sin(2 * math.pi * t / 11.0)
            sx, sy = self._shadow_path[0] + (self._shadow_path[1] - self._shadow_path[0]) * share
            small = np.ones((max(1, height // 8), max(1, width // 8)), np.float32)
            cv2.ellipse(small, (int(sx * small.shape[1]), int(sy * small.shape[0])),
                        (small.shape[1] // 5, small.shape[0] // 4), 20.0, 0, 360, 0.72, -1)
            small = cv2.GaussianBlur(small, (0, 0), max(1.0, small.shape[1] / 30))
            canvas *= cv2.resize(small, (width, height))[:, :, None]
        if config.blur > 0:
            sigma = float(self.rng.uniform(0.3, config.blur))
            canvas = np.asarray(cv2.GaussianBlur(canvas, (0, 0), sigma), np.float32)
        if config.noise > 0:
            canvas += self._noise(canvas.shape)
        return np.clip(canvas, 0, 255).astype(np.uint8)

    def _noise(self, shape: tuple[int, ...]) -> npt.NDArray[np.float32]:
        """One frame's sensor noise: drawn afresh, or a window of the field made once."""
        if not self.config.noise_reuse:
            return self.rng.standard_normal(shape, dtype=np.float32) * self.config.noise
        size = math.prod(shape)
        if self._noise_field is None:
            self._noise_field = (self.rng.standard_normal(size + NOISE_SHIFTS, dtype=np.float32)
                                 * self.config.noise)
        start = int(self.rng.integers(NOISE_SHIFTS))
        return self._noise_field[start : start + size].reshape(shape)


def write_scene(scene: TableScene, out: Path, log_name: str = "") -> int:
    """Write frames, truth.jsonl, calibration.json and scene.json into `out`; returns frames."""
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for index, (_, frame) in enumerate(scene.frames()):
        if not cv2.imwrite(str(out / f"frame_{index:05d}.jpg"), frame,
                           [cv2.IMWRITE_JPEG_QUALITY, 92]):
            raise SynthError(f"cannot write frames into {str(out)!r}")
        count += 1
    with (out / "truth.jsonl").open("w", encoding="utf-8") as handle:
        for event in sorted(scene.truth, key=lambda e: e.t):
            handle.write(json.dumps(event.to_json()) + "\n")
    (out / "calibration.json").write_text(json.dumps(scene.zones().to_dict(), indent=2) + "\n",
                                          encoding="utf-8")
    meta = {"fps": scene.config.fps, "frames": count, "width": scene.config.width,
            "height": scene.config.height, "seed": scene.config.seed, "log": log_name}
    (out / "scene.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    return count


@dataclass(frozen=True)
class Comparison:
    """Reported events set against the truth of a scene."""

    placed: int
    right: int
    unreadable: int
    wrong: list[str]
    wrong_seat: list[str]
    missed: list[str]
    removed: int
    removed_found: int
    phantoms: list[str]
    delays: list[float] = field(default_factory=list)
    """Seconds from each card landing to its report."""
    named: list[str] = field(default_factory=list)
    """The cards reported by their right name."""

    @property
    def is_faithful(self) -> bool:
        """Every card reported once, in its zone, never as a wrong card; nothing invented."""
        return not (self.wrong or self.wrong_seat or self.missed or self.phantoms
                    or self.removed_found != self.removed)

    def summary(self) -> dict[str, Any]:
        """Figures for reports and benchmarks."""
        return {"placed": self.placed, "right": self.right, "unreadable": self.unreadable,
                "wrong": len(self.wrong), "wrong_seat": len(self.wrong_seat),
                "missed": len(self.missed), "removed": self.removed,
                "removed_found": self.removed_found, "phantoms": len(self.phantoms)}


def compare_events(truth: list[TruthEvent], reported: list[dict[str, Any]],
                   late: float = 1.5) -> Comparison:
    """Match reported events to true ones: same kind, reported no earlier than and at most
    `late` seconds after the truth (the hand lifting off adds to the stability window)."""
    left = sorted(reported, key=lambda e: float(e["t"]))
    used: set[int] = set()
    right = unreadable = removed_found = 0
    wrong, wrong_seat, missed = [], [], []
    delays: list[float] = []
    named: list[str] = []

    def take(kind: set[str], event: TruthEvent) -> dict[str, Any] | None:
        fits = [index for index, candidate in enumerate(left)
                if index not in used and candidate["event"] in kind
                and event.t <= float(candidate["t"]) <= event.t + late]
        if not fits:
            return None
        best = min(fits, key=lambda i: (left[i]["seat"] != event.seat,
                                        left[i]["card"] not in (None, event.card), i))
        used.add(best)
        return left[best]

    lying_unread: list[tuple[TruthEvent, float]] = []
    """Cards reported unreadable, with the time they were truly taken away (inf until then)."""
    for event in sorted(truth, key=lambda e: (e.t, e.event)):
        label = f"{event.event} {event.card} in {event.seat} at {event.t:.2f}s"
        if event.event == "placed":
            found = take({"placed", "unreadable"}, event)
            if found is None:
                missed.append(label)
                continue
            delays.append(float(found["t"]) - event.t)
            if found["seat"] != event.seat:
                wrong_seat.append(f"{label}: reported in {found['seat']}")
            if found["card"] is None:
                unreadable += 1
                lying_unread.append((event, math.inf))
            elif found["card"] == event.card:
                right += 1
                named.append(event.card)
            else:
                wrong.append(f"{label}: reported as {found['card']}")
        else:
            found = take({"removed"}, event)
            if found is None:
                missed.append(label)
            else:
                removed_found += 1
                if found["seat"] != event.seat:
                    wrong_seat.append(f"{label}: reported in {found['seat']}")
            lying_unread = [(placed, event.t if placed.card == event.card and gone == math.inf
                             else gone) for placed, gone in lying_unread]
    for index, report in enumerate(left):
        if report["event"] != "identified":
            continue
        t = float(report["t"])
        lying = [placed for placed, gone in lying_unread
                 if placed.seat == report["seat"] and placed.t <= t < gone]
        if not lying:
            continue  # left as a phantom: nothing lay unreadable there
        used.add(index)
        placed = max(lying, key=lambda e: e.t)
        lying_unread = [(p, g) for p, g in lying_unread if p is not placed]
        unreadable -= 1
        if report["card"] == placed.card:
            right += 1
            named.append(placed.card)
        else:
            wrong.append(f"placed {placed.card} in {placed.seat} at {placed.t:.2f}s: "
                         f"identified later as {report['card']}")
    phantoms = [json.dumps(e) for i, e in enumerate(left) if i not in used]
    return Comparison(
        placed=sum(e.event == "placed" for e in truth), right=right, unreadable=unreadable,
        wrong=wrong, wrong_seat=wrong_seat, missed=missed,
        removed=sum(e.event == "removed" for e in truth), removed_found=removed_found,
        phantoms=phantoms, delays=delays, named=named)
