"""Cards found by their index glyphs where no outline shows them."""

from __future__ import annotations

import dataclasses
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.dev_family import family_sample
from tests.vision.finder_switch import without_finders
from tests.vision.glyphs_only import glyph_config
from tools.synthetic import suit_shape
from vision.cards import Rank, Suit
from vision.config import IndexFinderConfig
from vision.detect import card_masks
from vision.imageio import read_image
from vision.index_pairs import IndexPair, _pair, index_pairs, ink_pieces
from vision.model import GlyphModel
from vision.pipeline import recognise

CONFIG = glyph_config()
WITHOUT = without_finders(CONFIG, "index")
FINDER = IndexFinderConfig()
assert CONFIG.outline_fit is not None
CLUTTERED = dataclasses.replace(WITHOUT, outline_fit=dataclasses.replace(
    CONFIG.outline_fit, lines_within=0))
"""For the light cluttered photos leave unexplained: without the cards of lines inside unread
outlines, whose light they would explain."""


def _paper(seed: int = 0) -> np.ndarray:
    """A sheet of white paper (level 250) with a little grain, 640x480."""
    rng = np.random.default_rng(seed)
    grain = rng.normal(0.0, 2.0, (160, 214)).astype(np.float32)
    base = 250.0 + cv2.resize(grain, (640, 480))
    paper: np.ndarray = cv2.cvtColor(np.clip(base, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    return paper


def _index_face(rank: str, suit: str, width: int = 200) -> np.ndarray:
    """A borderless white card face (level 250) with one index in its top-left corner: the rank
    0.15 card widths tall, the suit under it, as common decks print them."""
    height = round(width * 1.5)
    colour = (30, 30, 200) if suit in "HD" else (25, 25, 25)
    face = np.full((height, width, 3), 250, np.uint8)
    glyph: np.ndarray = np.zeros((60, 40 * len(rank)), np.uint8)
    cv2.putText(glyph, rank, (2, 50), cv2.FONT_HERSHEY_DUPLEX, 1.3, 255, 3, cv2.LINE_AA)
    rows, cols = np.nonzero(glyph > 127)
    glyph = glyph[rows.min():rows.max() + 1, cols.min():cols.max() + 1]
    # Index ranks are narrow: about 0.085 card widths (a ten's digits 0.07 each), 0.15 tall.
    wide = 17 if len(rank) == 1 else 28
    glyph = cv2.resize(glyph, (wide, 30), interpolation=cv2.INTER_AREA)
    face[12:42, 8:8 + wide][glyph > 127] = colour
    shape = cv2.resize(suit_shape(suit, 0.9), (20, 22), interpolation=cv2.INTER_AREA)
    left = 8 + wide // 2 - 10
    face[48:70, left:left + 20][shape > 127] = colour
    return face


def _rotated_into(scene: np.ndarray, face: np.ndarray, top_left: tuple[int, int],
                  angle: float) -> np.ndarray:
    """Paste a face into the scene turned by `angle` degrees about its top-left corner; returns
    the scene pixels of that corner's index area (its first 60x90 face pixels) as a quad."""
    height, width = face.shape[:2]
    matrix = cv2.getRotationMatrix2D((0.0, 0.0), angle, 1.0)
    matrix[:, 2] += top_left
    size = (scene.shape[1], scene.shape[0])
    warped = cv2.warpAffine(face, matrix, size, flags=cv2.INTER_LINEAR)
    mask = cv2.warpAffine(np.full((height, width), 255, np.uint8), matrix, size)
    scene[mask > 127] = warped[mask > 127]
    corners = np.array([[0, 0], [60, 0], [60, 90], [0, 90]], np.float32)
    index: np.ndarray = cv2.transform(corners[None], matrix)[0]
    return index


@pytest.mark.parametrize("angle", [0.0, 25.0, -70.0])
def test_a_card_without_an_outline_is_read_by_its_index(angle: float) -> None:
    # White card on white paper: no mask parts it from the sheet, only its index shows.
    scene = _paper()
    index = _rotated_into(scene, _index_face("K", "S"), (260, 120), angle)
    model = GlyphModel.load()
    assert [o for o in recognise(scene, model, WITHOUT) if o.reading is not None] == []
    found = [o for o in recognise(scene, model, CONFIG) if o.reading is not None]
    assert [(o.reading.rank, o.reading.suit) for o in found if o.reading] == [
        (Rank.KING, Suit.SPADES)]
    assert not found[0].whole
    centre = found[0].corners.mean(axis=0)
    assert cv2.pointPolygonTest(index.reshape(-1, 1, 2), (float(centre[0]), float(centre[1])),
                                False) >= 0


def test_a_red_ten_is_read_by_its_index() -> None:
    scene = _paper(1)
    _rotated_into(scene, _index_face("10", "H"), (200, 150), 10.0)
    found = [o for o in recognise(scene, GlyphModel.load(), CONFIG) if o.reading is not None]
    assert [(o.reading.rank, o.reading.suit) for o in found if o.reading] == [
        (Rank.TEN, Suit.HEARTS)]


def test_lines_of_text_and_rows_of_pips_give_no_card() -> None:
    scene = _paper(2)
    for row, line in enumerate(["K Q J A 9 TEXT", "S H D C KING OF", "AQ KJ 9A QK AJ"]):
        cv2.putText(scene, line, (40, 80 + 40 * row), cv2.FONT_HERSHEY_DUPLEX, 1.0,
                    (25, 25, 25), 2, cv2.LINE_AA)
    # Two pips of one shape, one over the other, as on a number card's face.
    pip = cv2.resize(suit_shape("D", 0.9), (30, 34), interpolation=cv2.INTER_AREA)
    for top in (260, 300):
        scene[top:top + 34, 300:330][pip > 127] = (30, 30, 200)
    assert [o for o in recognise(scene, GlyphModel.load(), CONFIG) if o.name] == []


def test_a_rank_over_a_suit_is_a_pair_and_two_pips_are_not() -> None:
    gray = np.full((240, 320), 250, np.uint8)
    cv2.putText(gray, "K", (60, 80), cv2.FONT_HERSHEY_DUPLEX, 1.0, 20, 2, cv2.LINE_AA)
    spade = cv2.resize(suit_shape("S", 0.9), (18, 20), interpolation=cv2.INTER_AREA)
    gray[88:108, 60:78][spade > 127] = 20
    pairs = list(index_pairs(gray, None, FINDER))
    # Down points from the rank to the suit (the two may be paired the other way up too: the
    # reader tells them apart), the rank's box starting at the K.
    upright = [p for p in pairs if float(p.down @ np.array([0.0, 1.0])) > 0.95]
    assert len(upright) == 1
    assert np.allclose(upright[0].rank_corner, (60, 60), atol=3.0)
    pips = np.full((240, 320), 250, np.uint8)
    for top in (60, 88):
        pips[top:top + 20, 60:78][spade > 127] = 20
    assert list(index_pairs(pips, None, FINDER)) == []


def _every_pair(gray: np.ndarray, allowed: np.ndarray | None, short: int) -> list[IndexPair]:
    """Index pairs by the exact per-pair tests on every candidate, without the array tests."""
    found: list[IndexPair] = []
    seen: set[tuple[int, ...]] = set()
    for contrast in FINDER.pair_contrasts:
        pieces = ink_pieces(gray, allowed, FINDER, short, contrast)
        fresh = [p.key not in seen for p in pieces]
        seen |= {p.key for p in pieces}
        centres = np.array([p.centre for p in pieces], np.float32).reshape(-1, 2)
        sizes = np.array([p.size for p in pieces], np.float32)
        for i, rank in enumerate(pieces):
            offsets = centres - rank.centre
            apart = np.hypot(offsets[:, 0], offsets[:, 1])
            near = np.nonzero((apart > 0.4 * rank.size) & (apart < 1.9 * rank.size)
                              & (sizes <= 1.3 * rank.size) & (sizes >= 0.35 * rank.size))[0]
            for j in near.tolist():
                pair = _pair(pieces, i, j, centres, sizes, FINDER) if (
                    fresh[i] or fresh[j]) else None
                if pair is not None:
                    found.append(pair)
    return found


def _same_pairs(first: list[IndexPair], second: list[IndexPair]) -> bool:
    fields = [f.name for f in dataclasses.fields(IndexPair)]
    return len(first) == len(second) and all(
        np.array_equal(getattr(a, name), getattr(b, name))
        for a, b in zip(first, second, strict=True) for name in fields)


def _light_left(frame: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """The grey crop and light area the finder searches in a frame, and its shorter side."""
    from vision.finder_index import unexplained_light
    masks = card_masks(frame, CONFIG)
    observations = recognise(frame, GlyphModel.load(), CLUTTERED)
    allowed = unexplained_light(masks, observations, CONFIG)
    assert allowed is not None and masks.gray is not None
    rows, cols = np.nonzero(allowed.any(axis=1))[0], np.nonzero(allowed.any(axis=0))[0]
    y0, y1, x0, x1 = int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1
    return masks.gray[y0:y1, x0:x1], allowed[y0:y1, x0:x1], min(masks.gray.shape[:2])


def test_the_array_tests_keep_every_pair_of_tens_among_text() -> None:
    scene = _paper(3)
    for n, (rank, suit) in enumerate([("10", "H"), ("10", "S"), ("K", "D"), ("9", "C")]):
        _rotated_into(scene, _index_face(rank, suit, 150 + 20 * n), (40 + 150 * n, 60),
                      -20.0 + 15.0 * n)
    for row, line in enumerate(["K Q J A 9 TEXT 10 10", "S H D C KING OF TENS"]):
        cv2.putText(scene, line, (30, 380 + 40 * row), cv2.FONT_HERSHEY_DUPLEX, 1.0,
                    (25, 25, 25), 2, cv2.LINE_AA)
    gray = cv2.cvtColor(scene, cv2.COLOR_BGR2GRAY)
    every = _every_pair(gray, None, min(gray.shape))
    assert len(every) >= 4
    assert _same_pairs(list(index_pairs(gray, None, FINDER)), every)


@cache
def _light_left_in_family(shared_dir: Path) -> list[tuple[np.ndarray, np.ndarray, int]]:
    """The light each photo of a spread of the family's edje photos leaves unexplained (those
    that leave some)."""
    from vision.finder_index import unexplained_light
    vision = shared_dir / "vision"
    found = []
    for key in family_sample(vision, "edje_train", 6):
        frame = read_image(vision / "dev" / key)
        masks = card_masks(frame, CONFIG)
        if unexplained_light(masks, recognise(frame, GlyphModel.load(), CLUTTERED),
                             CONFIG) is not None:
            found.append(_light_left(frame))
    return found


def test_the_array_tests_keep_every_pair_of_cluttered_photos(shared_dir: Path) -> None:
    checked = 0
    for gray, allowed, short in _light_left_in_family(shared_dir):
        every = _every_pair(gray, allowed, short)
        assert _same_pairs(list(index_pairs(gray, allowed, FINDER, short)), every)
        checked += len(every) >= 5
    assert checked >= 5


def test_pieces_cut_alike_at_a_higher_contrast_are_taken_over(shared_dir: Path) -> None:
    high, low = sorted(FINDER.pair_contrasts, reverse=True)[:2]
    taken_over = 0
    for gray, allowed, short in _light_left_in_family(shared_dir):
        darker = {p.key: p for p in ink_pieces(gray, allowed, FINDER, short, high)}
        traced = ink_pieces(gray, allowed, FINDER, short, low)
        taken = ink_pieces(gray, allowed, FINDER, short, low, darker)
        taken_over += sum(p is darker.get(p.key) for p in taken)
        assert [p.key for p in taken] == [p.key for p in traced]
        assert all(np.array_equal(a.points, b.points) and np.array_equal(a.hull, b.hull)
                   and np.array_equal(a.centre, b.centre)
                   for a, b in zip(taken, traced, strict=True))
    assert taken_over >= 20, taken_over
