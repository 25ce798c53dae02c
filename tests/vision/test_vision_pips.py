"""Pip counting: number cards of drawn and artwork decks counted right or not at all."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tools.decision_data import design_of
from tools.drawn_deck import camera_look, drawn_face, drawn_scene
from tools.scenes import paste_card, table_background
from tools.synthetic import artwork_cards
from vision.cards import CardObservation, Quad, Rank, Reading, parse_card
from vision.config import PipCountConfig, VisionConfig
from vision.model import GlyphModel
from vision.pipeline import recognise
from vision.pips import PIP_RANKS, checked_by_pips, count_pips, pips_deny

CONFIG = PipCountConfig()
NUMBERS = tuple(rank + suit for suit in "CDHS" for rank in "23456789T")


def _pips(name: str) -> int:
    return PIP_RANKS[name[0]]


@pytest.mark.parametrize("long_side", [300, 140, 95])
def test_drawn_number_cards_are_counted_right_or_not_at_all(long_side: int) -> None:
    right = uncounted = 0
    for seed in range(2):
        frame, cards = drawn_scene(NUMBERS, long_side, seed + long_side,
                                   (1920, 1080) if long_side < 200 else (3600, 3000))
        for card in cards:
            counted = count_pips(frame, card.corners, CONFIG)
            assert counted in (None, _pips(card.name)), card.name
            right += counted is not None
            uncounted += counted is None
    assert right >= 0.9 * (right + uncounted)


def test_artwork_nines_and_tens_are_counted(shared_dir: Path) -> None:
    faces = [(name, face) for name, face in artwork_cards(shared_dir / "vision" / "artwork")
             if name[0] in "9T"]
    assert len(faces) == 8
    rng = np.random.default_rng(3)
    counted = 0
    for long_side in (300, 140, 95):
        for k, (name, face) in enumerate(faces):
            frame = table_background(400, 400, seed=k)
            corners = paste_card(frame, face, (200, 200), long_side, float(rng.uniform(-180, 180)))
            pips = count_pips(camera_look(frame, rng), corners, CONFIG)
            assert pips in (None, _pips(name)), name
            counted += pips is not None
    assert counted >= 20  # of 24


def test_close_ups_named_an_ace_or_a_court_are_denied_by_three_pips_or_more() -> None:
    frame, cards = drawn_scene(["8S", "9D", "3H", "2C"], 300, seed=6, size=(1600, 1200))
    for card in cards:
        for name in ("AS", "JD", "KH"):
            rank, suit = parse_card(name)
            observation = CardObservation(card.corners, Reading(rank, suit, 0.9), 0.9)
            assert pips_deny(frame, observation, CONFIG) == (card.name != "2C"), (card, name)


@pytest.mark.parametrize("name", ["JC", "QH", "KD", "AS", "AH", "--"])
@pytest.mark.parametrize("long_side", [300, 140])
def test_faces_without_a_pip_layout_are_not_counted(name: str, long_side: int) -> None:
    frame, cards = drawn_scene([name] * 4, long_side, seed=1, size=(1600, 1200))
    assert all(count_pips(frame, card.corners, CONFIG) is None for card in cards)
    if name != "--":
        rank, suit = parse_card(name)
        assert not any(pips_deny(frame, CardObservation(card.corners, Reading(rank, suit, 0.9),
                                                        0.9), CONFIG) for card in cards)


def test_a_two_does_not_deny_an_ace_or_a_court() -> None:
    """Two pips are not enough against a face: some court figures hold two suit marks."""
    frame, cards = drawn_scene(["2C", "2H"], 300, seed=2, size=(1000, 600))
    for card in cards:
        assert count_pips(frame, card.corners, CONFIG) == 2
        for name in ("AC", "KH"):
            rank, suit = parse_card(name)
            observation = CardObservation(card.corners, Reading(rank, suit, 0.9), 0.9)
            assert not pips_deny(frame, observation, CONFIG)


def test_a_card_seen_sideways_is_not_counted() -> None:
    """A card squashed along its length (a steep slant) has its long side taken for its short
    one: the view is turned a quarter, and no number is told."""
    rng = np.random.default_rng(0)
    for name in NUMBERS:
        frame = table_background(400, 400, seed=1)
        corners = paste_card(frame, cv2.resize(drawn_face(name), (240, 140)), (200, 200), 140,
                             20.0)
        assert count_pips(camera_look(frame, rng), corners, CONFIG) is None, name


def test_a_covered_card_is_not_counted() -> None:
    """A card lying across another's middle: the one beneath is not counted from its outline."""
    rng = np.random.default_rng(5)
    for name in ("9H", "TS", "8C", "6D"):
        frame = table_background(500, 500, seed=2)
        corners = paste_card(frame, drawn_face(name), (250, 250), 200, 0.0)
        paste_card(frame, drawn_face("KS"), (250, 330), 200, 80.0)
        assert count_pips(camera_look(frame, rng), corners, CONFIG) is None, name


