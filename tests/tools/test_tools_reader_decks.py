"""The Debian deck themes of the learned reader's training: names, cards drawn, held-out decks."""

from __future__ import annotations

import numpy as np
import pytest

from tools.reader_decks import (
    HELD_OUT,
    THEMES,
    DeckTheme,
    deck_cards,
    element_ids,
    is_card_shape,
)
from tools.reader_faces import all_cards

KDE = DeckTheme("k", "p", "x.svgz", "kde", "GPL-2+")
GNOME = DeckTheme("g", "p", "x.svgz", "aisleriot", "GPL-3+")


@pytest.mark.parametrize(("card", "kde", "gnome"), [
    ("QH", "queen_heart", "heart_queen"), ("AS", "1_spade", "spade_1"),
    ("TD", "10_diamond", "diamond_10"), ("9C", "9_club", "club_9"),
    ("JS", "jack_spade", "spade_jack"), ("KD", "king_diamond", "diamond_king"),
    ("2H", "2_heart", "heart_2")])
def test_cards_are_found_by_each_themes_naming(card: str, kde: str, gnome: str) -> None:
    assert element_ids(KDE, card) == (kde,)
    assert element_ids(GNOME, card) == (gnome,)


def test_every_card_has_an_element_name() -> None:
    for card in [*all_cards(), "back"]:
        assert element_ids(KDE, card) and element_ids(GNOME, card)


@pytest.mark.parametrize("index", range(8))
def test_each_theme_draws_the_euchre_cards_two_low_ranks_the_joker_and_back(index: int) -> None:
    cards = deck_cards(index)
    assert [c for c in cards if c[0] in "9TJQKA" and c != "JK"] == [
        r + s for r in "9TJQKA" for s in "CDHS"]
    low = {c[0] for c in cards if c[0] in "2345678"}
    assert len(low) == 2 and len(cards) == 24 + 8 + 2
    assert deck_cards(index + 1) != cards or index % 7 == 6


@pytest.mark.parametrize(("height", "width", "card"), [
    (300, 210, True), (327, 210, True), (420, 30, False), (210, 300, False), (300, 300, False)])
def test_only_elements_with_a_cards_proportions_are_kept(height: int, width: int,
                                                          card: bool) -> None:
    assert is_card_shape(np.zeros((height, width, 4), np.uint8)) is card


def test_held_out_decks_are_themes_and_leave_most_for_training() -> None:
    names = [t.name for t in THEMES]
    assert len(set(names)) == len(names)
    assert set(names) >= HELD_OUT
    assert len(HELD_OUT) < len(names) // 4
    assert all(t.naming in ("kde", "aisleriot") and t.licence for t in THEMES)
