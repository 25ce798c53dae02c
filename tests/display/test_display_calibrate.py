"""The calibration window under SDL's dummy driver, driven by posted pygame events."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from collections.abc import Callable

import numpy as np
import pygame
import pytest

from display.calibrate import CalibrationEditor, run_window
from tools.scenes import paste_card, plain_card, table_background
from vision.cards import CardObservation
from vision.model import GlyphModel
from vision.pipeline import recognise
from vision.zones import TableZones, default_zones

WIDTH, HEIGHT = 640, 360


def frame() -> np.ndarray:
    scene = table_background(WIDTH, HEIGHT, seed=2)
    paste_card(scene, plain_card("K", (20, 20, 20)), (320, 120), 110, 10)
    return scene


def scripted(steps: list[list[pygame.event.Event]]) -> Callable[[], np.ndarray]:
    """A frame reader that posts the next step's events each time a frame is taken."""
    image = frame()
    calls = iter(steps)

    def read() -> np.ndarray:
        for event in next(calls, []):
            pygame.event.post(event)
        return image

    return read


def key(code: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="", scancode=0)


def click(x: float, y: float, button: int = 1) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(round(x), round(y)), button=button)


def test_marking_the_play_area_by_clicks_and_saving() -> None:
    saved: list[TableZones] = []
    seen: list[list[CardObservation]] = []
    model = GlyphModel.load()

    def detect(image: np.ndarray) -> list[CardObservation]:
        seen.append(recognise(image, model))
        return seen[-1]

    scale = 1.6  # a 640x360 frame in the 1024x640 window
    corners = [(50, 40), (600, 40), (600, 330), (50, 330)]
    steps = [[key(pygame.K_d)], [key(pygame.K_p), key(pygame.K_c)],
             [click(x * scale, y * scale) for x, y in corners],
             [click(5, 5), click(0, 0, button=3)], [key(pygame.K_RETURN)]]
    editor = CalibrationEditor((WIDTH, HEIGHT))
    assert run_window(scripted(steps), editor, detect, saved.append, max_frames=20)
    (zones,) = saved
    assert np.array(zones.play_area) == pytest.approx(np.array(corners, float), abs=1)
    assert zones.seats == default_zones(WIDTH, HEIGHT).seats
    assert len(seen[0]) == 1 and zones.seat_of(tuple(seen[0][0].corners.mean(axis=0))) == "N"


def test_an_incomplete_calibration_is_not_saved() -> None:
    saved: list[TableZones] = []
    steps = [[click(100, 100), click(300, 100), key(pygame.K_RETURN)], [], [key(pygame.K_ESCAPE)]]
    editor = CalibrationEditor((WIDTH, HEIGHT))
    assert not run_window(scripted(steps), editor, lambda image: [], saved.append, max_frames=10)
    assert saved == []
    assert editor.missing() == ["play_area", "N", "E", "S", "W"]


def test_editor_steps_through_the_zones_and_undoes_corners() -> None:
    editor = CalibrationEditor((WIDTH, HEIGHT), default_zones(WIDTH, HEIGHT))
    assert editor.missing() == []
    editor.next_part()
    assert editor.part == "N"
    editor.undo()
    assert editor.missing() == ["N"]
    editor.click((320.0, 180.0))
    assert editor.zones().zone("N")[-1] == (320.0, 180.0)
