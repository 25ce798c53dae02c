"""Unread outlines fitted to the card's own edges, and read again there."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tools.scenes import paste_card, table_background
from tools.synthetic import artwork_cards
from vision.cards import CardObservation, Image, Quad, Rank, Reading, Suit
from vision.config import OutlineFitConfig, VisionConfig
from vision.learned import shipped_reader
from vision.learned_first import LearnedViews
from vision.model import GlyphModel
from vision.outline_fit import fitted_outline
from vision.unread_outlines import fitted_unread

ARTWORK = Path(__file__).resolve().parents[2] / "vision" / "data" / "artwork"
CARDS = ("TS", "QH", "9C", "AD")


def _moved(quad: Quad, grow: float, turn: float) -> Quad:
    """The quad grown by `grow` of its short side on every side and turned by `turn` degrees
    about its centre: an outline that sits off the card."""
    centre = quad.mean(axis=0)
    sides = np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)
    short = float(min(sides[0] + sides[2], sides[1] + sides[3]) / 2)
    out = []
    for k in range(4):
        towards = quad[k] - centre
        out.append(centre + towards * (1.0 + grow * short / float(np.linalg.norm(towards))))
    theta = np.deg2rad(turn)
    rotation = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
    moved: Quad = ((np.asarray(out) - centre) @ rotation.T + centre).astype(np.float32)
    return moved


def _scene(length: float, table: str, seed: int) -> tuple[Image, list[Quad]]:
    """Four artwork cards `length` pixels long on a green or a mid-grey table, softened as a
    webcam sees them."""
    faces = dict(artwork_cards(ARTWORK))
    width, height = int(length * 5.2), int(length * 1.8)
    frame = table_background(width, height, seed=seed)
    if table == "grey":
        frame[:] = np.clip(frame.astype(np.int16) + 75, 0, 255).astype(np.uint8)
    quads = [paste_card(frame, faces[name], (length * (0.75 + 1.2 * i), length * 0.9),
                        length, angle=-25 + 17 * i, tilt=0.04 * (i % 2))
             for i, name in enumerate(CARDS)]
    return cv2.GaussianBlur(frame, (0, 0), 0.8), quads


def _corner_error(fitted: Quad, truth: Quad) -> float:
    """The largest distance of a fitted corner from the nearest true corner."""
    apart = np.linalg.norm(fitted[:, None, :] - truth[None, :, :], axis=2)
    return float(apart.min(axis=1).max())


@pytest.mark.parametrize("length", [95.0, 140.0])
@pytest.mark.parametrize("table", ["green", "grey"])
@pytest.mark.parametrize(("grow", "turn"), [(0.12, 0.0), (-0.1, 0.0), (0.08, 7.0),
                                            (0.0, -9.0)])
def test_an_outline_off_the_card_is_fitted_onto_its_edges(
        length: float, table: str, grow: float, turn: float) -> None:
    frame, quads = _scene(length, table, seed=int(length) + len(table))
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    for truth in quads:
        off = _moved(truth, grow, turn)
        assert _corner_error(off, truth) > 4.0
        fitted = fitted_outline(gray, off, OutlineFitConfig())
        assert fitted is not None
        assert _corner_error(fitted, truth) < 0.03 * length


def test_no_fit_where_no_card_edge_runs() -> None:
    frame, quads = _scene(140.0, "green", seed=3)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    # The same shape on the bare table below the cards.
    empty = quads[0] + np.array([0.0, 200.0], np.float32)
    assert fitted_outline(gray, empty, OutlineFitConfig()) is None
    # Half the card's width away, two sides run across the face: no straight edge there.
    across = quads[1] + (quads[1][1] - quads[1][0]) * 0.5
    assert fitted_outline(gray, across, OutlineFitConfig()) is None


@pytest.mark.parametrize("length", [95.0, 140.0])
def test_an_outline_on_the_card_already_gets_no_second_look(length: float) -> None:
    frame, quads = _scene(length, "green", seed=11)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    for truth in quads:
        assert fitted_outline(gray, truth, OutlineFitConfig()) is None
        assert fitted_outline(gray, _moved(truth, 0.02, 0.0), OutlineFitConfig()) is None
        assert fitted_outline(gray, _moved(truth, 0.02, 0.0),
                              OutlineFitConfig(min_move=0.0)) is not None


@pytest.fixture(scope="module")
def model() -> GlyphModel:
    return GlyphModel.load()


def _unread(quad: Quad) -> CardObservation:
    return CardObservation(quad, None, 0.0, whole=True)


def test_an_unread_outline_is_named_at_its_fitted_edges(model: GlyphModel) -> None:
    frame, quads = _scene(140.0, "green", seed=5)
    config = VisionConfig()
    views = LearnedViews(frame, shipped_reader())
    off = [_moved(q, 0.14, 8.0) for q in quads]
    out = fitted_unread(frame, [_unread(q) for q in off], model, config, views)
    assert [o.name for o in out] == list(CARDS)
    for observation, truth in zip(out, quads, strict=True):
        assert _corner_error(observation.corners, truth) < 4.0
    # Turned off, the outlines stay as they were.
    off_config = replace(config, outline_fit=None)
    assert fitted_unread(frame, [_unread(q) for q in off], model, off_config, views) == [
        _unread(q) for q in off]


def test_a_fitted_card_takes_the_place_of_its_own_loose_corner_and_not_another_card(
        model: GlyphModel) -> None:
    frame, quads = _scene(140.0, "green", seed=7)
    config = VisionConfig()
    views = LearnedViews(frame, shipped_reader())
    truth = quads[0]
    corner = np.array([truth[0], truth[0] + (truth[1] - truth[0]) * 0.25,
                       truth[0] + (truth[2] - truth[0]) * 0.25,
                       truth[0] + (truth[3] - truth[0]) * 0.25], np.float32)
    ten = Reading(Rank.TEN, Suit.SPADES, 0.85)
    loose = CardObservation(corner, ten, 0.85, whole=False)
    out = fitted_unread(frame, [_unread(_moved(truth, 0.14, 8.0)), loose], model, config, views)
    assert [(o.name, o.whole) for o in out] == [("TS", True)]
    # A loose corner read as another card, or a card named whole there, keeps the fit out.
    other = replace(loose, reading=Reading(Rank.NINE, Suit.SPADES, 0.85))
    for named in (other, CardObservation(truth, ten, 0.9, whole=True)):
        observations = [_unread(_moved(truth, 0.14, 8.0)), named]
        assert fitted_unread(frame, observations, model, config, views) == observations


def _aspect(quad: Quad) -> float:
    sides = np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)
    return float(max(sides[0] + sides[2], sides[1] + sides[3])
                 / min(sides[0] + sides[2], sides[1] + sides[3]))


def _on_a_back(length: float, seed: int) -> tuple[Image, list[Quad], list[Quad]]:
    """Four artwork cards each laid on another card's back, a strip of the back showing beyond
    its top; the cards' outlines and the outlines of card and strip together."""
    faces = dict(artwork_cards(ARTWORK))
    width, height = int(length * 5.2), int(length * 2.4)
    frame = table_background(width, height, seed=seed)
    frame[:] = np.clip(frame.astype(np.int16) + 75, 0, 255).astype(np.uint8)
    back = np.zeros_like(faces["TS"])
    back[:] = (60, 170, 90)
    back[::9, :] = (230, 240, 230)
    cards, together = [], []
    for i, name in enumerate(CARDS):
        angle = -12.0 + 8 * i
        centre = np.array([length * (0.75 + 1.2 * i), length * 1.35])
        theta = np.deg2rad(angle)
        down = np.array([-np.sin(theta), np.cos(theta)])
        under = paste_card(frame, back, tuple(centre - 0.4 * length * down), length, angle)
        card = paste_card(frame, faces[name], tuple(centre), length, angle)
        cards.append(card)
        together.append(np.array([under[0], under[1], card[2], card[3]], np.float32))
    return cv2.GaussianBlur(frame, (0, 0), 0.8), cards, together


@pytest.mark.parametrize("length", [95.0, 140.0])
def test_a_card_on_the_strip_of_a_back_is_named_at_its_own_end(
        length: float, model: GlyphModel) -> None:
    frame, cards, together = _on_a_back(length, seed=int(length))
    assert all(_aspect(q) > 1.8 for q in together)
    config = VisionConfig()
    views = LearnedViews(frame, shipped_reader())
    out = fitted_unread(frame, [_unread(q) for q in together], model, config, views)
    named = [o for o in out if o.name]
    assert len(named) >= 3
    for observation in named:
        truth = cards[CARDS.index(observation.name)]
        assert _corner_error(observation.corners, truth) < 0.06 * length
    # Without the lines within they stay unread.
    assert config.outline_fit is not None
    no_lines = replace(config, outline_fit=replace(config.outline_fit, lines_within=0))
    assert fitted_unread(frame, [_unread(q) for q in together], model, no_lines, views) == [
        _unread(q) for q in together]
