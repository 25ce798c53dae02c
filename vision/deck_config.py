"""Tunables of known-deck reading, in their own frozen dataclass."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DeckMatchConfig:
    """How enrolled faces are compared with an outlined card, and when a match names it."""

    work_size: tuple[int, int] = (80, 120)
    """Width and height the outlined card is rectified to before the small views are cut."""
    max_oversample: int = 2
    """A card larger in the frame is warped at most this many times the working size, then
    shrunk by area."""
    inset: float = 0.06
    """Share of each side left out of every view (outline error, table at the edge)."""
    face_size: tuple[int, int] = (40, 60)
    colour_size: tuple[int, int] = (20, 30)
    index_size: tuple[int, int] = (24, 36)
    index_share: tuple[float, float] = (0.22, 0.34)
    """Width and height of the index corner as shares of the card."""
    common_share: float = 0.5
    """Share of the deck's mean view taken out of every view before correlating."""
    shift: int = 2
    """Views are compared at every shift up to this many view pixels either way."""
    grey_sigma: float = 1.0
    index_sigma: float = 0.8
    """Gaussian softening (view pixels) before grey views are correlated."""
    chroma_weight: float = 2.0
    """Weight of Lab chroma against lightness in the colour view."""
    weights: tuple[float, float, float] = (0.35, 0.35, 0.3)
    """Weights of the grey face, colour face and index correlations in a match's similarity."""
    min_similarity: float = 0.5
    """The best match must be at least this similar."""
    sibling_slack: float = 0.13
    """It must look at least as like its card as the card's nearest other card of the deck
    does, less this."""
    stranger_slack: float = 0.0
    """Where the glyph reader read a card the profile does not hold (a 2-8, a card not
    enrolled), the slack allowed instead of `sibling_slack` for the profile to name the card."""
    min_margin: float = 0.02
    """It must lead the best match of any other card by this."""
    override_margin: float = 0.05
    """Leading by this, it names the card even where the glyph reader read another card."""
    renames_twins: bool = False
    """Whether the profile may rename a card the generic reader named into its twin: the same
    rank in the other suit of the same ink (AC and AS, TD and TH). At camera scale twins'
    faces differ only in the shape of their pips, which the index readers see larger: where the
    profile prefers the generic name's twin, the generic name stands, for the decision to
    judge."""
    outline_scales: tuple[float, ...] = (0.97, 1.03, 1.06)
    """Where a match is not sure, or leads by less than `override_margin`, the outline is also
    seen scaled about its centre by each of these, every card keeping its best similarity over
    them, as over shifts: an outline found a little inside a soft-edged card or a little
    outside it shows the enrolled faces shrunk or grown. () looks once."""
    network_rank_support: float = 0.15
    """A card the glyph reader left unread or named otherwise is named from the profile only
    where the card network, when on, gives its rank (any court card for a court) at least this
    in both views: a low card of the deck's own design, which no euchre profile holds, can look
    more like an enrolled nine than the sibling rule can tell, and a ten whose outline leaves
    out a strip of its pips more like its nine."""
    ink_overrule: float = 0.05
    """Where the ink rules out the suit of the card the faces look most like, the best card of
    a suit not ruled out takes its place when the faces put it less than this behind."""
    white_percentile: float = 90.0
    """The card's own white: this percentile of each channel over the face."""
    ink_darkness: float = 0.25
    """A pixel of the index is ink when this much darker than the white."""
    ink_min_share: float = 0.03
    """Less ink than this share of the index corners: the ink colour is not judged."""
    ink_separation: float = 0.3
    """Suits whose enrolled inks lie this far apart have different colours."""
    ink_margin: float = 0.1
    """The ink contradicts a name when nearer another colour's ink by this much."""
    ink_pick_margin: float = 0.25
    """The ink picks another card than the faces (`ink_overrule`) only when nearer another
    colour's ink than the faces' card's by this much."""
