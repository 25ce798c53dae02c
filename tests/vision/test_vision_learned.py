"""The learned card reader: the shipped model, its manifest, its views and the decision rule."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tools.scenes import paste_card, plain_card, table_background
from tools.synthetic import artwork_cards
from vision.cards import Rank, Reading, Suit
from vision.learned import (
    MODEL_PATH,
    RANK_CLASSES,
    SUIT_CLASSES,
    VIEW_HEIGHT,
    VIEW_WIDTH,
    CardScores,
    LearnedReader,
    ModelFileError,
    as_blob,
    decide,
    load_reader,
    oriented,
    rectify,
    shipped_reader,
)

ARTWORK = Path(__file__).resolve().parents[2] / "vision" / "data" / "artwork"
EUCHRE = [r + s for r in "9TJQKA" for s in "CDHS"]


@pytest.fixture(scope="module")
def reader() -> LearnedReader:
    return shipped_reader()


def _scene(faces: list[np.ndarray], length: float,
           seed: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """Faces laid on a table in a row at a card length, each turned a little."""
    rng = np.random.default_rng(seed)
    width = int(length * 0.9 * len(faces)) + 60
    frame = table_background(width, int(length * 1.6), seed=seed)
    quads = []
    for k, face in enumerate(faces):
        centre = (40 + length * 0.45 + k * length * 0.9, length * 0.8)
        angle = float(rng.uniform(-12, 12)) + (180.0 if k % 2 else 0.0)
        quads.append(paste_card(frame, face, centre, length, angle=angle, tilt=0.04))
    return frame, quads


def _names(reader: LearnedReader, frame: np.ndarray, quads: list[np.ndarray]) -> list[str | None]:
    readings = [decide(None, s, reader.rule.threshold, reader.rule.support)
                for s in reader.scores(frame, quads)]
    return [r.name if r else None for r in readings]


def test_manifest_matches_the_model(reader: LearnedReader) -> None:
    manifest = reader.manifest
    assert manifest["rank_classes"] == list(RANK_CLASSES)
    assert manifest["suit_classes"] == list(SUIT_CLASSES)
    views = np.zeros((3, 3, manifest["input_height"], manifest["input_width"]), np.float32)
    reader.net.setInput(views)
    rank, suit = reader.net.forward(["rank", "suit"])
    assert rank.shape == (3, len(RANK_CLASSES)) and suit.shape == (3, len(SUIT_CLASSES))
    rule = reader.rule
    assert 0.0 < rule.support <= 1.0 and 0.0 < rule.threshold <= 1.0 and rule.loose >= 0.0
    assert MODEL_PATH.stat().st_size <= 5 * 1024 * 1024


def test_a_manifest_with_other_classes_is_refused(tmp_path: Path) -> None:
    model = tmp_path / "reader.onnx"
    model.write_bytes(MODEL_PATH.read_bytes())
    manifest = MODEL_PATH.with_suffix(".json").read_text()
    model.with_suffix(".json").write_text(manifest.replace('"none"', '"nothing"', 1))
    with pytest.raises(ModelFileError, match="other classes"):
        load_reader(model)
    with pytest.raises(ModelFileError, match="cannot load"):
        load_reader(tmp_path / "missing.onnx")


@pytest.mark.parametrize("length", [140.0, 95.0])
def test_rendered_euchre_faces_are_named_rightly_at_camera_scale(reader: LearnedReader,
                                                                  length: float) -> None:
    faces = dict(artwork_cards(ARTWORK))
    named = wrong = 0
    for start in range(0, 24, 6):
        cards = EUCHRE[start:start + 6]
        frame, quads = _scene([faces[c] for c in cards], length, seed=start)
        for seen in (frame, cv2.rotate(frame, cv2.ROTATE_180)):
            if seen is not frame:
                h, w = frame.shape[:2]
                quads = [np.array([[w - 1 - x, h - 1 - y] for x, y in q], np.float32)
                         for q in quads]
            for card, name in zip(cards, _names(reader, seen, quads), strict=True):
                named += name is not None
                wrong += name is not None and name != card
    assert wrong == 0
    assert named >= 24  # of 48 views: most cards are named by the network alone, none wrongly


def _back(width: int = 338) -> np.ndarray:
    face = np.full((round(width * 1.45), width, 3), 245, np.uint8)
    cv2.rectangle(face, (12, 12), (width - 12, face.shape[0] - 12), (150, 40, 30), -1)
    for k in range(-face.shape[0], width + face.shape[0], 14):
        cv2.line(face, (k, 0), (k + face.shape[0], face.shape[0]), (220, 200, 190), 2)
        cv2.line(face, (k, face.shape[0]), (k + face.shape[0], 0), (220, 200, 190), 2)
    return face


@pytest.mark.parametrize("length", [140.0, 95.0])
def test_blank_back_and_low_cards_are_never_named_euchre(reader: LearnedReader,
                                                         length: float) -> None:
    faces = [plain_card("", None), _back(), plain_card("5", "S"), plain_card("7", "H"),
             plain_card("2", "D"), plain_card("8", "C")]
    for seed in range(3):
        frame, quads = _scene(faces, length, seed)
        assert _names(reader, frame, quads) == [None] * len(faces)


def test_the_two_views_are_one_card_turned_half_round() -> None:
    rng = np.random.default_rng(5)
    noise = rng.integers(0, 255, (200, 200, 3)).astype(np.uint8)
    frame = cv2.GaussianBlur(noise, (0, 0), 4)
    quad = np.array([[150, 40], [160, 160], [60, 170], [50, 50]], np.float32)
    upright, turned = rectify(frame, quad)
    assert upright.shape == (96, 64, 3)
    difference = np.abs(cv2.rotate(upright, cv2.ROTATE_180).astype(int) - turned.astype(int))
    assert float(np.median(difference)) < 3
    start = oriented(quad[::-1])
    assert np.linalg.norm(start[1] - start[0]) < np.linalg.norm(start[2] - start[1])


def _scores(first: tuple[str, str], second: tuple[str, str], sure: float) -> CardScores:
    rank = np.full((2, len(RANK_CLASSES)), (1 - sure) / (len(RANK_CLASSES) - 1), np.float32)
    suit = np.full((2, len(SUIT_CLASSES)), (1 - sure) / (len(SUIT_CLASSES) - 1), np.float32)
    for k, (r, s) in enumerate((first, second)):
        rank[k, RANK_CLASSES.index(r)] = sure
        suit[k, SUIT_CLASSES.index(s)] = sure
    return CardScores(rank, suit)


@pytest.mark.parametrize("sure", [0.6, 0.8, 0.99])
def test_a_name_is_given_only_where_the_cues_agree(sure: float) -> None:
    threshold, support = 0.9, 0.5
    ten_hearts = Reading(Rank.TEN, Suit.HEARTS, 0.7)
    agreeing = _scores(("T", "H"), ("T", "H"), sure)
    split = _scores(("T", "H"), ("T", "D"), sure)
    other = _scores(("T", "D"), ("T", "D"), sure)
    backed = sure * sure >= support
    assert (decide(ten_hearts, agreeing, threshold, support) is not None) == backed
    assert decide(ten_hearts, split, threshold, support) is None
    assert decide(ten_hearts, other, threshold, support) is None
    alone = decide(None, agreeing, threshold, support)
    assert (alone is not None and alone.name == "TH") == (sure * sure >= threshold)
    assert decide(None, split, threshold, support) is None
    assert decide(None, _scores(("low", "H"), ("low", "H"), sure), threshold, support) is None
    assert decide(None, _scores(("none", "none"), ("none", "none"), sure), 0.0, support) is None


@pytest.mark.parametrize(("glyph", "seen"), [
    ("JH", "Q"), ("JH", "K"), ("QS", "J"), ("KC", "Q"), ("KD", "J")])
def test_a_court_index_is_backed_by_any_figure_of_its_suit_with_courts(glyph: str,
                                                                         seen: str) -> None:
    reading = Reading(Rank(glyph[0]), Suit(glyph[1]), 0.8)
    figure = _scores((seen, glyph[1]), (seen, glyph[1]), 0.9)
    other_suit = next(s for s in "CDHS" if s != glyph[1])
    kept = decide(reading, figure, 0.9, 0.5, courts=True)
    assert kept is not None and kept.name == glyph
    assert decide(reading, figure, 0.9, 0.5) is None
    assert decide(reading, _scores((seen, other_suit), (seen, other_suit), 0.9), 0.9, 0.5,
                  courts=True) is None
    for pips in ("9", "T", "A"):  # a figure never backs a pip card's index, nor the reverse
        assert decide(Reading(Rank(pips), Suit(glyph[1]), 0.8), figure, 0.9, 0.5,
                      courts=True) is None
        assert decide(reading, _scores((pips, glyph[1]), (pips, glyph[1]), 0.9), 0.9, 0.5,
                      courts=True) is None


@pytest.mark.parametrize(("confidence", "sure", "named"), [
    (0.6, 0.95, "TD"), (0.6, 0.9, None), (0.85, 0.95, None), (0.6, 0.5, None)])
def test_a_weak_glyph_reading_gives_way_only_to_a_sure_network(confidence: float, sure: float,
                                                               named: str | None) -> None:
    weak_queen = Reading(Rank.QUEEN, Suit.DIAMONDS, confidence)
    ten = _scores(("T", "D"), ("T", "D"), sure)
    kept = decide(weak_queen, ten, 0.8, 0.3, overrule=0.8, overrule_threshold=0.85)
    assert (kept.name if kept else None) == named
    assert decide(weak_queen, ten, 0.8, 0.3) is None  # off by default
    low = Reading(Rank.EIGHT, Suit.DIAMONDS, confidence)
    kept = decide(low, ten, 0.8, 0.3, overrule=0.8, overrule_threshold=0.85)
    assert (kept.name if kept else None) == named
    backed = decide(weak_queen, _scores(("Q", "D"), ("Q", "D"), 0.9), 0.8, 0.3, overrule=0.8,
                    overrule_threshold=0.85)
    assert backed is not None and backed.name == "QD"


def test_an_overruling_name_already_given_in_the_frame_is_given_once() -> None:
    from vision.cards import CardObservation
    from vision.deck_limit import within_deck
    from vision.learned import Rule, checked

    quad = np.array([[0, 0], [60, 0], [60, 90], [0, 90]], np.float32)
    sure_ten = _scores(("T", "D"), ("T", "D"), 0.97)
    observations = [CardObservation(quad, Reading(Rank.TEN, Suit.DIAMONDS, 0.95), 0.95),
                    CardObservation(quad + 100, Reading(Rank.QUEEN, Suit.DIAMONDS, 0.6), 0.6)]
    rule = Rule(0.8, 0.3, 0.8, overrule=0.8, overrule_threshold=0.85)
    out = within_deck(checked(observations, [sure_ten, sure_ten], rule))
    assert [o.name for o in out].count("TD") == 1 and len(out) == 2
    alone = checked(observations[1:], [sure_ten], rule)
    assert [o.name for o in alone] == ["TD"]


def test_the_shipped_manifest_sets_every_rule_field(reader: LearnedReader) -> None:
    manifest = reader.manifest
    for key in ("support", "threshold", "loose", "courts"):
        assert key in manifest
    assert reader.rule.courts is bool(manifest["courts"])
    assert 0 < reader.rule.support <= reader.rule.threshold <= 1


@pytest.mark.parametrize("seed", [0, 12])
def test_the_pipeline_with_the_learned_reader_names_no_card_wrongly(seed: int) -> None:
    from dataclasses import replace

    from vision.config import VisionConfig
    from vision.model import GlyphModel
    from vision.pipeline import recognise

    faces = dict(artwork_cards(ARTWORK))
    cards = EUCHRE[seed:seed + 6]
    frame, quads = _scene([faces[c] for c in cards], 140.0, seed)
    config = replace(VisionConfig(), learned_reader=True)
    observations = recognise(frame, GlyphModel.load(), config)
    named = {}
    for observation in observations:
        if observation.name is None:
            continue
        centre = observation.corners.mean(axis=0)
        nearest = int(np.argmin([np.linalg.norm(q.mean(axis=0) - centre) for q in quads]))
        named[observation.name] = cards[nearest]
    assert all(name == card for name, card in named.items())
    assert len(named) >= 4


@pytest.mark.parametrize(("first", "second", "rank", "expected"), [
    (("9", "H"), ("9", "S"), "9", 0.9),     # the suit does not matter
    (("Q", "H"), ("K", "H"), "J", 0.9),     # any court card for a court
    (("low", "H"), ("9", "H"), "9", 0.02),  # the lower of the two views
    (("low", "H"), ("low", "D"), "5", 0.9),  # a low rank is the network's "low"
])
def test_rank_support_is_the_lower_view_s_probability_of_the_rank(
        first: tuple[str, str], second: tuple[str, str], rank: str, expected: float) -> None:
    scores = _scores(first, second, 0.9)
    assert scores.rank_support(rank) == pytest.approx(expected, abs=0.03)


def test_each_channel_of_each_view_is_standardised_in_its_own_plane() -> None:
    rng = np.random.default_rng(5)
    views = [rng.integers(0, 256, (VIEW_HEIGHT, VIEW_WIDTH, 3), dtype=np.uint8)
             for _ in range(3)]
    views[1][:, :, 2] = 200  # a flat red channel: no spread, so it stays near zero
    blob = as_blob(views)
    assert blob.shape == (3, 3, VIEW_HEIGHT, VIEW_WIDTH) and blob.dtype == np.float32
    for k, view in enumerate(views):
        for channel in range(3):
            plane = view[:, :, channel].astype(np.float64) / 255
            spread = np.sqrt(plane.var() + 0.0025)
            expected = (plane - plane.mean()) / spread
            assert np.allclose(blob[k, channel], expected, atol=1e-4)
    assert np.abs(blob[1, 2]).max() < 1e-5
