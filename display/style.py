"""Colours of the table display, with suit colours that stay distinct for colour-blind players."""

from __future__ import annotations

from dataclasses import dataclass

from display.cards import check_suit

Colour = tuple[int, int, int]

# Red is Paul Tol's "vibrant" red: light enough to be told from black by players who see little
# red. The four-colour deck's blue and green were chosen by simulating protanopia, deuteranopia
# and tritanopia (Machado et al. 2009): every pair of suits stays apart under each, and each
# keeps a contrast of at least 3:1 on the white card (see tests/display/test_display_colours.py).
BLACK: Colour = (20, 20, 20)
RED: Colour = (204, 51, 17)
BLUE: Colour = (51, 85, 187)
GREEN: Colour = (85, 150, 85)

TWO_COLOUR = {"S": BLACK, "C": BLACK, "H": RED, "D": RED}
FOUR_COLOUR = {"S": BLACK, "C": GREEN, "H": RED, "D": BLUE}


@dataclass(frozen=True)
class Style:
    """Colours used by `render`; `four_colour` gives each suit its own colour."""

    four_colour: bool = False
    felt: Colour = (14, 74, 48)
    felt_line: Colour = (40, 120, 84)
    panel: Colour = (247, 243, 232)
    panel_dim: Colour = (206, 202, 192)
    ink: Colour = (22, 22, 22)
    ink_soft: Colour = (80, 80, 80)
    on_felt: Colour = (255, 255, 255)
    card: Colour = (255, 255, 255)
    card_edge: Colour = (60, 60, 60)
    highlight: Colour = (255, 200, 0)
    winner: Colour = (0, 153, 136)
    alarm: Colour = (225, 0, 0)
    alarm_dim: Colour = (150, 0, 0)
    on_alarm: Colour = (255, 255, 255)
    problem: Colour = (255, 184, 0)
    on_problem: Colour = (0, 0, 0)
    button_ok: Colour = (0, 119, 187)
    button_undo: Colour = (96, 96, 96)
    button_pressed: Colour = (255, 200, 0)
    on_button: Colour = (255, 255, 255)
    bidding_team: Colour = (255, 236, 170)

    def suit_colour(self, suit: str) -> Colour:
        """The colour of `suit`'s symbol on a light background."""
        palette = FOUR_COLOUR if self.four_colour else TWO_COLOUR
        return palette[check_suit(suit)]
