"""A named outline lying inside a card-sized outline, and much smaller, keeps no name."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from tools.scenes import paste_card, plain_card, table_background
from tools.synthetic import artwork_cards
from vision.cards import CardObservation, Reading, parse_card
from vision.config import VisionConfig
from vision.inner_outline import inner_unnamed
from vision.live import LiveConfig, view_config
from vision.model import GlyphModel
from vision.pipeline import recognise


def _card(name: str | None, width: float, height: float, x: float = 0.0, y: float = 0.0,
          whole: bool = True) -> CardObservation:
    """A named (or unread) upright outline with its top-left corner at (x, y)."""
    corners = np.array([[x, y], [x + width, y], [x + width, y + height], [x, y + height]],
                       np.float32)
    if name is None:
        return CardObservation(corners, None, 0.0, whole=whole)
    rank, suit = parse_card(name)
    return CardObservation(corners, Reading(rank, suit, 0.9), 0.9, whole=whole)


CARDS = [_card("9C", 64, 95), _card("JH", 63, 94, 100), _card("AS", 65, 96, 200)]
"""Three named cards 95 px long: the frame's card size."""


def _names(observations: list[CardObservation]) -> list[str | None]:
    return [o.name for o in inner_unnamed(observations, VisionConfig().inner_outline or 0.0)]


def test_a_named_outline_inside_an_unread_card_keeps_no_name() -> None:
    # A court's picture frame (44 x 72) inside its own card, which was left unread.
    frame = [*CARDS, _card(None, 64, 94, 400), _card("KH", 44, 72, 410, 11)]
    assert _names(frame) == ["9C", "JH", "AS", None, None]
    # Inside a named card it loses its name as well; the card keeps its own.
    frame = [*CARDS, _card("QH", 64, 94, 400), _card("KH", 44, 72, 410, 11)]
    assert _names(frame) == ["9C", "JH", "AS", "QH", None]


def test_a_card_on_a_box_an_outline_round_two_cards_or_a_soft_edge_keep_their_names() -> None:
    # Inside an outline far larger than the cards (a box, a mat, a photo's own edge).
    assert _names([*CARDS, _card(None, 200, 300, 400), _card("KH", 64, 95, 450, 50)])[-1] == "KH"
    # Inside an outline as long as a card but twice as wide (two overlapping cards).
    assert _names([*CARDS, _card(None, 128, 96, 400), _card("TD", 48, 69, 470, 10)])[-1] == "TD"
    # An outline a little inside the card's own (a soft edge): most of its area.
    assert _names([*CARDS, _card(None, 64, 95, 400), _card("QS", 60, 90, 402, 2)])[-1] == "QS"
    # Beside the card, not inside it.
    assert _names([*CARDS, _card(None, 64, 95, 400), _card("KH", 44, 72, 480, 11)])[-1] == "KH"


def test_without_other_named_cards_nothing_is_judged() -> None:
    alone = [_card(None, 64, 94), _card("KH", 44, 72, 10, 11)]
    assert _names(alone) == [None, "KH"]
    # Loose corners neither judge nor are judged.
    corners = [_card("9C", 64, 95, whole=False), _card(None, 64, 94, 400),
               _card("KH", 44, 72, 410, 11)]
    assert _names(corners) == ["9C", None, "KH"]


def test_a_card_printed_small_on_a_blank_card_is_not_named(shared_dir: Path) -> None:
    """svg-cards faces at 140 px in a play-area view read with the table's settings: a card
    face printed at 0.65 of a blank card's size on it (as a court's picture lies in its card)
    is named without the rule in some scenes and with it in fewer; the cards around are named
    in every scene either way."""
    faces = dict(artwork_cards(shared_dir / "vision" / "artwork"))
    model = GlyphModel.load()
    config = view_config(VisionConfig(), LiveConfig())
    bare = replace(config, inner_outline=None)
    with_rule = without_rule = 0
    for k, (inner, angle) in enumerate([("KS", 10), ("AD", -30), ("9C", 60), ("QH", 0),
                                        ("JC", 35), ("KD", 20)]):
        frame = table_background(1080, 1080, seed=k)
        for j, name in enumerate(("9H", "JD", "AS")):
            paste_card(frame, faces[name], (250 + 280 * j, 300), 140, angle=15 * j - 20)
        paste_card(frame, plain_card("", None), (540, 700), 140, angle=angle)
        paste_card(frame, faces[inner], (540, 700), 0.65 * 140, angle=angle)
        named = {o.name for o in recognise(frame, model, config)}
        named_bare = {o.name for o in recognise(frame, model, bare)}
        assert {"9H", "JD", "AS"} <= named & named_bare
        with_rule += inner in named
        without_rule += inner in named_bare
    assert without_rule >= 2
    assert with_rule < without_rule
