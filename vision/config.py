"""Tunables of the recognition pipeline, in frozen dataclasses."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any


@dataclass(frozen=True)
class FeltFinderConfig:
    """The cloth finder's tunables (`vision/finder_felt.py`, `propose.ClothFinder`): cards
    judged against the colour of the plain cloth they lie on."""

    bins: int = 16
    """Lab levels per channel of the histogram whose fullest bin is the cloth's colour."""
    seed_radius: float = 18.0
    """Pixels within this Lab distance of the cloth's colour are cloth seeds."""
    min_cloth_share: float = 0.2
    """The seeds must cover this share of the frame, else there is no plain cloth."""
    max_cloth_lightness: float = 170.0
    paper_chroma: float = 20.0
    """A cloth colour lighter (Lab L) and greyer than these is paper or a white table: skipped."""
    shade_share: float = 0.25
    """The cloth's local colour is blurred over this share of the frame's long side."""
    min_distance: float = 20.0
    spread_factor: float = 4.0
    """An object differs from the local cloth by at least the larger of these: a Lab distance,
    and this many robust spreads of the cloth seeds' own distances."""
    light_step: float = 30.0
    min_light_share: float = 0.5
    """A card's region is lighter (Lab L) than the local cloth by this step over this share."""
    part_kernels: tuple[int, ...] = (5, 9, 13)
    """Discs (mask pixels) that part cards touching each other or a light object."""
    explained_area: float = 0.25
    """It looks only where a card's area of light is left outside the outlines found already
    that are no larger than this share of the frame (`propose.unexplained_light`)."""


@dataclass(frozen=True)
class SideFinderConfig:
    """The side finder's tunables (`vision/outline_sides.py`, `propose.SideFinder`): a card built
    on a whole side of a region that is not card-shaped."""

    epsilon: float = 0.015
    """Tolerance (share of the perimeter) of the polygon in which whole card sides are sought."""
    max_skew: float = 20.0
    """How far (degrees) the corners at both ends of a whole side may be from a right angle."""
    aspects: tuple[float, ...] = (1.35, 1.45, 1.55)
    """Card aspects tried when a card is built on one whole side."""
    min_neighbour: float = 0.25
    """The sides leaving a whole side must be this share of the card's depth."""
    min_evidence: float = 0.6
    """Share of the built card's far side that must lie on an edge (within reach x its size)."""
    min_coverage: float = 0.5
    """Share of a built card that must lie inside the region it was built from."""
    same_region_iou: float = 0.7
    """A region overlapping one that gave a card this much is that card: no sides are sought."""
    size_ratio: float = 0.25
    """A built card must be between this share of and its inverse times the typical area of the
    cards found whole."""


@dataclass(frozen=True)
class LearnedFinderConfig:
    """The learned finder (`vision/finder_net.py`): a network marks every card face's visible
    inside, and the outlines of that mask are candidates like those of the colour masks."""

    long_side: int = 640
    """The shrunk frame is shrunk further to at most this long side for the network (trained
    on cards 26-220 px long; the table's cards are about 47 px at 640)."""
    level: float = 0.5
    """A pixel is a card face's inside from this probability on."""
    corners: bool = True
    """The mask is searched for loose corners too, after the colour masks: it parts a covered
    card's visible part from the card lying on it."""
    in_doubt: bool = True
    """The frame is read first without the finder, and again with it only where that leaves
    something unread; the second look only adds names (`vision.doubt`). Outlines sought
    outside `pipeline.recognise` (`detect.find_cards` alone) are then sought without it."""
    reach: float = 1.5
    """In the second look the finder looks only around what was left unread, this many card
    lengths beyond it, where cards named whole tell the card length (`vision.doubt.
    doubt_region`); 0: over the whole frame."""


