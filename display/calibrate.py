"""The calibration window: mark the play area and seat zones on the live camera view."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pygame

from display.text import FONT_PATH
from vision.cards import CardObservation
from vision.zones import SEATS, CalibrationError, Point, TableZones, default_zones

Image = npt.NDArray[np.uint8]

PARTS = ("play_area", *SEATS)
PART_KEYS = {pygame.K_p: "play_area", pygame.K_n: "N", pygame.K_e: "E", pygame.K_s: "S",
             pygame.K_w: "W"}
COLOURS = {"play_area": (255, 255, 255), "N": (40, 160, 255), "E": (255, 200, 40),
           "S": (255, 80, 200), "W": (120, 255, 80)}
CARD_COLOUR = (255, 60, 60)
HELP = ("click: add corner  right-click/Backspace: remove  P N E S W: choose zone  "
        "Tab: next  D: default  C: clear  Enter: save  Esc: quit")


class CalibrationEditor:
    """Corners of the play area and each seat zone, as a person marks them."""

    def __init__(self, frame_size: tuple[int, int], zones: TableZones | None = None) -> None:
        self.frame_size = frame_size
        self.polygons: dict[str, list[Point]] = {part: [] for part in PARTS}
        self.part = "play_area"
        if zones is not None:
            self.load(zones)

    def load(self, zones: TableZones) -> None:
        """Start from existing zones (scaled to this frame size)."""
        zones = zones.scaled_to(*self.frame_size)
        self.polygons["play_area"] = list(zones.play_area)
        for seat, zone in zones.seats:
            self.polygons[seat] = list(zone)

    def click(self, point: Point) -> None:
        """Add a corner to the zone being marked."""
        self.polygons[self.part].append(point)

    def undo(self) -> None:
        """Remove the last corner of the zone being marked."""
        if self.polygons[self.part]:
            self.polygons[self.part].pop()

    def clear(self) -> None:
        """Remove every corner of the zone being marked."""
        self.polygons[self.part].clear()

    def next_part(self) -> None:
        """Move on to the next zone (play area, N, E, S, W, then round again)."""
        self.part = PARTS[(PARTS.index(self.part) + 1) % len(PARTS)]

    def use_default(self) -> None:
        """Replace every zone with the play area cut along its diagonals."""
        self.load(default_zones(*self.frame_size))

    def missing(self) -> list[str]:
        """Zones that still have fewer than three corners."""
        return [part for part in PARTS if len(self.polygons[part]) < 3]

    def zones(self) -> TableZones:
        """The marked zones; raises CalibrationError when one is incomplete."""
        return TableZones.from_dict({
            "frame_size": list(self.frame_size),
            "play_area": [list(p) for p in self.polygons["play_area"]],
            "seats": {seat: [list(p) for p in self.polygons[seat]] for seat in SEATS},
        })


def frame_surface(frame: Image) -> pygame.Surface:
    """A pygame surface of a BGR frame."""
    rgb = np.ascontiguousarray(frame[:, :, ::-1])
    return pygame.image.frombuffer(rgb.tobytes(), (frame.shape[1], frame.shape[0]), "RGB")


def draw(surface: pygame.Surface, frame: Image, editor: CalibrationEditor,
         observations: Sequence[CardObservation], font: pygame.font.Font,
         message: str = "") -> float:
    """Draw the frame, the zones, found cards and help; returns the frame-to-window scale."""
    width, height = surface.get_size()
    bar = font.get_linesize() * 2 + 8
    scale = float(min(width / frame.shape[1], (height - bar) / frame.shape[0]))
    shown = pygame.transform.smoothscale(
        frame_surface(frame), (round(frame.shape[1] * scale), round(frame.shape[0] * scale)))
    surface.fill((0, 0, 0))
    surface.blit(shown, (0, 0))

    def at(point: Point) -> tuple[int, int]:
        return round(point[0] * scale), round(point[1] * scale)

    for part in PARTS:
        points = [at(p) for p in editor.polygons[part]]
        colour = COLOURS[part]
        thick = 3 if part == editor.part else 1
        if len(points) >= 2:
            pygame.draw.lines(surface, colour, len(points) >= 3, points, thick)
        for point in points:
            pygame.draw.circle(surface, colour, point, 4 if part == editor.part else 2)
        if points and part != "play_area":
            cx = sum(p[0] for p in points) // len(points)
            cy = sum(p[1] for p in points) // len(points)
            surface.blit(font.render(part, True, colour), (cx - 6, cy - 8))
    for observation in observations:
        corners = [at((float(x), float(y))) for x, y in observation.corners]
        pygame.draw.lines(surface, CARD_COLOUR, True, corners, 2)
        label = f"{observation.name or '?'} {observation.confidence:.2f}"
        surface.blit(font.render(label, True, CARD_COLOUR), corners[0])
    name = "play area" if editor.part == "play_area" else f"seat {editor.part}"
    status = message or f"marking {name}: {len(editor.polygons[editor.part])} corner(s)"
    surface.blit(font.render(status, True, COLOURS[editor.part]), (4, height - bar + 2))
    surface.blit(font.render(HELP, True, (200, 200, 200)),
                 (4, height - bar + 4 + font.get_linesize()))
    return scale


def handle(event: Any, editor: CalibrationEditor, scale: float) -> str | None:
    """Apply one pygame event to the editor; returns 'save', 'quit' or None."""
    if event.type == pygame.QUIT:
        return "quit"
    if event.type == pygame.MOUSEBUTTONDOWN:
        if event.button == 1:
            editor.click((event.pos[0] / scale, event.pos[1] / scale))
        elif event.button == 3:
            editor.undo()
    elif event.type == pygame.KEYDOWN:
        if event.key in (pygame.K_ESCAPE, pygame.K_q):
            return "quit"
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            return "save"
        if event.key == pygame.K_BACKSPACE:
            editor.undo()
        elif event.key == pygame.K_TAB:
            editor.next_part()
        elif event.key == pygame.K_c:
            editor.clear()
        elif event.key == pygame.K_d:
            editor.use_default()
        elif event.key in PART_KEYS:
            editor.part = PART_KEYS[event.key]
    return None


def run_window(read_frame: Callable[[], Image | None], editor: CalibrationEditor,
               detect: Callable[[Image], list[CardObservation]],
               save: Callable[[TableZones], None], *, size: tuple[int, int] = (1024, 640),
               detect_every: int = 5, max_frames: int | None = None) -> bool:
    """Show the camera until the person saves (returns True) or quits (False).

    Cards are detected on every `detect_every`-th frame and outlined live.
    """
    pygame.display.init()
    pygame.font.init()
    try:
        surface = pygame.display.set_mode(size)
        pygame.display.set_caption("cardtable calibration")
        font = pygame.font.Font(str(FONT_PATH), 14)
        clock = pygame.time.Clock()
        frame: Image | None = None
        observations: list[CardObservation] = []
        message = ""
        count = 0
        while max_frames is None or count < max_frames:
            latest = read_frame()
            if latest is not None:
                frame = latest
            if frame is None:
                return False
            if count % detect_every == 0:
                observations = detect(frame)
            scale = draw(surface, frame, editor, observations, font, message)
            pygame.display.flip()
            for event in pygame.event.get():
                action = handle(event, editor, scale)
                if action == "quit":
                    return False
                if action == "save":
                    try:
                        save(editor.zones())
                        return True
                    except CalibrationError as error:
                        message = f"cannot save: {error}"
            clock.tick(30)
            count += 1
        return False
    finally:
        pygame.quit()
