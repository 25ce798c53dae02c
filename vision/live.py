"""Frames to card events: recognition inside the play area, reused while nothing changes."""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.cards import CardObservation, Quad
from vision.config import VisionConfig
from vision.deblur_outline import long_side
from vision.deck_limit import within_deck
from vision.doubt import in_doubt
from vision.model import GlyphModel
from vision.pipeline import StageClock, recognise
from vision.threads import one_thread
from vision.tracker import CardEvent, CardTracker, TrackerConfig
from vision.zones import TableZones

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]
Box = tuple[int, int, int, int]
"""Left, top, right, bottom (pixels; right and bottom excluded)."""

SEAT_COLOURS = {"N": (255, 160, 40), "E": (40, 200, 255), "S": (200, 80, 255),
                "W": (80, 255, 120)}
AREA_COLOUR = (255, 255, 255)


@dataclass(frozen=True)
class LiveConfig:
    """Tunables of the frame loop around recognition and tracking."""

    thumb_cell: int = 16
    """Frames are compared on a thumbnail with one pixel per cell of this many pixels."""
    change_level: float = 10.0
    """Recognition is rerun once a thumbnail pixel changes by more than this (0-255 grey)."""
    table_chroma: float = 14.0
    """A pixel whose Lab a, b lie this close to the table's counts as bare table."""
    bare_share: float = 0.8
    """A card's place counts as bare table when this share of its inner part is table."""
    even_light: bool = True
    """Divide out slow changes of brightness across the view (shadows, lamps) before reading."""
    light_kernel: float = 0.3
    """Bright things smaller than this share of the view's height (cards, hands) are not light."""
    one_thread: bool = True
    """Hold OpenCV and numpy's OpenBLAS to one thread for the whole process (vision.threads):
    their pools slow frames this small down, most of all on a busy machine."""
    motion_wait: float = 0.5
    """While the view still moves against the frame before (a card sliding in, a hand), the
    last recognition is reused for up to this many seconds: a card is read once it lies
    still. A view read while it moves is read without the learned finder's second look (a
    hand leaves the frame in doubt): a part so left in doubt is read again, with it, once the
    view lies still. 0: every changed frame is recognised whole."""
    keep_named: bool = True
    """A card the tracker has placed and named, found again where it lay in a part of the view
    that has not changed, keeps its reading without being read again."""
    border_reach: float = 0.01
    """An unread outline with a side within this share of the view's long side of its border
    is the border cutting off something (a patch of light, a card half out of view), not a
    card's own outline: it is not followed as a card."""
    card_lengths: int = 16
    """The view is recognised knowing a card's length (`VisionConfig.card_length`): the median
    long side of the last this many whole cards read in it at `length_confidence` or more
    (the confidence of the stage that read them: the decision holds a length unlike the one
    learned against a name, which must not keep a camera come nearer from being learned again;
    until one is, it is not known). A table's view is several card lengths wide: sizes
    guessed from the view's own size suit a close-up photo, not it. 0: not learned."""
    length_confidence: float = 0.7
    view_long_side: int = 1088
    """The play-area view is searched for outlines at up to this long side, where a photo is
    shrunk to `VisionConfig.detect_long_side` (0: as a photo). A 1080p camera's play area
    (about 1080 px square, cards 140 px) is then searched as it is: shrunk, its cards are too
    small for the masks' morphology."""
    region_share: float = 0.5
    """Once the card length is known, only the part of the view that changed since the last
    recognition (and the cards settling), grown by a card length and until its edge cuts
    no outline read before but a named card lying still, is recognised when it is at most
    this share of the view; the cards outside it, and those lying still it cuts, are kept as
    they were read. 0: the whole view is always recognised."""


def view_config(vision_config: VisionConfig, config: LiveConfig) -> VisionConfig:
    """The recognition settings for a play-area view."""
    if config.view_long_side <= 0:
        return vision_config
    return replace(vision_config, detect_long_side=config.view_long_side)