@dataclass(frozen=True)
class OutlineFitConfig:
    """Fitting an unread outline to the card's own edges (`vision/outline_fit.py`)."""

    reach: float = 0.25
    """Each side's edge is sought this share of the card's short side either way of it."""
    samples: int = 24
    side_margin: float = 0.12
    """Points sampled along each side, leaving this share at each end (the rounded corners)."""
    min_step: float = 12.0
    """A step across the side of at least this many grey levels (over two pixels) is an edge."""
    min_share: float = 0.6
    """At least this share of the samples must show the edge, on one straight line."""
    inlier_distance: float = 1.5
    """Pixels from the fitted line within which a sampled edge point lies on it."""
    max_turn_degrees: float = 20.0
    """A fitted side turned more than this from the outline's is another edge."""
    max_move: float = 0.4
    """A fitted corner further than this share of the short side from the outline's: no fit."""
    min_move: float = 0.05
    """No corner moved as far as this share of the short side: the outline was on the card,
    and reading it again would only be a second try at the same view (no fit)."""
    lines_within: int = 3
    """An unread outline is also read as each of up to this many cards made of the straight
    lines in and about it (`vision/outline_lines.py`: a card on a card; 0: off)."""
    lines_min_inside: float = 0.8
    """Such a card lies at least this share inside the outline."""
    lines_min_area: float = 1.2
    """Only outlines larger than this many times the median area of the cards read (any, when
    none is read) are looked in: a smaller one holds one card at most."""
    rest_share: float = 0.6
    """A card named inside an unread outline whose area is under this share of the outline's
    is added beside it, and the outline stays unread: it holds more than that card."""


@dataclass(frozen=True)
class PipCountConfig:
    """Counting a number card's pips (`vision/pips.py`): a name whose rank the count
    contradicts is withdrawn. Fitted on the training halves' number cards and on the rendered
    decks of Debian's card games."""

    width: int = 80
    height: int = 120
    """The card is warped upright to this size."""
    paper_kernel: float = 0.25
    """The paper's local light is the greatest darkest-channel level over a square this share
    of the view's width across (a pip is smaller), averaged over the same square."""
    ink_ratio: float = 0.72
    """A pixel is ink where its darkest channel is below this share of the paper's light (the
    darkest channel finds red and orange ink as well as black)."""
    min_area: float = 0.0015
    """Pieces smaller than this share of the view are specks."""
    body: tuple[float, float, float, float] = (0.19, 0.07, 0.81, 0.93)
    """The pips' part of the upright card (left, top, right, bottom shares), clear of the
    indices."""
    side_band: tuple[float, float] = (0.38, 0.62)
    """Between these shares of the height, left or right of the body, a standard card has no
    ink: a pip there means the card is seen sideways or is not a pip card (no count)."""
    typical_share: float = 0.6
    """The typical large piece is the median of those from this share of the largest."""
    pip_floor: float = 0.45
    largest: float = 2.2
    stray_floor: float = 0.2
    """Pips are the pieces from `pip_floor` times the typical large piece; a piece larger than
    `largest` times it (a figure, another card's edge, pips run together by blur), or one from
    `stray_floor` to `pip_floor` times it (a pip left alone between such), leaves the card
    uncounted."""
    most_pip_share: float = 0.05
    """A typical piece larger than this share of the view is no pip (a standard pip covers 1-3 %
    of the card): at 95 px a tightly packed ten's pips run together into two round blobs in the
    middle column, which would pass for a 2."""
    pip_aspect: tuple[float, float] = (0.55, 1.8)
    """A pip is about as wide as tall: the pips' median width over height lies in this range
    (a column of pips run together by motion blur does not)."""
    edge_share: float = 0.06
    edge_band: float = 0.08
    """Ink touching the view's edge and reaching further in than this share of its width, over
    `edge_share` of the view (a card lying over this one, a shadow), leaves the card uncounted;
    a frame line printed along the card's edge stays within the band."""
    aspect_spread: float = 1.4
    fill_spread: float = 0.2
    size_spread: float = 1.6
    """Pips are of one shape and size: a piece whose width over height differs from the pips'
    median by more than `aspect_spread` times, whose fill of its box by more than
    `fill_spread`, or pieces whose areas differ by more than `size_spread` times leave the card
    uncounted (an ornament, a scrap of picture, a large index suit beside small pips)."""
    black_chroma: float = 0.4
    red_redness: float = 0.3
    coloured_chroma: float = 0.45
    red_free: float = 0.15
    """A number named in a red suit is withdrawn where its pips' chroma (over their darkness,
    on the paper's white balance) is at most `black_chroma`; one named in a black suit where
    their redness is at least `red_redness`; a spade where their chroma is at least
    `coloured_chroma` (spades are black in four-colour decks too), a heart where their redness
    is at most `red_free` (hearts are red in them). A four-colour deck's blue diamonds deny a
    spade or a heart, not a diamond or a club; its green clubs deny a heart or a diamond."""
    index_box: tuple[float, float, float, float] = (0.0, 0.0, 0.22, 0.32)
    """The index corner of the upright view (left, top, right, bottom shares) whose ink colour
    the decision weighs (`vision.index_ink`)."""
    index_paper_percentile: float = 90.0
    index_least_piece: int = 4
    index_least_ink: float = 0.0125
    """The corner's paper is this percentile of its darkest channel; its ink is the pieces of
    at least `index_least_piece` pixels not reaching the corner's sides (the table beyond the
    card's edge and a court's figure do), at least `index_least_ink` of the corner in all."""
    index_inset: int = 2
    """Where a corner shows too little such ink, it is cut this many pixels in from the card's
    edges and its pieces may touch the cut (a frame line printed along the edges joins the
    svg-cards deck's index)."""
    least_against_face: int = 3
    faces_longer_than: float = 200.0
    """An ace, jack, queen or king named on a card longer than `faces_longer_than` pixels is
    withdrawn where `least_against_face` pips or more are counted (an eight read as an ace).
    Two are not enough: the two suit marks of some court figures count as a 2. Smaller cards
    are the networks' size (`VisionConfig.learned_max_length`), whose card network knows a low
    card from an ace or a court."""
    centre_column: float = 0.1
    """A 2's or a 3's pips lie within this share of the width from the middle."""
    mirror_reach: float = 0.07
    """Pips lie in pairs turned half a turn about the middle of their extent, a pair this share
    of the card apart at most. Every pip has its partner, but for one in the middle column of
    an odd number (a 7's, some designs' 9); else a pip was missed under glare or covered, and
    the card is not counted."""