def test_pips_deny_another_number_only() -> None:
    frame, cards = drawn_scene(["6S", "9D", "TH"], 140, seed=4)
    six, nine, ten = (card.corners for card in cards)

    def named(corners: Quad, name: str, whole: bool = True) -> CardObservation:
        rank, suit = parse_card(name)
        return CardObservation(corners, Reading(rank, suit, 0.9), 0.9, whole)

    assert pips_deny(frame, named(six, "8S"), CONFIG)
    assert pips_deny(frame, named(nine, "TD"), CONFIG)
    assert pips_deny(frame, named(ten, "9H"), CONFIG)
    assert not pips_deny(frame, named(six, "6S"), CONFIG)
    assert not pips_deny(frame, named(ten, "TH"), CONFIG)
    # At the networks' size an ace or a court is not counted against: the card network backs it.
    assert not pips_deny(frame, named(nine, "JD"), CONFIG)
    assert not pips_deny(frame, named(six, "8S", whole=False), CONFIG)  # a loose corner
    joker = CardObservation(six, Reading(Rank.JOKER, None, 0.9), 0.9)
    assert not pips_deny(frame, joker, CONFIG)
    unread = CardObservation(six, None, 0.0)
    observations = [named(six, "8S"), named(nine, "9D"), unread]
    checked = checked_by_pips(frame, observations, CONFIG)
    assert [o.name for o in checked] == [None, "9D", None]
    assert checked[0].corners is six and checked[0].confidence == 0.0


@pytest.mark.parametrize("long_side", [140, 95])
def test_recognise_names_no_number_its_pips_deny(long_side: int) -> None:
    """Through the whole pipeline, every number card named in drawn scenes carries the name its
    pips show wherever they are counted; with the count on, no name is added."""
    model = GlyphModel.load()
    on, off = VisionConfig(), replace(VisionConfig(), pip_count=None)
    frame, cards = drawn_scene(NUMBERS[:18], long_side, seed=11)
    counted = {card.name: count_pips(frame, card.corners, CONFIG) for card in cards}
    with_count = recognise(frame, model, on)
    named_off = {o.name for o in recognise(frame, model, off) if o.name}
    for observation in with_count:
        if observation.name and observation.name[0] in PIP_RANKS:
            shown = count_pips(frame, observation.corners, CONFIG)
            assert shown in (None, _pips(observation.name))
    assert {o.name for o in with_count if o.name} <= named_off
    assert sum(v is not None for v in counted.values()) >= 15


def _misprint(faces: dict[str, np.ndarray], body: str, index: str) -> np.ndarray:
    """The face of `body` with the index corners of `index`: its indices say one number and
    its pips another."""
    face = faces[body].copy()
    height, width = face.shape[:2]
    across, down = int(0.17 * width), int(0.27 * height)
    face[:down, :across] = faces[index][:down, :across]
    face[height - down:, width - across:] = faces[index][height - down:, width - across:]
    return face


def test_close_up_whose_pips_deny_its_index_is_not_named_by_the_index(shared_dir: Path) -> None:
    """Close-ups are not checked by the networks: the glyph reader names a card by its index
    (a number, an ace or a king here), and only the pips can contradict it. Through the whole
    pipeline, with the count on, no card is given its index's name; with it off, some are."""
    faces = dict(artwork_cards(shared_dir / "vision" / "artwork"))
    model = GlyphModel.load()
    off = replace(VisionConfig(), pip_count=None)
    by_index = {"on": 0, "off": 0}
    for body, index in (("9C", "TC"), ("TD", "9D"), ("9H", "TH"), ("TS", "9S"), ("9D", "AD"),
                        ("TC", "KC")):
        face = _misprint(faces, body, index)
        for seed in (1, 2):
            rng = np.random.default_rng(seed)
            frame = table_background(800, 600, seed=seed)
            paste_card(frame, face, (400, 300), 300, float(rng.uniform(-180, 180)))
            frame = camera_look(frame, rng)
            for key, config in (("on", VisionConfig()), ("off", off)):
                names = [o.name for o in recognise(frame, model, config)]
                by_index[key] += names.count(index)
    assert by_index["on"] == 0
    assert by_index["off"] >= 4