def crop_box(zones: TableZones, width: int, height: int, margin: float = 0.03) -> tuple[
        int, int, int, int]:
    """The play area's bounding box, grown a little, clipped to the frame: x0, y0, x1, y1."""
    xs = [x for x, _ in zones.play_area]
    ys = [y for _, y in zones.play_area]
    grow = margin * max(width, height)
    x0, y0 = max(0, int(min(xs) - grow)), max(0, int(min(ys) - grow))
    x1, y1 = min(width, int(max(xs) + grow) + 1), min(height, int(max(ys) + grow) + 1)
    return x0, y0, x1, y1


class TableWatcher:
    """Recognises the cards of each frame and feeds them to a CardTracker.

    While nothing in the view changes and no new card is settling, the last recognition is
    reused, which keeps the frame rate up without repeating a reading as if it were new. When
    the view is recognised again, a card the tracker has placed and named that is found where
    it lay, in a part of the view that did not change, keeps its reading (`keep_named`).
    """

    def __init__(self, model: GlyphModel, zones: TableZones,
                 vision_config: VisionConfig | None = None,
                 tracker_config: TrackerConfig | None = None,
                 live_config: LiveConfig | None = None,
                 stages: StageClock | None = None) -> None:
        self.model = model
        self.zones = zones
        self.config = live_config or LiveConfig()
        self.vision_config = view_config(vision_config or VisionConfig(), self.config)
        self.tracker_config = tracker_config
        self.tracker: CardTracker | None = None
        self.observations: list[CardObservation] = []
        self.recognised = 0
        self.frames = 0
        self._thumb: npt.NDArray[np.float32] | None = None
        self._previous: npt.NDArray[np.float32] | None = None
        """The thumbnail of the frame before, to tell a moving view from a still one."""
        self._recognised_at = -math.inf
        self._owed: Box | None = None
        """The part last read while the view moved, left in doubt: read again once still."""
        self._looked: list[CardObservation] = []
        """What a second look left in doubt (frame pixels): no second look again where it is
        found again as it was (`vision.pipeline.read_frame`)."""
        self._box = (0, 0, 0, 0)
        self._lengths: deque[float] = deque(maxlen=max(1, self.config.card_lengths))
        """Long sides of the last whole cards read surely (view pixels)."""
        self.stages = stages
        """When given, the CPU time of each stage (recognition's and the loop's) is added."""
        if self.config.one_thread:
            one_thread()

    def process(self, t: float, frame: Image) -> list[CardEvent]:
        """Recognise (or reuse) the cards of one frame taken at time `t`; return new events."""
        height, width = frame.shape[:2]
        if self.tracker is None or self.tracker.zones.frame_size != (width, height):
            zones = self.zones.scaled_to(width, height)
            self.tracker = CardTracker(zones, self.tracker_config)
            self._box = crop_box(zones, width, height)
            self._thumb = None
            self._owed = None
            self._looked = []
            self._lengths.clear()
        x0, y0, x1, y1 = self._box
        crop = frame[y0:y1, x0:x1]
        clock = self.stages or StageClock(enabled=False)
        with clock.stage("change test"):
            small = grey_thumbnail(crop, self.config.thumb_cell)
            thumb = small.astype(np.float32)
        origin = np.array([x0, y0], np.float32)
        fresh: list[bool] = [False] * len(self.observations)
        previous, self._previous = self._previous, thumb
        # Without a motion wait, motion is not looked at: every changed frame is read in full.
        moving = (None if not self.config.motion_wait or previous is None
                  or previous.shape != thumb.shape
                  else changed_cells(thumb, previous, self.config))
        moved = moving is not None and bool(moving.any())
        still = moving is not None and not moved
        region: Box | None = None
        if self._due(t, thumb, origin, moving):
            settled = self._settled(thumb, origin)
            region = self._region(thumb, origin, crop.shape[1], crop.shape[0], settled)
        elif self._owed is not None and still:
            settled, region = self._settled(thumb, origin), self._owed
        if region is not None:
            fresh = self._recognise(crop, small, origin, settled, region, moved)
            # Read while moving, a part left in doubt is read again once the view lies still.
            self._owed = region if moved and in_doubt(
                [o for o in self.observations if meets_box(o.corners - origin, region)]) else None
            self._remember(thumb, region)
            self._recognised_at = t
        self.frames += 1
        bare = BareTable(crop, (x0, y0), self.config)
        with clock.stage("tracker"):
            return self.tracker.update(t, self.observations, bare.is_bare, fresh)

    def _due(self, t: float, thumb: Floats, origin: Floats,
             moving: npt.NDArray[np.bool_] | None) -> bool:
        """Whether the view is recognised again: it changed since it was last, or a new card
        settles; and it lies still against the frame before (`moving`: the cells that changed
        since), where a settling card lies (or has moved for `motion_wait` seconds)."""
        assert self.tracker is not None
        settling = [track for track in self.tracker.tracks if not track.placed]
        if not (self._thumb is None or settling
                or changed_cells(thumb, self._thumb, self.config).any()):
            return False
        if moving is None:
            return True
        if not moving.any() or t - self._recognised_at >= self.config.motion_wait:
            return True
        return any(not self._under(moving, track.sighting.corners, origin).any()
                   for track in settling)

    def _under(self, cells: npt.NDArray[np.bool_], corners: Quad, origin: Floats
               ) -> npt.NDArray[np.bool_]:
        """The thumbnail cells of `cells` under an outline (frame pixels) and next to it."""
        grown = np.asarray(cv2.dilate(cells.astype(np.uint8), np.ones((3, 3), np.uint8)),
                           np.uint8)
        under = np.zeros_like(grown)
        cv2.fillConvexPoly(under, np.round((corners - origin) / self.config.thumb_cell
                                           ).astype(np.int32), 1)
        covered: npt.NDArray[np.bool_] = (grown & under) > 0
        return covered

    def _settled(self, thumb: Floats, origin: Floats) -> list[CardObservation]:
        """The last observations of the cards the tracker has placed and named whose part of
        the view (and the cells around it) has not changed: they need not be read again."""
        if (not self.config.keep_named or self.tracker is None or self._thumb is None
                or not self.observations):
            return []
        changed = changed_cells(thumb, self._thumb, self.config)
        settled = []
        for track in self.tracker.on_table:
            known = next((o for o in self.observations if o.whole and o.name == track.card
                          and np.array_equal(o.corners, track.sighting.corners)), None)
            if known is None or track.card is None:
                continue
            if not self._under(changed, known.corners, origin).any():
                settled.append(known)
        return settled

    def _region(self, thumb: Floats, origin: Floats, width: int, height: int,
                settled: list[CardObservation]) -> Box:
        """The part of the view to recognise (view pixels): where it changed since the last
        recognition and the cards settling or unnamed lie, grown by a card length and until
        its edge cuts no outline read before but the `settled` cards' (kept as they were read
        where it cuts them); the whole view where that is more than `region_share`, or where
        a card named there is far longer than the card length (`known_card_longest`: the
        camera came nearer)."""
        whole = (0, 0, width, height)
        length = self.card_length
        if (not self.config.region_share or length is None or self._thumb is None
                or self._thumb.shape != thumb.shape or self.tracker is None):
            return whole
        cell = self.config.thumb_cell
        rows, cols = np.nonzero(changed_cells(thumb, self._thumb, self.config))
        points = [np.stack([cols * cell, rows * cell], axis=1).astype(np.float32),
                  np.stack([(cols + 1) * cell, (rows + 1) * cell], axis=1).astype(np.float32),
                  *(track.sighting.corners - origin for track in self.tracker.tracks
                    if not track.placed or track.card is None)]
        spread = np.concatenate(points)
        if not len(spread):
            return whole
        # A card touching a changed cell lies wholly within a card length of it.
        left, top = spread.min(axis=0) - length
        right, bottom = spread.max(axis=0) + length
        margin = 2 * max(2.0, self.config.border_reach * max(width, height))
        longest = self.vision_config.known_card_longest * length
        kept = {id(o) for o in settled}
        bounds = [(q.min(axis=0) - margin, q.max(axis=0) + margin,
                   o.name is not None and o.whole and long_side(q) > longest)
                  for o, q in ((o, o.corners - origin) for o in self.observations
                               if id(o) not in kept)]
        grown = True
        while grown:
            grown = False
            for low, high, long in bounds:
                meets = low[0] < right and high[0] > left and low[1] < bottom and high[1] > top
                if meets and long:
                    return whole
                if meets and not (low[0] >= left and low[1] >= top and high[0] <= right
                                  and high[1] <= bottom):
                    left, top = min(left, low[0]), min(top, low[1])
                    right, bottom = max(right, high[0]), max(bottom, high[1])
                    grown = True
        box = (max(0, math.floor(left)), max(0, math.floor(top)),
               min(width, math.ceil(right)), min(height, math.ceil(bottom)))
        area = (box[2] - box[0]) * (box[3] - box[1])
        return box if area <= self.config.region_share * width * height else whole

    def _remember(self, thumb: Floats, region: Box) -> None:
        """The thumbnail the view was recognised at: its cells in `region` (the others keep
        the one their cards were read at, so a slow change there still adds up)."""
        if self._thumb is None or self._thumb.shape != thumb.shape:
            self._thumb = thumb
            return
        cell = self.config.thumb_cell
        left, top, right, bottom = region
        rows = slice(top // cell, -(-bottom // cell))
        cols = slice(left // cell, -(-right // cell))
        self._thumb = self._thumb.copy()
        self._thumb[rows, cols] = thumb[rows, cols]

    def _recognise(self, crop: Image, small: Image, origin: Floats,
                   settled: list[CardObservation], region: Box, moving: bool = False
                   ) -> list[bool]:
        """Recognise the `region` of the view and keep the observations lying outside it; the
        observations are fresh but those kept and those `settled` (given in frame pixels)."""
        clock = self.stages or StageClock(enabled=False)
        height, width = crop.shape[:2]
        left, top, right, bottom = region
        with clock.stage("even lighting"):
            view = evened(crop, small, self.config, region)
        shift = origin + np.array([left, top], np.float32)
        # Recognition works in the region's pixels: the settled cards are handed over in them,
        # those the region's edge cuts too (kept as they were read, `vision.pipeline`).
        local = {id(o): replace(o, corners=o.corners - shift) for o in settled
                 if meets_box(o.corners - origin, region)}
        config = self.sized_config(width, height, region)
        if moving:
            config = replace(config, learned_finder=None)
        looked = [replace(o, corners=o.corners - shift) for o in self._looked
                  if meets_box(o.corners - origin, region)]
        found = recognise(view, self.model, config, self.stages, list(local.values()), looked)
        handed = {id(o) for o in local.values()}
        reach = max(2.0, self.config.border_reach * max(width, height))
        view_sides = (left == 0, top == 0, right == width, bottom == height)
        inner = (left > 0, top > 0, right < width, bottom < height)
        found = [o for o in found if id(o) in handed
                 or (not on_border(o.corners, right - left, bottom - top, reach, inner)
                 and (o.name is not None
                      or not on_border(o.corners, right - left, bottom - top, reach,
                                       view_sides)))]
        back = {id(o): o for o in settled}
        kept = {id(local_o): back[key] for key, local_o in local.items()}
        read = [kept.get(id(o)) or replace(o, corners=o.corners + shift) for o in found]
        outside = [o for o in self.observations if not meets_box(o.corners - origin, region)]
        old = {id(o) for o in outside} | {id(o) for o in kept.values()}
        self.observations = within_deck([*outside, *read], self.vision_config.copies)
        if not moving:
            # Read with the second look: what it leaves in doubt here, it has seen.
            self._looked = [*(o for o in self._looked if not meets_box(o.corners - origin, region)),
                            *(o for o in read if o.reading is None or o.one_end)]
        self.recognised += 1
        fresh = [id(o) not in old for o in self.observations]
        if self.config.card_lengths:
            self._lengths.extend(
                long_side(o.corners) for o, new in zip(self.observations, fresh, strict=True)
                if new and o.whole and o.reading is not None
                and o.reading.confidence >= self.config.length_confidence)
        return fresh

    @property
    def card_length(self) -> float | None:
        """The card length the view is now recognised knowing (view pixels), or None."""
        return float(np.median(list(self._lengths))) if self._lengths else None

    def sized_config(self, width: int = 0, height: int = 0, region: Box | None = None
                     ) -> VisionConfig:
        """The recognition settings, with the card length learned so far; for a `region` of a
        view of width x height, the least card and the scale as in the whole view."""
        length = self.card_length
        config = (self.vision_config if length is None
                  else replace(self.vision_config, card_length=length))
        if region is None or (region[2] - region[0], region[3] - region[1]) == (width, height):
            return config
        part = (region[2] - region[0], region[3] - region[1])
        share = padded_area(width, height, config) / padded_area(*part, config)
        # The region is searched at the scale the whole view would be.
        scale = min(1.0, config.detect_long_side / max(width, height))
        return replace(config, min_card_area=config.min_card_area * share,
                       detect_long_side=math.ceil(scale * max(part)))


def on_border(corners: Quad, width: int, height: int, reach: float,
              sides: tuple[bool, bool, bool, bool] = (True, True, True, True)) -> bool:
    """Whether a side of the outline runs along one of the chosen `sides` (left, top, right,
    bottom) of the border of a view of width x height."""
    quad = np.asarray(corners, np.float32)
    left, top, right, bottom = sides
    for start, end in zip(quad, np.roll(quad, -1, axis=0), strict=True):
        for axis, low, high, limit in ((0, left, right, width - 1), (1, top, bottom, height - 1)):
            if ((low and max(start[axis], end[axis]) <= reach)
                    or (high and min(start[axis], end[axis]) >= limit - reach)):
                return True
    return False


def padded_area(width: int, height: int, config: VisionConfig) -> float:
    """The area of a view of width x height as the card search pads it (`pad_fraction`)."""
    pad = 2 * config.pad_fraction * max(width, height)
    return (width + pad) * (height + pad)


def meets_box(corners: Quad, box: Box) -> bool:
    """Whether the outline's bounding box meets the box."""
    quad = np.asarray(corners, np.float32)
    low, high = quad.min(axis=0), quad.max(axis=0)
    return bool(low[0] < box[2] and high[0] > box[0] and low[1] < box[3] and high[1] > box[1])


def grey_thumbnail(image: Image, cell: int) -> Image:
    """The image in grey, one pixel per whole cell of `cell` pixels (its mean; the pixels past
    the last whole cell are left out, so that cell k covers pixels k * cell to (k + 1) * cell,
    and the shrink is OpenCV's quick one for a whole ratio)."""
    columns, rows = max(1, image.shape[1] // cell), max(1, image.shape[0] // cell)
    grey = cv2.cvtColor(image[:rows * cell, :columns * cell], cv2.COLOR_BGR2GRAY)
    return np.asarray(cv2.resize(grey, (columns, rows), interpolation=cv2.INTER_AREA), np.uint8)


def changed_cells(thumb: Floats, last: Floats, config: LiveConfig) -> npt.NDArray[np.bool_]:
    """The thumbnail cells that changed by more than an overall lighting shift."""
    difference = thumb - last
    difference -= float(np.median(difference))
    changed: npt.NDArray[np.bool_] = np.abs(difference) > config.change_level
    return changed


def evened(view: Image, small: Image, config: LiveConfig, region: Box | None = None) -> Image:
    """The view (or its `region`) lit evenly (`even_lighting`) when the config asks for it;
    the light is measured on the view's grey thumbnail `small`."""
    height, width = view.shape[:2]
    left, top, right, bottom = region or (0, 0, width, height)
    part = view[top:bottom, left:right]
    if not config.even_light:
        return part
    gain = cv2.resize(light_gain(small, config), (width, height),
                      interpolation=cv2.INTER_LINEAR)[top:bottom, left:right]
    evened_part = cv2.multiply(part, cv2.merge([gain, gain, gain]), dtype=cv2.CV_8U)
    return np.asarray(evened_part, np.uint8)


def light_gain(small: Image, config: LiveConfig) -> Floats:
    """Per-cell gain that evens the view's large-scale brightness, from its grey thumbnail.

    The light is estimated by a grey opening that removes anything bright and smaller than a
    card, then smoothed; each cell's gain is the median light over its own."""
    span = max(3, round(config.light_kernel * small.shape[0])) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (span, span))
    light = cv2.morphologyEx(small, cv2.MORPH_OPEN, kernel, borderType=cv2.BORDER_REPLICATE)
    smooth = cv2.GaussianBlur(light.astype(np.float32), (0, 0), span / 2)
    gain: Floats = (float(np.median(smooth)) / np.maximum(smooth, 1.0)).astype(np.float32)
    return gain


def even_lighting(image: Image, config: LiveConfig) -> Image:
    """The image with the table's large-scale brightness made even (cards keep their contrast).

    The light is estimated on a thumbnail by a grey opening that removes anything bright and
    smaller than a card, then smoothed; each pixel is scaled by the median light over its own.
    """
    return evened(image, grey_thumbnail(image, config.thumb_cell), config)


class BareTable:
    """Tells whether the table shows bare inside a card outline (computed only when asked)."""

    def __init__(self, crop: Image, origin: tuple[int, int], config: LiveConfig) -> None:
        self.crop = crop
        self.origin = np.array(origin, np.float32)
        self.config = config
        self._chroma: npt.NDArray[np.float32] | None = None
        self._table = np.zeros(2, np.float32)

    def _lab(self) -> npt.NDArray[np.float32]:
        if self._chroma is None:
            small = cv2.resize(self.crop, (max(1, self.crop.shape[1] // 4),
                                           max(1, self.crop.shape[0] // 4)),
                               interpolation=cv2.INTER_AREA)
            lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)[:, :, 1:].astype(np.float32)
            self._table = np.median(lab.reshape(-1, 2), axis=0)
            self._chroma = np.linalg.norm(lab - self._table, axis=2)
        return self._chroma

    def is_bare(self, corners: Quad) -> bool:
        """True when the inner part of the outline shows (almost) only table colour."""
        chroma = self._lab()
        quad = (np.asarray(corners, np.float32) - self.origin) / 4.0
        centre = quad.mean(axis=0)
        inner = centre + (quad - centre) * 0.8
        mask = np.zeros(chroma.shape, np.uint8)
        cv2.fillConvexPoly(mask, np.round(inner).astype(np.int32), 1)
        inside = chroma[mask > 0]
        if inside.size == 0:
            return True
        share = float((inside < self.config.table_chroma).mean())
        return share >= self.config.bare_share


def draw_zones(frame: Image, zones: TableZones, observations: list[CardObservation]) -> Image:
    """A copy of the frame with the play area, seat zones and found cards (with seats) drawn."""
    out = frame.copy()
    zones = zones.scaled_to(frame.shape[1], frame.shape[0])
    scale = max(0.5, max(frame.shape[:2]) / 1000.0)
    thick = max(1, round(2 * scale))
    overlay = out.copy()
    for seat, zone in zones.seats:
        points = np.round(np.array(zone)).astype(np.int32)
        cv2.fillPoly(overlay, [points], SEAT_COLOURS[seat])
    cv2.addWeighted(overlay, 0.18, out, 0.82, 0, dst=out)
    for seat, zone in zones.seats:
        points = np.round(np.array(zone)).astype(np.int32)
        cv2.polylines(out, [points], True, SEAT_COLOURS[seat], thick)
        cx, cy = points.mean(axis=0)
        cv2.putText(out, seat, (int(cx) - 10, int(cy) + 10), cv2.FONT_HERSHEY_SIMPLEX,
                    1.2 * scale, SEAT_COLOURS[seat], thick + 1, cv2.LINE_AA)
    area = np.round(np.array(zones.play_area)).astype(np.int32)
    cv2.polylines(out, [area], True, AREA_COLOUR, thick)
    for observation in observations:
        corners = np.round(observation.corners).astype(np.int32)
        centre = observation.corners.mean(axis=0)
        where = zones.seat_of((float(centre[0]), float(centre[1])))
        colour = SEAT_COLOURS.get(where or "", (0, 0, 255))
        cv2.polylines(out, [corners], True, colour, thick + 1)
        label = f"{observation.name or '?'} {observation.confidence:.2f} {where or '-'}"
        x, y = (int(v) for v in corners.min(axis=0))
        cv2.putText(out, label, (x, max(14, y - 6)), cv2.FONT_HERSHEY_SIMPLEX, 0.7 * scale,
                    colour, thick, cv2.LINE_AA)
    return out
