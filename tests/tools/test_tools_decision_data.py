"""Rendered scenes for the calibrated decision: a deck's cards, each at most once."""

from __future__ import annotations

import pytest

from tools.decision_data import DESIGNS, design_of, scene
from vision.errors import VisionError


@pytest.mark.parametrize("design", sorted(DESIGNS))
def test_a_rendered_scene_holds_each_card_of_its_deck_once(design: str) -> None:
    laid_over = 0
    for seed in range(8):
        _, cards = scene(design, 95.0, seed)
        names = [card["card"] for card in cards]
        assert len(names) == len(set(names)), (design, seed, names)
        assert set(names) <= set(DESIGNS[design][1])
        laid_over += len(names) - 8
    assert laid_over > 0  # some cards lie partly over others, as in a trick


def test_a_design_that_is_neither_drawn_nor_a_held_out_theme_is_refused() -> None:
    # A theme the readers trained on is no measure of a deck never seen.
    for design in ("kde-standard", "bonded", "no-such-deck"):
        with pytest.raises(VisionError, match=design):
            design_of(design)