@dataclass(frozen=True)
class LearnedCornersConfig:
    """Naming a card at a loose corner by both networks (`vision/learned_corners.py`): each is
    shown the card the corner implies (at the typical card width, as its top-left or top-right
    corner) and must name one card in its upright view, the view of that corner's index."""

    least: float = 0.7
    """Both networks' probability of the card, at least (fitted on the training halves at 140
    and 95 px)."""
    rival_reach: float = 0.3
    """A name is not given where another is given within this many card widths of its corner."""
    edge_match: float = 0.15
    """Besides the typical card width, a corner's visible edge within this share of it is tried
    as the card's width."""


@dataclass(frozen=True)
class CornerFinderConfig:
    """The loose-corner finder's tunables (`vision/corners.py`, `find_corners`): right-angled
    corners with two straight edges of card scale in the colour masks, where only a corner of a
    card shows (trick piles, fans)."""

    masks: int = 3
    """The first this many colour masks are searched for loose corners: the whiteness levels."""
    min_edge: float = 0.3
    """Both edges at a corner must be this long, as a share of the typical card width."""
    min_share: float = 0.08
    """With no card outlined, corner edges must be this share of the frame's shorter side."""
    max_skew: float = 25.0
    """How far (degrees) a corner may be from a right angle."""
    short_edge: float = 0.5
    long_edge: float = 1.5
    """A loose corner may have one edge shorter than `min_edge` (down to this share of it) when
    its other edge is at least `long_edge` times that minimum."""


