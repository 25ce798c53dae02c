"""A picture of a card larger than the table's cards (a box, a board, a poster printed with a
card) gets no name the table takes: beside cards of the known length its outline is no one
card's, and its corner is read no wider than the table's cards."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from tools.drawn_deck import camera_look, drawn_face
from tools.scenes import paste_card, table_background
from tools.synthetic import artwork_cards
from vision.cards import Image, inside
from vision.config import VisionConfig
from vision.decide import shipped_threshold
from vision.live import LiveConfig, TableWatcher, view_config
from vision.model import GlyphModel
from vision.pipeline import recognise
from vision.zones import default_zones


@pytest.fixture(scope="module")
def model() -> GlyphModel:
    return GlyphModel.load()


def _faces(deck: str, shared: Path | None) -> dict[str, Image]:
    """The faces of the drawn deck or of the svg-cards artwork."""
    names = ("9H", "KS", "QC")
    if deck == "drawn":
        return {name: drawn_face(name) for name in names}
    assert shared is not None
    faces = dict(artwork_cards(shared / "vision" / "artwork"))
    return {name: faces[name] for name in names}


@pytest.mark.parametrize("deck", ["drawn", "artwork"])
@pytest.mark.parametrize("times", [1.7, 2.0, 3.0])
def test_a_picture_of_a_card_two_or_three_card_lengths_long_gets_no_name_the_table_takes(
    deck: str, times: float, model: GlyphModel, request: pytest.FixtureRequest,
) -> None:
    # A box or a board printed with a card, two or three times the table's card length, beside
    # cards of that length. Its outline is no one card's: the card network, shown it shrunk as a
    # close-up, named it whole; its corner index, read at its own edge's width, as a card seen
    # in part.
    shared = request.getfixturevalue("shared_dir") if deck == "artwork" else None
    faces = _faces(deck, shared)
    config = replace(view_config(VisionConfig(), LiveConfig()), card_length=140.0)
    threshold = shipped_threshold()
    named = 0
    for seed in range(4):
        rng = np.random.default_rng(seed)
        frame = table_background(1080, 1080, seed=seed)
        for k, name in enumerate(("9H", "KS")):
            paste_card(frame, faces[name], (180 + 250 * k, 180), 140, float(rng.uniform(-30, 30)))
        picture = paste_card(frame, faces["QC"], (540, 700), 140 * times,
                             float(rng.uniform(-20, 20)))
        frame = camera_look(frame, rng)
        taken = [o for o in recognise(frame, model, config)
                 if o.name is not None and o.confidence >= threshold]
        assert not [o.name for o in taken if inside(np.mean(o.corners, axis=0), picture)]
        named += sum(o.name in ("9H", "KS") for o in taken)
    assert named >= 7


def test_a_box_laid_beside_the_cards_the_watcher_has_learned_is_no_card(
    model: GlyphModel, shared_dir: Path,
) -> None:
    # The watcher has learned the cards' length; a box printed with a card, twice as long, is
    # then laid beside them. Only the part that changed is read: the cards lying still are
    # handed over as read, and still tell the box from a camera come nearer.
    faces = _faces("artwork", shared_dir)
    threshold = shipped_threshold()
    for seed in range(2):
        watcher = TableWatcher(model, default_zones(1920, 1080))
        scene = table_background(1920, 1080, seed=seed)
        for k, name in enumerate(("9H", "KS")):
            paste_card(scene, faces[name], (820.0 + 250 * k, 370.0), 140, 15.0 * k - 10)
        look = np.asarray(camera_look(scene.copy(), np.random.default_rng(seed)), np.uint8)
        events = [e.card for i in range(12) for e in watcher.process(i * 0.1, look)]
        assert sorted(c for c in events if c is not None) == ["9H", "KS"]
        box = scene.copy()
        picture = paste_card(box, faces["QC"], (960.0, 666.0), 280, 10.0 - 20 * seed)
        look = np.asarray(camera_look(box, np.random.default_rng(seed)), np.uint8)
        later = [e.card for i in range(20) for e in watcher.process(2.0 + i * 0.1, look)]
        assert not [card for card in later if card is not None]
        assert not [o.name for o in watcher.observations if o.name is not None
                    and o.confidence >= threshold and inside(np.mean(o.corners, axis=0), picture)]
        assert watcher.card_length is not None and abs(watcher.card_length - 140) < 8
