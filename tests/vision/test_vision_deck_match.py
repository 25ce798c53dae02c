"""Known-deck reading: a drawn deck enrolled from single renders and read back in scenes."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from app.cli import main
from tools.decision_data import design_of
from tools.drawn_deck import EUCHRE, drawn_scene, single_render
from tools.scenes import paste_card, table_background
from vision.cards import CardObservation, Quad, Reading, parse_card
from vision.config import VisionConfig
from vision.decide import decided, shipped_threshold
from vision.deck_config import DeckMatchConfig
from vision.deck_faces import ARRAY_NAMES, DeckFaces
from vision.deck_match import (
    DeckMatch,
    best_card,
    deck_reading,
    ink_vetoes,
    matcher_for,
    read_known_deck,
    touched,
)
from vision.learned import shipped_reader
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
def test_cards_not_in_the_profile_get_no_euchre_name_the_table_takes(
        long_side: int, profiled: GlyphModel) -> None:
    frame, cards = drawn_scene(STRANGERS, long_side, seed=long_side)
    outlines = [(c.name, c.corners) for c in cards]
    read = recognise(frame, profiled)
    assert len(read) >= len(STRANGERS) - 1
    # A stranger's corner may be read as a euchre card (a seven's corner as a nine at 95 px);
    # the decision leaves such a name below the threshold the table names from.
    euchre = [(o.name, _card_at(o, outlines), o.confidence) for o in read
              if o.name is not None and o.name[0] in "9TJQKA"
              and o.confidence >= shipped_threshold()]
    assert euchre == []


LOOK_ALIKES = ("QD", "QS", "JC", "JS", "KD", "KS", "QC", "JD")
"""Courts of the drawn deck whose figures are drawn alike in suits of other inks."""


def test_ink_tells_apart_look_alike_courts_of_other_colours(base: GlyphModel,
                                                            profiled: GlyphModel) -> None:
    assert profiled.deck is not None
    named = {}
    for overrule in (0.0, DeckMatchConfig().ink_overrule):
        config = DeckMatchConfig(ink_overrule=overrule)
        right = wrong = 0
        for seed in range(6):
            frame, cards = drawn_scene(LOOK_ALIKES, 95, seed)
            outlines = [(c.name, c.corners) for c in cards]
            read = read_known_deck(frame, recognise(frame, base), profiled.deck, config)
            for observation in read:
                if observation.name is not None:
                    right += observation.name == _card_at(observation, outlines)
                    wrong += observation.name != _card_at(observation, outlines)
        assert wrong == 0
        named[overrule] = right
    assert named[DeckMatchConfig().ink_overrule] > named[0.0]


# Outlined a little short, the drawn deck's cards are read at their own scale too; outlined a
# little long (a shadow taken in), only at the best of the outline's scales.
@pytest.mark.parametrize(("scale", "scales_needed"), [(0.95, False), (1.05, True)])
def test_a_card_outlined_a_little_off_is_read_at_its_best_scale(
        scale: float, scales_needed: bool, profiled: GlyphModel) -> None:
    assert profiled.deck is not None
    named = {}
    total = 0
    for scales in ((), DeckMatchConfig().outline_scales):
        config = DeckMatchConfig(outline_scales=scales)
        right = wrong = total = 0
        for seed in range(4):
            frame, cards = drawn_scene(LOOK_ALIKES, 140, 40 + seed)
            outlines = [(c.name, c.corners) for c in cards]
            # Each card outlined unread, its outline scaled about the centre: a soft edge
            # found inside the card, or a shadow taken in.
            unread = [CardObservation((c.corners.mean(axis=0) + (c.corners - c.corners.mean(
                axis=0)) * scale).astype(np.float32), None, 0.0) for c in cards]
            # Grown, some outlines share area with a neighbour's: those are left unread.
            total += sum(not touched(k, unread) for k in range(len(unread)))
            for observation in read_known_deck(frame, unread, profiled.deck, config):
                if observation.name is not None:
                    right += observation.name == _card_at(observation, outlines)
                    wrong += observation.name != _card_at(observation, outlines)
        assert wrong == 0
        named[scales] = right
    assert named[DeckMatchConfig().outline_scales] == total
    assert (named[()] < total) == scales_needed


LOW_LOOK_ALIKES = ("4H", "5H", "4D", "5D", "3H", "6H", "2H", "8H")
"""Low cards of the drawn deck, which no euchre profile holds; its fours and fives of hearts
look much like its enrolled nine."""


@pytest.mark.parametrize("long_side", [140, 95])
def test_a_low_card_is_not_named_a_nine_where_the_network_sees_a_low_rank(
        long_side: int, base: GlyphModel, profiled: GlyphModel) -> None:
    assert profiled.deck is not None
    with_network = without = 0
    for seed in range(4):
        frame, _ = drawn_scene(LOW_LOOK_ALIKES, long_side, 60 + seed)
        read = recognise(frame, base)
        for reader in (shipped_reader(), None):
            got = read_known_deck(frame, read, profiled.deck, reader=reader)
            euchre = [o.name for o in got if o.name is not None and o.name[0] in "9TJQKA"]
            if reader is None:
                without += len(euchre)
            else:
                with_network += len(euchre)
    assert with_network == 0
    assert without > 0  # the faces alone take some of them for an enrolled card


@pytest.mark.parametrize(("share", "lead", "sure"), [
    (0.5, 0.06, True),    # faces clearly apart, ink only a little nearer black: the faces
    (0.5, 0.03, False),   # faces close: the same ink makes the match unsure
    (-1.0, 0.3, False),   # ink clearly black: no lead of the faces outweighs it
])
def test_ink_a_little_off_gives_way_to_faces_clearly_apart(
        profiled: GlyphModel, share: float, lead: float, sure: bool) -> None:
    assert profiled.deck is not None
    matcher = matcher_for(profiled.deck)
    config = DeckMatchConfig()
    blue, black = profiled.deck.suit_inks["D"], profiled.deck.suit_inks["S"]
    span = float(np.linalg.norm(blue - black))
    # On the way from black to blue, measured from the point where the ink contradicts blue by
    # `ink_pick_margin` towards the point where it contradicts it by `ink_margin` (a share
    # below 0 lies nearer black than both).
    near = (span - config.ink_pick_margin) / (2 * span)
    far = (span - config.ink_margin) / (2 * span)
    ink = (black + (near + share * (far - near)) * (blue - black)).astype(np.float32)
    assert "D" in matcher.contradicted_suits(ink)
    assert ("D" in matcher.contradicted_suits(ink, config.ink_pick_margin)) is (share < 0)
    top = max(0.9, matcher.sibling["QD"])
    match = DeckMatch("QD", {"QD": top, "QS": top - lead, "KD": top - 0.4}, ink)
    assert matcher.is_sure(match) is sure


@pytest.mark.parametrize(("scores", "ruled_out", "expected"), [
    ({"QS": 0.82, "QD": 0.80, "KD": 0.6}, frozenset("CHS"), "QD"),  # faces alike: the ink
    ({"TS": 0.94, "TD": 0.88, "KD": 0.6}, frozenset("CHS"), "TS"),  # faces clearly apart
    ({"QS": 0.82, "QD": 0.80}, frozenset(), "QS"),                   # no ink judged
    ({"QS": 0.82, "KS": 0.80}, frozenset("CDHS"), "QS"),             # every suit ruled out
    ({"QD": 0.82, "QS": 0.81}, frozenset("CHS"), "QD"),              # the ink agrees
])
def test_the_best_card_is_the_ink_s_where_the_faces_hardly_differ(
        scores: dict[str, float], ruled_out: frozenset[str], expected: str) -> None:
    assert best_card(scores, ruled_out, 0.05) == expected


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


def _observation(name: str | None) -> CardObservation:
    """A whole card read by the glyph reader as `name` (None: unread)."""
    corners = np.array([[0, 0], [60, 0], [60, 90], [0, 90]], np.float32)
    if name is None:
        return CardObservation(corners, None, 0.0)
    rank, suit = parse_card(name)
    return CardObservation(corners, Reading(rank, suit, 0.9), 0.9)


@pytest.mark.parametrize(("lead", "sure", "expected"), [
    (0.0, False, "TD"),     # the profile cannot tell the two apart: the glyph name stands
    (0.015, False, "TD"),
    (0.03, False, "TD"),    # it prefers another card, not surely: the glyph name stands
    (0.03, True, None),     # surely, but not by the override margin: the name is withdrawn
    (0.06, True, "9D"),     # surely and well ahead: the profile's card
    (0.06, False, "TD"),
])
def test_a_glyph_name_the_profile_doubts_stands_unless_the_profile_is_sure(
        lead: float, sure: bool, expected: str | None) -> None:
    config = DeckMatchConfig()
    assert config.min_margin <= 0.02 < 0.03 < config.override_margin <= 0.06
    match = DeckMatch("9D", {"9D": 0.74, "TD": 0.74 - lead, "QS": 0.3}, None)
    got = deck_reading(_observation("TD"), match, sure, 0.6, config)
    assert got.name == expected
    assert (got.confidence == 0.0) == (expected is None)


@pytest.mark.parametrize(("read_at", "sure", "expected"), [
    (0.4, True, 0.8),    # the enrolled face backs a weak reading of the same card
    (0.95, True, 0.95),  # a surer reading keeps its own confidence
    (0.4, False, 0.4),   # a doubtful match backs nothing
])
def test_a_reading_the_profile_surely_names_alike_takes_the_surer_confidence(
        read_at: float, sure: bool, expected: float) -> None:
    corners = np.array([[0, 0], [60, 0], [60, 90], [0, 90]], np.float32)
    rank, suit = parse_card("JC")
    weak = CardObservation(corners, Reading(rank, suit, read_at), read_at)
    match = DeckMatch("JC", {"JC": 0.9, "JS": 0.8, "QC": 0.5}, None)
    got = deck_reading(weak, match, sure, 0.6, DeckMatchConfig())
    assert got.name == "JC"
    assert got.confidence == pytest.approx(expected)
    assert got.reading is not None and got.reading.confidence == pytest.approx(expected)


def test_the_profile_names_an_unread_card_only_when_sure() -> None:
    match = DeckMatch("QH", {"QH": 0.8, "KH": 0.6}, None)
    assert deck_reading(_observation(None), match, True, 0.6, DeckMatchConfig()).name == "QH"
    assert deck_reading(_observation(None), match, False, 0.6, DeckMatchConfig()).name is None


@pytest.mark.parametrize(("best", "below_sibling", "margin", "vetoed"), [
    ("JD", 0.0, 0.3, False),  # the faces and colours name that very card clearly
    ("JD", 0.0, 0.03, True),  # not clearly enough: the ink stands against the name
    ("QD", 0.0, 0.3, True),   # the profile names another card
    ("JD", 0.2, 0.06, True),  # ahead of the rest, but far less like it than its sibling is
])
def test_ink_of_another_colour_withdraws_a_name_the_profile_does_not_name_clearly(
        profiled: GlyphModel, best: str, below_sibling: float, margin: float,
        vetoed: bool) -> None:
    assert profiled.deck is not None
    matcher = matcher_for(profiled.deck)
    black = profiled.deck.suit_inks["S"]
    assert matcher.ink_contradicts("JD", black)
    assert DeckMatchConfig().sibling_slack < 0.2
    top = max(0.9, matcher.sibling[best]) - below_sibling
    scores = {best: top, "KS": top - margin}
    match = DeckMatch(best, scores, black)
    assert ink_vetoes(_observation("JD"), match, matcher, DeckMatchConfig()) is vetoed
    red = profiled.deck.suit_inks["D"]
    assert not ink_vetoes(_observation("JD"), DeckMatch(best, scores, red), matcher,
                          DeckMatchConfig())


@pytest.mark.parametrize(("sure", "expected"), [(True, "QD"), (False, None)])
def test_a_glyph_suit_whose_ink_the_card_lacks_gives_way_to_the_profile(
        sure: bool, expected: str | None) -> None:
    match = DeckMatch("QD", {"QD": 0.85, "QS": 0.849, "KD": 0.6}, None)
    got = deck_reading(_observation("QS"), match, sure, 0.6, DeckMatchConfig(),
                       contradicted=True)
    assert got.name == expected


def test_cards_of_another_ink_do_not_crowd_the_best_match(profiled: GlyphModel) -> None:
    assert profiled.deck is not None
    matcher = matcher_for(profiled.deck)
    inks = profiled.deck.suit_inks
    # The drawn deck's diamonds are blue and its spades black: a queen of diamonds whose face
    # matches the queen of spades nearly as well is told by its ink.
    scores = {"QD": 0.95, "QS": 0.945, "KD": 0.8, "QH": 0.7}
    blue = DeckMatch("QD", scores, inks["D"])
    assert matcher.ink_contradicts("QS", inks["D"])
    assert blue.margin < DeckMatchConfig().min_margin
    assert matcher.ink_margin(blue) == pytest.approx(0.95 - 0.8)
    assert matcher.is_sure(blue)
    unknown = DeckMatch("QD", scores, None)
    assert matcher.ink_margin(unknown) == pytest.approx(blue.margin)
    assert not matcher.is_sure(unknown)


@pytest.mark.parametrize(("generic", "twins", "renames_twins", "expected"), [
    ("AC", True, False, "AC"),   # the profile prefers the twin: it cannot tell, the name stands
    ("AC", True, True, "AS"),    # renaming twins allowed: the profile's card
    ("KC", False, False, "AS"),  # another rank: the profile renames it, as before
])
def test_the_profile_does_not_rename_a_card_into_its_twin(
        generic: str, twins: bool, renames_twins: bool, expected: str | None) -> None:
    # AC and AS differ in the shape of one pip: at camera scale the faces hardly tell them
    # apart, the index readers can.
    config = DeckMatchConfig(renames_twins=renames_twins)
    match = DeckMatch("AS", {"AS": 0.9, "AC": 0.8, "KC": 0.5}, None)
    assert config.override_margin <= 0.9 - 0.8
    got = deck_reading(_observation(generic), match, True, 0.6, config, twins=twins)
    assert got.name == expected
    assert (got.confidence == 0.0) == (expected is None)


def test_a_suit_the_ink_contradicts_is_not_given_to_its_twin() -> None:
    match = DeckMatch("TC", {"TC": 0.9, "TS": 0.88, "TD": 0.5}, None)
    contradicted = deck_reading(_observation("TS"), match, True, 0.6, DeckMatchConfig(),
                                contradicted=True, twins=True)
    assert contradicted.name is None and contradicted.confidence == 0.0


def test_a_card_the_profile_lacks_keeps_its_name_against_its_twin() -> None:
    # The ten of spades was never enrolled; the profile's nearest card is its twin.
    match = DeckMatch("TC", {"TC": 0.95, "AC": 0.5}, None)
    assert deck_reading(_observation("TS"), match, True, 0.6, DeckMatchConfig(),
                        twins=True).name == "TS"
    assert deck_reading(_observation("TS"), match, True, 0.6, DeckMatchConfig(),
                        twins=False).name == "TC"


def test_twins_share_a_rank_and_their_suits_ink(profiled: GlyphModel) -> None:
    assert profiled.deck is not None
    # The drawn deck has four colours: green clubs, blue diamonds. No two suits are twins.
    four = matcher_for(profiled.deck)
    assert not four.twins("AC", "AS") and not four.twins("QD", "QH")
    assert not four.twins("AC", "AC") and not four.twins("AC", "KC")
    # Without inks seen at enrolment, clubs pair with spades and diamonds with hearts.
    deck = profiled.deck
    inkless = matcher_for(DeckFaces(deck.names, deck.grey, deck.colour, deck.index,
                                    np.full_like(deck.ink, np.nan)))
    assert inkless.twins("AC", "AS") and inkless.twins("QD", "QH")
    assert not inkless.twins("AC", "AH") and not inkless.twins("9S", "TS")


def test_a_card_showing_its_own_enrolled_ink_is_not_contradicted(profiled: GlyphModel) -> None:
    assert profiled.deck is not None
    deck = profiled.deck
    # A jack of hearts whose figure reaches into the index (a blue hat): its index ink was
    # enrolled nearly as the spades' black.
    spades = deck.suit_inks["S"]
    ink = np.asarray(spades + np.float32(0.03), np.float32)
    inks = deck.ink.copy()
    inks[deck.names == "JH"] = ink
    matcher = matcher_for(DeckFaces(deck.names, deck.grey, deck.colour, deck.index, inks))
    assert "H" in matcher.contradicted_suits(ink, DeckMatchConfig().ink_pick_margin)
    assert not matcher.ink_contradicts("JH", ink)
    assert matcher.ink_contradicts("QH", ink)  # no other heart shows that ink
    clear = DeckMatch("JH", {"JH": 0.95, "QH": 0.6, "JS": 0.55}, ink)
    assert matcher.is_sure(clear)
    assert not matcher.is_sure(DeckMatch("QH", {"QH": 0.95, "JH": 0.6, "QS": 0.55}, ink))


def _scaled(corners: Quad, scale: float) -> Quad:
    """An outline scaled about its centre."""
    centre = corners.mean(axis=0)
    return np.asarray(centre + (corners - centre) * scale, np.float32)


@pytest.mark.parametrize("long_side", [140, 95])
def test_a_card_outlined_well_inside_its_edge_is_read_at_the_card_length(
        long_side: int, profiled: GlyphModel) -> None:
    # An outline of a frame line printed inside the card's edge: 0.85 of the card's length.
    assert profiled.deck is not None
    named: dict[float | None, int] = {}
    total = 0
    for card_length in (None, float(long_side)):
        right = wrong = total = 0
        for seed in range(3):
            frame, cards = drawn_scene(LOOK_ALIKES, long_side, 80 + seed)
            outlines = [(c.name, c.corners) for c in cards]
            inner = [CardObservation(_scaled(c.corners, 0.85), None, 0.0) for c in cards]
            total += len(inner)
            for observation in read_known_deck(frame, inner, profiled.deck,
                                               card_length=card_length):
                if observation.name is not None:
                    right += observation.name == _card_at(observation, outlines)
                    wrong += observation.name != _card_at(observation, outlines)
        named[card_length] = right
        if card_length is not None:
            assert wrong == 0
    assert named[float(long_side)] >= total - 1
    assert named[None] < named[float(long_side)]


def test_a_card_another_outline_overlaps_is_left_as_the_generic_readers_read_it(
        profiled: GlyphModel) -> None:
    assert profiled.deck is not None
    frame, cards = drawn_scene(LOOK_ALIKES[:2], 140, 7)
    alone = [CardObservation(c.corners, None, 0.0) for c in cards]
    assert all(o.name == c.name for o, c in zip(
        read_known_deck(frame, alone, profiled.deck), cards, strict=True))
    # A second whole outline over half of the first card: the faces in its outline may be
    # partly another card's.
    over = CardObservation(cards[0].corners + (cards[0].corners[2] - cards[0].corners[1]) / 2,
                           None, 0.0)
    read = read_known_deck(frame, [*alone, over], profiled.deck)
    assert read[0].name is None and read[1].name == cards[1].name
    # An outline wholly inside the card (a part of its own face found as a region) is no card
    # over it.
    part = CardObservation(_scaled(cards[0].corners, 0.4), None, 0.0)
    assert read_known_deck(frame, [*alone, part], profiled.deck)[0].name == cards[0].name


def test_a_rename_to_a_rank_the_network_does_not_see_leaves_the_generic_name(
        tmp_path: Path) -> None:
    # A deck enrolled with its king and nine of hearts mixed up: its faces then call a king of
    # hearts the nine, and the card network sees a king.
    make, _ = design_of("artwork")
    photos = []
    for k, name in enumerate(EUCHRE):
        frame = table_background(320, 320, seed=k)
        paste_card(frame, make({"9H": "KH", "KH": "9H"}.get(name, name)), (160.0, 160.0),
                   200.0, angle=5.0)
        photos.append((name, tmp_path / f"{name}.png"))
        cv2.imwrite(str(photos[-1][1]), frame)
    profile, _ = enroll_images(photos, VisionConfig())
    frame = table_background(400, 400, seed=9)
    corners = paste_card(frame, make("KH"), (200.0, 200.0), 140.0, angle=20.0)
    rank, suit = parse_card("KH")
    read = CardObservation(corners, Reading(rank, suit, 0.9), 0.9)
    assert [o.name for o in read_known_deck(frame, [read], profile.deck)] == ["9H"]
    assert [o.name for o in read_known_deck(frame, [read], profile.deck,
                                            reader=shipped_reader())] == ["KH"]


def test_faces_sure_of_no_card_leave_the_generic_name(tmp_path: Path) -> None:
    # An outline that leaves out a strip of the card's far end shows the enrolled faces cut in
    # the wrong place: they look more like another card than like the card, but are sure of
    # none. The generic readers' name stands for the decision to judge.
    make, _ = design_of("artwork")
    photos = []
    for k, name in enumerate(EUCHRE):
        frame = table_background(320, 320, seed=k)
        paste_card(frame, make(name), (160.0, 160.0), 200.0, angle=5.0)
        photos.append((name, tmp_path / f"{name}.png"))
        cv2.imwrite(str(photos[-1][1]), frame)
    profile, _ = enroll_images(photos, VisionConfig())
    matcher = matcher_for(profile.deck)
    unsure_elsewhere = 0
    for name in ("TC", "TH", "TD", "TS"):
        for seed in range(3):
            frame = table_background(400, 400, seed=seed)
            corners = paste_card(frame, make(name), (200.0, 200.0), 140.0, angle=50.0 + 30 * seed)
            # Corners 2 and 3 end the card when side 0-1 is short, else corners 1 and 2.
            top_short = (np.linalg.norm(corners[1] - corners[0])
                         < np.linalg.norm(corners[2] - corners[1]))
            moves = ((2, 1), (3, 0)) if top_short else ((1, 0), (2, 3))
            cut = corners.copy()
            for end, towards in moves:
                cut[end] = corners[end] + (corners[towards] - corners[end]) * 0.16
            match = matcher.match(frame, cut)
            assert match is not None
            rank, suit = parse_card(name)
            read = CardObservation(cut, Reading(rank, suit, 1.0), 1.0)
            unsure_elsewhere += match.name != name and not matcher.is_sure(match)
            assert [o.name for o in read_known_deck(frame, [read], profile.deck,
                                                    reader=shipped_reader())] == [name]
    assert unsure_elsewhere >= 9


def test_the_decision_lifts_a_name_the_faces_bear_out_only_where_no_outline_overlaps(
        profiled: GlyphModel) -> None:
    assert profiled.deck is not None
    lifted = 0
    for seed in range(6):
        frame, cards = drawn_scene(LOOK_ALIKES[:2], 140, 20 + seed)
        card = cards[0]
        rank, suit = parse_card(card.name)
        named = CardObservation(card.corners, Reading(rank, suit, 0.5), 0.5)
        alone = decided(frame, [named], VisionConfig(), deck=profiled.deck)[0]
        if alone.confidence != shipped_threshold():
            continue  # the decision needs no lift here, or the faces do not bear it out
        lifted += 1
        over = CardObservation(card.corners + (card.corners[2] - card.corners[1]) / 2, None, 0.0)
        overlapped = decided(frame, [named, over], VisionConfig(), deck=profiled.deck)[0]
        assert overlapped.confidence < shipped_threshold()
    assert lifted >= 2