@dataclass(frozen=True)
class IndexFinderConfig:
    """The index finder's tunables (`vision/finder_index.py`, `vision/index_pairs.py`): cards
    found by their index glyphs (a rank over a suit) where light area is left unexplained by
    the cards read."""

    pair_block: float = 0.06
    """Side of the neighbourhood ink is compared with, as a share of the frame's shorter side."""
    pair_contrasts: tuple[float, ...] = (14.0, 10.0)
    """How much darker than its neighbourhood's mean grey a pixel must be to count as ink: the
    glyphs are sought at each level in turn."""
    glyph_pixels: tuple[float, float] = (6.0, 0.12)
    """Least glyph size in detection pixels, and greatest as a share of the shorter side."""
    glyph_aspect: float = 5.0
    """Greatest ratio of a glyph's longer box side to its shorter one (a '1' is slender)."""
    pair_gap: tuple[float, float] = (-0.05, 0.7)
    """The gap between rank and suit, in rank heights."""
    suit_heights: tuple[float, float] = (0.45, 1.25)
    suit_widths: tuple[float, float] = (0.45, 2.2)
    """The suit glyph's height and width as shares of the rank's."""
    pair_overlap: float = 0.5
    """Rank and suit overlap across by this share of the narrower one."""
    pair_clear: float = 0.6
    """No glyph of like height within this many glyph heights beside the rank (but a ten's
    other digit) or the suit."""
    min_light: float = 0.15
    """Light area left unexplained must reach this many squared card widths (of the cards read
    whole, else of `CornerFinderConfig.min_share` of the shorter side, doubled) for glyphs to
    be sought."""
    max_pairs: int = 40
    """At most this many rank and suit pairs are read in one frame."""
    rank_offset: tuple[float, float] = (8.0, 12.0)
    """Where the rank glyph's box starts, across and down from the card's corner, in rectified
    card pixels (`VisionConfig.card_width` wide)."""
    rank_heights: tuple[float, ...] = (0.135, 0.16)
    """Rank glyph heights as shares of the card width at which an index is read (both must read
    the same card)."""
    min_confidence: float = 0.65
    """The surer reading of a card found by its index must reach this."""
    light_grow: float = 0.03
    """The light area searched is grown by a disc of this share of the shorter side (glyphs at
    a card's edge may open into the dark beyond it)."""
    paper_share: float = 0.5
    """At least this share of an index's box (grown by 0.3 of the rank's height) must be
    light in the first whiteness mask: glyphs on paper, not grain or print on a dark thing."""
    read_shares: tuple[float, float] = (0.11, 0.19)
    """Where cards were read whole, a rank glyph must be this share of their median width
    (a pip or a picture's detail is larger)."""
    same_shape: float = 0.8
    """Rank and suit glyphs overlapping this much (drawn upright in one square) are two pips of
    one shape, not an index."""
    outline_margin: float = 0.2
    """Share of an outline's area that its card's light region may spill past it."""
    rank_aspect: float = 1.05
    suit_aspect: float = 1.5
    """Greatest width over height of a rank glyph (one piece: a ten's digits are taller than
    wide too) and of a suit glyph: letters of text read sideways fail it."""


