"""Screenshot file names: each state's label made safe for a file name, the suit kept."""

from __future__ import annotations

import pytest

from display.screens import file_label


@pytest.mark.parametrize(
    ("label", "name"),
    [("W plays J♥", "W_plays_JH"), ("W plays J♦", "W_plays_JD"), ("N plays 10♣", "N_plays_10C"),
     ("E names trump ♠", "E_names_trump_S"), ("0012.3_S plays Joker", "0012_3_S_plays_Joker"),
     ("start", "start")],
)
def test_screen_file_names_keep_the_suit(label: str, name: str) -> None:
    assert file_label(label) == name
