"""Suit colours stay apart for players with a colour-vision deficiency."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from display.style import FOUR_COLOUR, TWO_COLOUR, Style

# Machado, Oliveira & Fernandes (2009), full severity, applied to linear RGB.
DEFICIENCIES = {
    "normal": np.eye(3),
    "protanopia": np.array([[0.152286, 1.052583, -0.204868],
                            [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968],
                              [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
    "tritanopia": np.array([[1.255528, -0.076749, -0.178779],
                            [-0.078411, 0.930809, 0.147602],
                            [0.004733, 0.691367, 0.303900]]),
}
CARD_WHITE = (255, 255, 255)


def to_linear(colour: tuple[int, int, int]) -> np.ndarray:
    c = np.asarray(colour, dtype=float) / 255
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def to_srgb(linear: np.ndarray) -> np.ndarray:
    c = np.clip(linear, 0, 1)
    srgb: np.ndarray = 255 * np.where(c <= 0.0031308, 12.92 * c, 1.055 * c ** (1 / 2.4) - 0.055)
    return srgb


def seen(colour: tuple[int, int, int], deficiency: str) -> np.ndarray:
    """The colour as a viewer with `deficiency` sees it, in sRGB 0..255."""
    return to_srgb(DEFICIENCIES[deficiency] @ to_linear(colour))


def distance(a: tuple[int, int, int], b: tuple[int, int, int], deficiency: str) -> float:
    return float(np.linalg.norm(seen(a, deficiency) - seen(b, deficiency)))


@pytest.mark.parametrize("deficiency", list(DEFICIENCIES))
def test_four_colour_suits_stay_apart(deficiency: str) -> None:
    for first, second in itertools.combinations("CDHS", 2):
        gap = distance(FOUR_COLOUR[first], FOUR_COLOUR[second], deficiency)
        assert gap > 60, f"{first} and {second} look alike under {deficiency}: {gap:.0f}"


@pytest.mark.parametrize("deficiency", list(DEFICIENCIES))
def test_red_and_black_suits_stay_apart(deficiency: str) -> None:
    assert distance(TWO_COLOUR["H"], TWO_COLOUR["S"], deficiency) > 60


@pytest.mark.parametrize("deficiency", list(DEFICIENCIES))
def test_every_suit_stands_out_on_a_white_card(deficiency: str) -> None:
    for colour in FOUR_COLOUR.values():
        assert distance(colour, CARD_WHITE, deficiency) > 150


def contrast_on_white(colour: tuple[int, int, int]) -> float:
    """WCAG contrast ratio of `colour` against white."""
    linear = to_linear(colour)
    luminance = float(0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2])
    return 1.05 / (luminance + 0.05)


def test_every_suit_colour_reads_on_a_white_card() -> None:
    for suit, colour in FOUR_COLOUR.items():
        assert contrast_on_white(colour) >= 3.0, f"{suit} is too pale on white"


def test_the_style_picks_the_deck() -> None:
    assert Style().suit_colour("D") == Style().suit_colour("H")
    assert Style(four_colour=True).suit_colour("D") != Style(four_colour=True).suit_colour("H")