@dataclass(frozen=True)
class VisionConfig:
    """Every tunable of detection and reading; the defaults are the shipped settings."""

    copies: int = 1
    """How many copies of each card the deck holds (`table.Rules.copies`: two with the double
    deck); a frame names no card more often (`vision.deck_limit.within_deck`)."""
    detect_long_side: int = 640
    """The frame is shrunk so its long side is at most this many pixels before finding cards."""
    pad_fraction: float = 0.04
    """A dark border of this share of the long side lets a card that fills the frame be found."""
    min_card_area: float = 0.004
    max_card_area: float = 0.95
    """Card area limits as shares of the (padded) frame."""
    card_length: float | None = None
    """A card's length in the frame's pixels when the caller knows it (the table learns it from
    the cards it reads, `vision.live`). With no card read in the frame, the typical card width
    and the least edge of a loose corner or a card's side then come from it, not from the
    frame's size (a table's play-area view is several card lengths wide; a close-up photo is
    barely one). None: unknown."""
    known_card_band: float = 0.5
    """With a known card length and no card read, unread outlines from this share of the known
    width to its inverse give the typical card width (the known width when there are none)."""
    known_card_longest: float = 1.5
    """With a known card length, a whole outline longer than this many card lengths is no one
    card (a box, a tray, a picture, cards outlined together): it is not read as a card but
    left unread, for the searches within it."""
    min_solidity: float = 0.3
    min_hull_fill: float = 0.9
    """The quad must cover this share of the region's convex hull."""
    support_reach: float = 0.04
    min_edge_support: float = 0.7
    """Share of the quad's sides that must run along the region's outline (within reach x width)."""
    min_rect_fill: float = 0.75
    min_rect_support: float = 0.5
    """For a region with a cut corner, fitted by its smallest rectangle: the share of the rectangle
    the region must fill and the share of its sides it must run along."""
    min_aspect: float = 1.15
    max_aspect: float = 2.05
    """Outlines of aspect between these are cards. Up to 2.05, not 1.9: a camera whose pixels
    are not square squeezes a card to about 1:1.9, and rectifying the outline undoes it."""
    squeezed_aspect: float = 1.9
    max_side_ratio: float = 1.25
    """An outline longer than `squeezed_aspect` (a card squeezed by a camera's pixels) must be
    nearly a rectangle: opposite sides differ at most `max_side_ratio` in length. A region
    joined to a thin bridge makes a skewed quad of such an aspect. An outline fitted to a card's
    own edges, or made of the lines inside an unread outline, must be so at any aspect."""
    approx_epsilon: float = 0.04
    edge_level: int = 24
    """Local contrast (3x3 morphological gradient) at which a pixel counts as an edge."""
    nms_iou: float = 0.3
    nested_regions: bool = True
    """Regions lying inside a hole of another region are searched for cards too, ranked to fill
    gaps (`detect.NESTED_RANK`): cards on a dark mat that a light table rings all round are
    islands in the table's hole, which the outer contours alone never reach. False: off."""
    max_table_spread: float = 12.0
    """The frame border counts as plain table when its colour spread is at most this."""
    table_distance: float = 50.0
    """Largest channel difference from the table colour at which a pixel counts as card."""
    card_width: int = 200
    card_height: int = 300
    """Size of the rectified card the index is read from."""
    index_width: float = 0.22
    index_height: float = 0.34
    """Share of the rectified card searched for the corner index."""
    index_margin: float = 0.04
    """Ink this close to the card's outer edges (share of the index width) is ignored."""
    corner_finder: CornerFinderConfig = CornerFinderConfig()
    """The loose-corner finder's tunables (`corners.find_corners`, the finder "corners")."""
    min_loose_confidence: float = 0.55
    """A card read from a loose corner alone must reach this confidence."""
    conflict_margin: float = 0.25
    """Two readings of one corner that disagree: the surer is kept only if it leads by this."""
    same_card_reach: float = 2.3
    """Corner readings of one name closer than this many card widths are taken as one card."""
    min_joker_similarity: float = 0.7
    """An unread card whose coarse face matches a known joker face this well is the joker."""
    min_face_margin: float = 0.05
    """The joker's face must match better than any other known face by this much."""
    glyph_size: int = 32
    min_confidence: float = 0.5
    """Below this a card is reported present but unreadable."""
    min_similarity: float = 0.7
    similarity_span: float = 0.15
    """Cosine similarity at which a glyph guess starts to earn confidence."""
    rank_full_margin: float = 0.1
    suit_full_margin: float = 0.06
    """Similarity margins over the next label that earn full confidence."""
    red_level: float = 0.3
    black_level: float = 0.2
    """Ink redness (its chroma over its darkness) above which a suit is red, below which it is
    black; between the two the colour does not decide."""
    min_corner_confidence: float = 0.25
    """When corners disagree, those read less surely than this are set aside."""
    single_corner_factor: float = 0.85
    agreement_bonus: float = 0.2
    # edges along and across an outline (`outline_sides`)
    side_reach: float = 0.03
    """A straight edge is sought within this share of the side's length either way of a line."""
    side_cover_evidence: float = 0.7
    """An edge along this share of a line across an outline marks it as two cards (`crossed`)."""
    side_contrast: float = 8.0
    """Brightness step across a line that counts as an edge along it."""
    # the glyph reader
    max_index_zoom: int = 3
    """An index is warped up to this many times finer than the rectified card, when the frame
    holds that much detail."""
    # second looks at an index read unsurely
    second_look_shifts: tuple[float, ...] = (0.4, 0.7)
    """A corner read below `second_look_below` is split again with its ink level moved these
    shares of the way towards the paper (negative: away from it); the surest reading is kept."""
    second_look_below: float = 0.5
    """Corner confidence under which the second look is taken."""
    merged_ten_similarity: float = 0.85
    """A rank glyph in one piece is read as a ten ('1' and '0' run together) when it matches
    the tens at least this closely."""
    # loose corners
    corner_shifts: tuple[float, ...] = (-0.5,)
    """Further second-look shifts for loose corners only (a covered card's index, often run into
    the card over it): a higher ink level parts it. Whole outlines do without (a frame's few
    unread outlines would pay most)."""
    corner_repeat_reach: float = 0.1
    corner_repeat_angle: float = 15.0
    """A loose corner whose tip lies within this share of a card width of a corner already read
    and whose edges both run within this many degrees of that one's is the same corner found
    again in another mask: it is not read again (a slightly turned view of an index already read
    can misread it as a rival). A corner read unsurely is tried again in the next masks."""
    corner_width_from_edge: bool = True
    """A loose corner is read at no less than the width its longer visible edge implies (that
    edge over the card's aspect): a strip of a fanned card shows its whole long side."""
    # a whole card's outline
    shape_max_skew: float = 20.0
    """How far (degrees) a whole card's outline may be from a right angle at a corner."""
    card_aspects: tuple[float, float] = (1.3, 1.7)
    """A whole card's outline is of an aspect (long over short side) in this range."""
    width_step: float = 0.1
    """An outline this close (a share) to the read cards' width is as wide as they are."""
    # cards inside an unread outline, made of straight lines (`card_lines`)
    lines_min_length: float = 0.3
    """Straight segments shorter than this share of the smallest card side are not card sides."""
    lines_max_segments: int = 80
    """Only the longest this many segments of a frame are paired into card sides."""
    lines_max_turn: float = 15.0
    """How far (degrees) opposite sides of a card may be from parallel (perspective)."""
    lines_max_skew: float = 20.0
    """How far (degrees) the two pairs of sides may be from crossing at right angles."""
    lines_min_aspect: float = 1.25
    lines_max_aspect: float = 1.75
    """Aspect limits of a card made of outline lines (1.3-1.6 and a little perspective)."""
    lines_min_share: float = 0.75
    """The four segments must cover this share of the quad's sides together."""
    lines_min_support: float = 0.7
    """A straight edge must run along this share of each of the quad's four sides."""
    # blurred indices sharpened
    sharpen_looks: tuple[float, ...] = (0.0, 0.4, 0.7, -0.3)
    """A card that reads nothing after the second look has its blurred corners (those that showed
    glyphs) unsharp-masked and split again at these ink level shifts (as `second_look_shifts`);
    () turns this off."""
    sharpen_radius: float = 0.04
    sharpen_amount: float = 3.0
    """Unsharp mask: the view minus `sharpen_amount` times its Gaussian blur of this share of the
    view's width (about a glyph stroke's width), added to the view."""
    sharpen_min_edge_width: float = 0.075
    sharpen_min_levels: int = 2
    """A name read from a sharpened view at fewer of `sharpen_looks`' levels than this is an
    artefact of the sharpening."""
    sharpen_min_confidence: float = 0.7
    """A card read only once sharpened must reach this confidence (above `min_confidence`)."""
    """Only views whose steepest ink edges are at least this wide (share of the view's width) are
    blurred enough to be sharpened: the benchmark's artwork views measure 0.05-0.07, the blurred
    webcam indices that read after sharpening 0.08-0.14."""
    # the learned readers before the glyph reader
    learned_first: bool = True
    """The learned reader sees every whole card of its size before the glyph reader does: a card
    both its views already name at the level where they name a card alone (`threshold` of the
    manifest) gets the glyph reader's first look only, no rescue (second looks, sharpening,
    grown outlines, searches at its corners, wider index views): a rescue could then only agree
    or veto unsurely. A reading of the first look is checked as always. False: every card is
    rescued as before."""
    learned_skip_plain: bool = True
    """A nine, ten or ace the card network names surely at its first look is not read by the
    glyph reader at all: against a sure network a glyph reading of another card is vetoed,
    and the network names the card alone. Courts still get the glyph reader's look (their
    index letter stands against the network's reading of a figure). False: read them too."""
    learned_skip_courts: bool = True
    """A jack, queen or king the card network names surely at its first look, and the index
    reader names alike from both ends (its `threshold`), is not read by the glyph reader
    either: the index reader has read the index letter the glyph reader would read. Needs
    `learned_skip_plain` and `learned_index`. False: courts get the glyph reader's look."""
    learned_skip_agreed: float | None = 0.7
    """A card the card network is not sure of alone, but both networks name alike at their
    first look (`LearnedViews.agreed`) with the lower joint probability this or more, is not
    read by the glyph reader either: the networks name it (`learned_index.named_with_index`),
    at that probability; the decision then weighs it as any name (the table's threshold is the
    decision's, `vision/data/decision.json`). Needs `learned_skip_plain`. None: such cards get
    the glyph reader's look."""
    blurred_outline_growth: float = 1.0
    """`read.read_outline`: an unread card whose two index views are blurred (edge width from
    `sharpen_min_edge_width`), one showing glyphs it read unsurely, is read again from its
    outline moved outward by this many times the measured edge width (in frame pixels); 0
    turns this off."""

    index_finder: IndexFinderConfig = IndexFinderConfig()
    """The index finder's tunables (`finder_index.py`, the finder "index")."""

    finders: tuple[str, ...] = ("outlines", "sides", "cloth", "corners", "index")
    """The finders that run, by name (`vision.propose`): those that propose outlines
    (`FINDERS`) and those that read cards seen in part (`PART_FINDERS`)."""
    side_finder: SideFinderConfig = SideFinderConfig()
    """The side finder's tunables."""
    felt_finder: FeltFinderConfig = FeltFinderConfig()
    """The cloth finder's tunables."""
    learned_finder: LearnedFinderConfig | None = LearnedFinderConfig()
    """The learned finder (`vision/finder_net.py`) marks card faces in the shrunk frame; its mask
    is searched for outlines like the colour masks; None: off."""
    outline_fit: OutlineFitConfig | None = OutlineFitConfig()
    """A whole outline left unread is fitted to the card's own edges and read again there
    (`outline_fit.py`); None: off."""
    pip_count: PipCountConfig | None = PipCountConfig()
    """A whole card named a number (2 to 10) whose pips, counted, are another number or of the
    other colour, one named an ace whose lone pip is of the other colour, or a close-up named an
    ace or a court where three pips or more are counted, is left unread (`pips.py`); None:
    off."""
    learned_corners: LearnedCornersConfig | None = LearnedCornersConfig()
    """A card is named at a loose corner off the cards read where both networks name it alike
    (never a nine: the pips of a ten seen sideways are a nine to both) (`learned_corners.py`).
    None: off."""

    # the learned readers (vision/learned.py, vision/data/reader.onnx)
    learned_reader: bool = True
    """Check every whole card with the learned reader: a glyph reading stands only where both
    of the network's views back it, and a card the glyphs left unread is named where both views
    agree surely, and a card read at a loose corner only from a calibrated confidence on
    (thresholds from the model's manifest, calibrated on held-out photos)."""
    index_vouch: float | None = 0.8
    """A whole card the glyph reader names, and the card network backs below this (the name's
    confidence is that backing), takes the lower of the glyph reading's confidence and the index
    network's where both are this or more and the index network names that very card in both
    views (`learned_index.vouched_by_index`): the two readers of the index corner agree surely,
    and the network that doubts the face (an ornate ace of spades) still backs it. The name
    itself stands or falls as before. None: off."""
    learned_max_length: float = 200.0
    """The learned reader checks cards up to this long side in pixels: it is trained on cards
    of the table camera's size (90-140 px long) and would veto right readings of close-ups."""
    learned_index: bool = True
    """A whole card of the learned reader's size it does not name alone is named where the
    index reader (`vision/learned_index.py`, a second network over its index corners at more
    detail) names it alike in both views, at that reader's calibrated `threshold`; and a loose
    corner read too weakly to be named alone (`loose_backed` to `loose` of the learned reader's
    manifest) keeps its name where the index reader, shown that corner, gives its card the
    index reader's `loose_support` or more."""
    index_one_end: float | None = 0.6
    """A whole card's glyph reading that the learned reader vetoes stands where the index reader
    gives that card this or more at one end, on an outline of a card's shape
    (`learned_index.kept_by_one_end`): the card network, shown a card whose other end lies under
    another card, sees mostly that card. None: off."""
    learned_large_length: float = 140.0
    """A whole card longer than `learned_max_length` that the glyph reader leaves unread is
    shown to the learned reader shrunk to this long side (area averaging), and named where both
    its views agree at the manifest's `threshold` (never against a glyph reading); 0: off."""


@lru_cache(maxsize=64)
def config_with(config: VisionConfig, changes: tuple[tuple[str, Any], ...]) -> VisionConfig:
    """`replace(config, **dict(changes))`, kept: each frame derives the same few settings from
    its config, and a replace of the whole config costs about 50 us."""
    return replace(config, **dict(changes))
