"""Known-deck reading: a drawn deck enrolled from single renders and read back in scenes."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from app.cli import main
from tools.drawn_deck import EUCHRE, drawn_scene, single_render
from vision.cards import CardObservation, Quad
from vision.config import VisionConfig
from vision.deck_faces import ARRAY_NAMES
from vision.model import GlyphModel
from vision.pipeline import recognise
from vision.profile import enroll_images, with_profile

STRANGERS = ("2H", "5S", "7C", "8D", "3S", "6H", "--")


@pytest.fixture(scope="module")
def base() -> GlyphModel:
    return GlyphModel.load()


@pytest.fixture(scope="module")
def profiled(base: GlyphModel, tmp_path_factory: pytest.TempPathFactory) -> GlyphModel:
    """The shipped model with the drawn deck enrolled from one render per card."""
    folder = tmp_path_factory.mktemp("drawn")
    photos = []
    for k, name in enumerate(EUCHRE):
        path = folder / f"{name}.png"
        cv2.imwrite(str(path), single_render(name, seed=k))
        photos.append((name, path))
    profile, _ = enroll_images(photos, VisionConfig())
    return with_profile(base, profile)


def _card_at(observation: CardObservation, outlines: list[tuple[str, Quad]]) -> str | None:
    """The name of the placed card under an observation's centre."""
    x, y = observation.corners.mean(axis=0)
    for name, corners in outlines:
        if cv2.pointPolygonTest(corners.reshape(-1, 1, 2), (float(x), float(y)), False) >= 0:
            return name
    return None


@pytest.mark.parametrize("long_side", [140, 95])
@pytest.mark.parametrize("seed", [101, 202, 303])
def test_enrolled_drawn_deck_is_read_in_scenes_without_a_wrong_name(
    long_side: int, seed: int, base: GlyphModel, profiled: GlyphModel
) -> None:
    rng = np.random.default_rng(seed)
    names = [str(n) for n in rng.permutation(list(EUCHRE))[:8]]
    frame, cards = drawn_scene(names, long_side, seed)
    outlines = [(c.name, c.corners) for c in cards]
    read = recognise(frame, profiled)
    wrong = [(o.name, _card_at(o, outlines)) for o in read
             if o.name is not None and o.name != _card_at(o, outlines)]
    assert wrong == []
    named = {o.name for o in read if o.name is not None}
    # The glyph reader alone names few of these (four colours, a script index); the profile
    # must name most.
    plain = {o.name for o in recognise(frame, base)
             if o.name is not None and o.name == _card_at(o, outlines)}
    assert len(named) >= 6 and len(named) > len(plain)


@pytest.mark.parametrize("long_side", [140, 95])
def test_cards_not_in_the_profile_get_no_euchre_name(long_side: int,
                                                     profiled: GlyphModel) -> None:
    frame, cards = drawn_scene(STRANGERS, long_side, seed=long_side)
    outlines = [(c.name, c.corners) for c in cards]
    read = recognise(frame, profiled)
    assert len(read) >= len(STRANGERS) - 1
    euchre = [(o.name, _card_at(o, outlines)) for o in read
              if o.name is not None and o.name[0] in "9TJQKA"]
    assert euchre == []


def test_an_old_profile_without_deck_faces_still_loads_and_reads(tmp_path: Path,
                                                                 base: GlyphModel) -> None:
    old = tmp_path / "old.npz"
    np.savez_compressed(old, rank_features=base.ranks.features[:5],
                        rank_labels=base.ranks.labels[:5], suit_features=base.suits.features[:5],
                        suit_labels=base.suits.labels[:5])
    loaded = GlyphModel.load(old)
    assert loaded.deck is None and len(loaded.faces) == 0
    merged = with_profile(base, loaded)
    frame, cards = drawn_scene(["AH", "9C"], 140, seed=5, size=(480, 320))
    assert len(recognise(frame, merged)) == len(cards)


def test_deck_enroll_from_a_folder_writes_the_deck_faces(tmp_path: Path) -> None:
    photos = tmp_path / "deck"
    photos.mkdir()
    chosen = ("9C", "TD", "QH", "AS")
    for k, name in enumerate(chosen):
        cv2.imwrite(str(photos / f"{name.replace('T', '10')}.png"), single_render(name, seed=k))
    out = tmp_path / "deck.npz"
    assert main(["deck", "enroll", str(photos), "--out", str(out)]) in (0, 1)
    with np.load(out) as data:
        assert set(ARRAY_NAMES) <= set(data.files)
        assert sorted(data["deck_names"]) == sorted(chosen)
        assert data["deck_grey"].shape == (4, 60, 40)
        assert data["deck_colour"].shape == (4, 30, 20, 3)
        assert data["deck_index"].shape == (4, 36, 24)
    loaded = GlyphModel.load(out)
    assert loaded.deck is not None and len(loaded.deck) == len(chosen)
    assert out.stat().st_size < 100_000
