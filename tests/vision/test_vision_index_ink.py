"""A card's index ink, measured at both ends (a loose corner's at its one) for the decision's
suit-ink cues: black, red, a four-colour deck's blue and green apart; the decision then names no
blue or green card a spade."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from tools.drawn_deck import camera_look, drawn_scene
from tools.scenes import paste_card, table_background
from tools.synthetic import artwork_cards
from vision.cards import CardObservation, Image, Quad
from vision.config import PipCountConfig, VisionConfig
from vision.corners import cards_of_index
from vision.decide import shipped_threshold
from vision.index_ink import IndexInk, corner_ink, index_inks
from vision.learned import view_corners
from vision.learned_corners import index_box
from vision.model import GlyphModel
from vision.pipeline import read_frame, recognise

CONFIG = PipCountConfig()


def _artwork_table(shared_dir: Path, long_side: float, seed: int, suits: str) -> tuple[
        Image, list[tuple[str, Quad]]]:
    """Court cards of the svg-cards deck in `suits` spread on a table, as a webcam with a
    colour cast sees them."""
    faces = dict(artwork_cards(shared_dir / "vision" / "artwork"))
    rng = np.random.default_rng(seed)
    courts = sorted(n for n in faces if n[1] in suits and n[0] in "JQK")
    names = [str(n) for n in rng.choice(courts, 6, False)]
    frame = table_background(1000, 400, seed=seed)
    placed = [(name, paste_card(frame, faces[name], (100.0 + 160 * k, 200.0), long_side,
                                float(rng.uniform(-180, 180))))
              for k, name in enumerate(names)]
    return camera_look(frame, rng), placed


def _inks(frame: Image, quads: list[Quad]) -> list[IndexInk]:
    """The index ink of every end judged (showing enough ink) of the outlined cards."""
    return [ink for quad in quads for ink in index_inks(frame, quad.astype(np.float32), CONFIG)
            if ink is not None]


@pytest.mark.parametrize("long_side", [140, 95])
def test_black_and_red_courts_index_ink_stand_apart_by_redness(shared_dir: Path,
                                                               long_side: int) -> None:
    black: list[IndexInk] = []
    red: list[IndexInk] = []
    for seed in range(4):
        for suits, inks in (("CS", black), ("DH", red)):
            frame, placed = _artwork_table(shared_dir, long_side, seed, suits)
            inks += _inks(frame, [quad for _, quad in placed])
    # Of 96 ends, those whose index the blur joins to a figure are not judged; the deck's
    # frame line, under a pixel from its index, is no reason.
    assert len(black) + len(red) >= 72
    assert max(ink.redness for ink in black) < CONFIG.red_redness <= min(
        ink.redness for ink in red)
    assert max(ink.chroma for ink in black) < min(ink.chroma for ink in red)


@pytest.mark.parametrize("long_side", [140, 95])
def test_a_loose_corners_ink_is_judged_at_the_index_of_the_card_it_implies(
        shared_dir: Path, long_side: int) -> None:
    vision = VisionConfig()
    inks: dict[str, list[IndexInk]] = {"CS": [], "DH": []}
    for seed in range(4):
        for suits, found in inks.items():
            frame, placed = _artwork_table(shared_dir, long_side, seed, suits)
            size = (frame.shape[1], frame.shape[0])
            for _, quad in placed:
                for end in (0, 1):
                    outline = index_box(view_corners(quad.astype(np.float32), size, end), vision)
                    ink = corner_ink(frame, cards_of_index(outline, vision)[0], CONFIG)
                    found += [ink] if ink is not None else []
    black, red = inks["CS"], inks["DH"]
    assert len(black) + len(red) >= 72
    assert max(ink.redness for ink in black) < min(ink.redness for ink in red)
    assert max(ink.chroma for ink in black) < min(ink.chroma for ink in red)


def test_a_four_colour_decks_blue_and_green_indices_are_told_from_black() -> None:
    inks: dict[str, list[IndexInk]] = {}
    for suit in "DCS":
        for seed in range(3):
            frame, cards = drawn_scene([rank + suit for rank in "JQK"], 140, seed)
            inks.setdefault(suit, []).extend(
                _inks(frame, [np.asarray(card.corners, np.float32) for card in cards]))
    assert all(len(found) >= 12 for found in inks.values())
    spades = inks["S"]
    assert min(ink.chroma for ink in inks["D"]) > max(ink.chroma for ink in spades)
    assert min(ink.greenness for ink in inks["C"]) > max(ink.greenness for ink in spades)
    assert max(ink.redness for ink in [*spades, *inks["D"], *inks["C"]]) < CONFIG.red_redness


Reader = Callable[[Image, GlyphModel, VisionConfig], list[CardObservation]]
"""A way to read a frame: the whole recognition, or the reading before the decision."""


def _coloured_named_spades(config: VisionConfig, read: Reader = recognise,
                          least: float = 0.0) -> tuple[int, int]:
    """Over drawn scenes at 140 px: blue diamonds and green clubs `read` as spades, and cards
    named right, counting the names of confidence `least` or more."""
    model = GlyphModel.load()
    wrong = right = 0
    for seed in range(3):
        names = ["JD", "QD", "KD", "QC", "KC", "QS", "JS", "KS"]
        frame, cards = drawn_scene(names, 140, 20 + seed)
        for observed in read(frame, model, config):
            if observed.confidence < least:
                continue
            centre = np.mean(observed.corners, axis=0)
            truth = min(cards, key=lambda c: float(np.linalg.norm(
                np.mean(c.corners, axis=0) - centre)))
            if observed.name == truth.name:
                right += 1
            elif observed.name and observed.name[1] == "S" and truth.name[1] in "CD":
                wrong += 1
    return wrong, right


def test_recognition_names_no_blue_diamond_or_green_club_a_spade_the_table_takes() -> None:
    # Read alone, several are spades; the decision's suit-ink evidence takes every one away
    # from the table: each is left under the threshold it names from, for the players.
    config = VisionConfig()
    wrong_read, _ = _coloured_named_spades(config, read_frame, least=0.0)
    assert wrong_read >= 5
    wrong, right = _coloured_named_spades(config, least=shipped_threshold())
    assert wrong == 0
    assert right >= 6


def _warm_lamp(frame: Image) -> Image:
    """The frame under a warm lamp: blue and green dimmed, and the camera's dark level tinted."""
    lit = frame.astype(np.float32) * np.array([0.6, 0.8, 1.0]) + np.array([10.0, 18.0, 30.0])
    return np.asarray(np.clip(lit, 0, 255), np.uint8)


def test_black_ink_under_a_warm_lamp_loses_only_the_lights_colour(shared_dir: Path) -> None:
    # Balanced on the paper's white, black ink under a warm lamp keeps some of the light's
    # colour; taken out along the paper's cast, it is black again. A four-colour deck's blue
    # and green inks, which the light does not explain, keep theirs.
    black: list[IndexInk] = []
    for seed in range(4):
        frame, placed = _artwork_table(shared_dir, 95, seed, "CS")
        black += _inks(_warm_lamp(frame), [quad for _, quad in placed])
    coloured: list[IndexInk] = []
    for suit in "DC":
        for seed in range(3):
            frame, cards = drawn_scene([rank + suit for rank in "JQK"], 140, seed)
            coloured += _inks(_warm_lamp(frame),
                              [np.asarray(card.corners, np.float32) for card in cards])
    assert len(black) >= 24 and len(coloured) >= 24
    assert max(ink.chroma for ink in black) >= 0.15
    warm = [ink.warm_chroma for ink in black if ink.warm_chroma is not None]
    assert len(warm) >= 6 and max(warm) < 0.1
    assert min(ink.chroma if ink.warm_chroma is None else ink.warm_chroma
               for ink in coloured) > 0.25
