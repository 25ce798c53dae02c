"""A card's true shape and its long sides from its outline in a frame seen at a slant."""

from __future__ import annotations

import numpy as np
import pytest

from tools.scenes import seen_at_slant, table_background
from vision.config import VisionConfig
from vision.foreshortening import long_pair, true_aspect
from vision.propose import find_cards

WIDTH, HEIGHT = 640, 480


def card_outline(centre: tuple[float, float], angle: float, long_side: float = 150.0) -> np.ndarray:
    """A card's outline (1.4 times as long as wide) on a table seen square on, its corners
    clockwise from one end of a short side."""
    half_w, half_h = long_side / 2.8, long_side / 2
    local = np.array([[-half_w, -half_h], [half_w, -half_h], [half_w, half_h], [-half_w, half_h]])
    theta = np.deg2rad(angle)
    turn = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
    return (local @ turn.T + np.array(centre)).astype(np.float32)


def pictured(outline: np.ndarray, tilt: float) -> np.ndarray:
    """The outline as the tilted camera of `seen_at_slant` pictures it."""
    blank = np.zeros((HEIGHT, WIDTH, 3), np.uint8)
    return seen_at_slant(blank, [outline], tilt, 1.0)[1][0]


@pytest.mark.parametrize("tilt", [0.0, 25.0, 40.0, 55.0])
@pytest.mark.parametrize("angle", [0.0, 35.0, 80.0, 125.0])
def test_the_true_aspect_and_long_sides_of_a_card_pictured_at_a_slant(tilt: float,
                                                                      angle: float) -> None:
    for centre in ((200.0, 150.0), (420.0, 330.0)):
        outline = pictured(card_outline(centre, angle), tilt)
        seen = true_aspect(outline, WIDTH, HEIGHT)
        assert seen is not None
        assert seen[0] == pytest.approx(1.4, abs=0.01)
        # Corners 0-1 are a short side of the card, whatever the picture makes of them.
        assert seen[1] == 1
        if tilt <= 50.0:
            # Steeper, a card's long sides can look a quarter shorter than its short ones: then
            # the picture is not in doubt, and it decides.
            assert long_pair(outline, (WIDTH, HEIGHT)) == 1


def test_the_picture_decides_the_long_sides_unless_it_is_in_doubt() -> None:
    # Lying along the view and seen at 50 degrees, the card's long sides are the shorter on
    # screen.
    outline = pictured(card_outline((320.0, 240.0), 0.0), 50.0)
    sides = np.linalg.norm(outline - np.roll(outline, -1, axis=0), axis=1)
    assert sides[1] + sides[3] < sides[0] + sides[2] < 1.25 * (sides[1] + sides[3])
    assert long_pair(outline) == 0
    assert long_pair(outline, (WIDTH, HEIGHT)) == 1
    # Seen steeper, it is clearly longer the other way on screen: taken as it looks.
    steep = pictured(card_outline((320.0, 240.0), 0.0), 62.0)
    assert true_aspect(steep, WIDTH, HEIGHT) == (pytest.approx(1.4, abs=0.01), 1)
    assert long_pair(steep, (WIDTH, HEIGHT)) == 0
    # A square seen square on has no card's shape: the picture decides.
    square = np.array([[100, 100], [200, 100], [200, 201], [100, 201]], np.float32)
    assert long_pair(square, (WIDTH, HEIGHT)) == 1


def test_an_outline_no_rectangle_pictures_has_no_true_aspect() -> None:
    crossed = np.array([[100, 100], [200, 200], [200, 100], [100, 200]], np.float32)
    assert true_aspect(crossed, WIDTH, HEIGHT) is None


@pytest.mark.parametrize("size", [(120, 115), (150, 140), (90, 200), (200, 90)])
def test_white_shapes_seen_from_above_that_no_card_makes_are_not_found(
        size: tuple[int, int]) -> None:
    # A napkin, a squat box, a long strip of paper: clean regions of the aspects a slanted card
    # shows on screen, but seen square on their true shape is no card's.
    frame = table_background(WIDTH, HEIGHT, seed=5)
    width, height = size
    left, top = (WIDTH - width) // 2, (HEIGHT - height) // 2
    frame[top:top + height, left:left + width] = 235
    assert find_cards(frame, VisionConfig()) == []
