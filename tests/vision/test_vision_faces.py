"""The joker is known by its whole face: out of the box for the shipped deck, or once enrolled."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tools.scenes import paste_card, table_background
from vision.errors import ProfileError
from vision.faces import ARTWORK, JOKER, FaceSet, builtin_faces, image_face
from vision.model import GlyphModel, GlyphSet
from vision.pipeline import recognise
from vision.profile import with_profile


def artwork_face(name: str) -> np.ndarray:
    """A shipped artwork face on white paper."""
    art = cv2.imread(str(ARTWORK / name), cv2.IMREAD_UNCHANGED)
    assert art is not None, name
    alpha = art[:, :, 3:4].astype(np.float32) / 255
    return (art[:, :, :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)


def scene_with(face: np.ndarray, angle: float, seed: int = 3) -> np.ndarray:
    """One card lying on a green table, turned and slightly tilted."""
    scene = table_background(1280, 720, seed)
    paste_card(scene, face, (640, 360), 320, angle, 0.05)
    return scene


@pytest.mark.parametrize("joker", ["JK_red.png", "JK_black.png"])
@pytest.mark.parametrize("angle", [0, 35, 100, 180])
def test_the_shipped_jokers_are_read_out_of_the_box(joker: str, angle: float) -> None:
    observations = recognise(scene_with(artwork_face(joker), angle), GlyphModel.load())
    assert [(o.name, o.confidence >= 0.5) for o in observations] == [(JOKER, True)]


def test_no_other_card_of_the_shipped_deck_is_taken_for_the_joker() -> None:
    model = GlyphModel.load()
    for path in sorted(ARTWORK.glob("[9TJQKA][CDHS].png")):
        names = [o.name for o in recognise(scene_with(artwork_face(path.name), 20), model)]
        assert JOKER not in names, path.name


def test_a_plain_white_card_is_not_the_joker() -> None:
    blank = np.full((490, 338, 3), 250, np.uint8)
    cv2.rectangle(blank, (0, 0), (337, 489), (150, 150, 150), 3)
    observations = recognise(scene_with(blank, 10), GlyphModel.load())
    assert len(observations) == 1 and observations[0].name is None


def test_faces_travel_with_a_saved_profile(tmp_path: Path) -> None:
    base = GlyphModel.load()
    glyphs = GlyphSet(base.ranks.features[:1], np.array(["9"]))
    joker = image_face(artwork_face("JK_red.png"))
    profile = GlyphModel(glyphs, glyphs, FaceSet.of([(JOKER, joker)]))
    profile.save(tmp_path / "deck.npz")
    loaded = GlyphModel.load(tmp_path / "deck.npz")
    assert list(loaded.faces.names) == [JOKER] and loaded.faces.has_joker
    assert np.allclose(loaded.faces.vectors[0], joker)
    merged = with_profile(base, loaded)
    assert len(merged.faces) == 1 and len(merged.ranks.labels) == len(base.ranks.labels) + 1


def test_a_profile_of_another_glyph_size_is_refused_by_name(tmp_path: Path) -> None:
    glyphs = GlyphSet(np.ones((1, 4), np.float32), np.array(["9"]))
    with pytest.raises(ProfileError, match="4 glyph features"):
        with_profile(GlyphModel.load(), GlyphModel(glyphs, glyphs))


def test_a_profile_saved_without_faces_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "old.npz"
    ones = np.ones((1, 4), np.float32)
    np.savez_compressed(path, rank_features=ones, rank_labels=np.array(["9"]),
                        suit_features=ones, suit_labels=np.array(["S"]))
    assert len(GlyphModel.load(path).faces) == 0


def test_an_empty_face_set_matches_nothing() -> None:
    scene = scene_with(artwork_face("JK_red.png"), 0)
    corners = np.array([[480, 130], [800, 130], [800, 590], [480, 590]], np.float32)
    assert FaceSet.empty().match(scene, corners) is None
    match = builtin_faces().match(scene, corners)
    assert match is not None and match.label == JOKER