@pytest.mark.parametrize("long_side", [140, 95])
def test_pips_of_the_other_colour_deny_a_number(long_side: int) -> None:
    """Red pips deny a club or a spade, black pips a heart or a diamond; the drawn deck's blue
    diamonds and green clubs deny what is never blue or green (a spade, a heart)."""
    frame, cards = drawn_scene(["9H", "TS", "9D", "TC"], long_side, seed=8)
    red_heart, black_spade, blue_diamond, green_club = (card.corners for card in cards)

    def denied(corners: Quad, name: str) -> bool:
        rank, suit = parse_card(name)
        return pips_deny(frame, CardObservation(corners, Reading(rank, suit, 0.9), 0.9), CONFIG)

    assert denied(red_heart, "9S") and denied(red_heart, "9C")
    assert not denied(red_heart, "9H") and not denied(red_heart, "9D")
    assert denied(black_spade, "TH") and denied(black_spade, "TD")
    assert not denied(black_spade, "TS") and not denied(black_spade, "TC")
    # Spades are black and hearts red in every deck; diamonds may be blue and clubs green.
    assert not denied(blue_diamond, "9D") and not denied(blue_diamond, "9C")
    assert denied(blue_diamond, "9S") and denied(blue_diamond, "9H")
    assert not denied(green_club, "TC")
    assert denied(green_club, "TH")


@pytest.mark.parametrize("long_side", [300, 140, 95])
def test_an_ace_of_the_other_colour_is_denied(long_side: int) -> None:
    """An ace's lone pip is judged as a number's pips are: the drawn deck's four-colour aces
    deny suits their ink rules out (a black spade a heart, a blue diamond a spade), never their
    own."""
    frame, cards = drawn_scene(["AC", "AD", "AH", "AS"], long_side, seed=9, size=(1600, 1200))
    rules_out = {"AC": {"AH"}, "AD": {"AH", "AS"}, "AH": {"AC", "AS"}, "AS": {"AD", "AH"}}
    for card in cards:
        for name in {card.name} | rules_out[card.name]:
            rank, suit = parse_card(name)
            observation = CardObservation(card.corners, Reading(rank, suit, 0.9), 0.9)
            assert pips_deny(frame, observation, CONFIG) == (name != card.name), (card.name, name)


@pytest.mark.parametrize("strip", [0.05, 0.08])
def test_a_pip_joined_to_the_index_leaves_the_count_untold(strip: float) -> None:
    # The svg-cards artwork prints its ten's end pips against the index; on an outline a strip
    # narrower than the card, a pip joins the index and the card's edge. The other eight are
    # no count of the card.
    make, _ = design_of("artwork")
    counted: dict[str, list[int | None]] = {}
    for name in ("TH", "TD", "TC", "TS", "9H", "9S"):
        counted[name] = []
        for seed in range(8):
            rng = np.random.default_rng(seed)
            frame = table_background(400, 400, seed=seed)
            corners = paste_card(frame, make(name), (200.0, 200.0), 140.0,
                                 angle=float(rng.uniform(-180, 180)))
            frame = camera_look(frame, rng)
            top_short = (np.linalg.norm(corners[1] - corners[0])
                         < np.linalg.norm(corners[2] - corners[1]))
            moves = ((1, 0), (2, 3)) if top_short else ((2, 1), (3, 0))
            narrow = corners.copy()
            for corner, towards in moves:
                narrow[corner] = corners[corner] + (corners[towards] - corners[corner]) * strip
            counted[name].append(count_pips(frame, narrow, PipCountConfig()))
    assert all(count in (None, PIP_RANKS[name[0]]) for name, counts in counted.items()
               for count in counts)
    # Where no pip lies against the index, the count keeps its say.
    assert all(count == PIP_RANKS[name[0]] for name in ("TD", "TC", "TS", "9H", "9S")
               for count in counted[name])
