"""Read rank and suit from a found card's corner indices, abstaining when unsure."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from vision.cards import Image, Quad, Rank, Reading, Suit
from vision.config import VisionConfig
from vision.deblur import edge_width, sharpened
from vision.deblur_outline import grown_outline, short_side
from vision.features import glyphs_features
from vision.glyphs import IndexGlyphs, IndexInk, index_views, split_index
from vision.guess import Guess
from vision.model import GlyphModel

RANK_LABELS = frozenset(rank.value for rank in Rank)
TEN = frozenset("T")
PIECE_TEXT = {"1": "1"}
"""The '1' of a ten on its own: a label of the glyph model's rank set that is no rank, so a ten
whose '0' ran into a neighbouring pip is not read as the rank its '1' looks most like. (A lone
'0' is left out: it takes the margin of a round queen.)"""
NOT_A_RANK = frozenset(PIECE_TEXT)
"""Labels of the rank set that are no rank (a ten's lone '1'): they veto a reading when nearest,
and take no margin from the rank that is read."""
SUIT_LABELS = frozenset(suit.value for suit in Suit)
RED_SUITS = frozenset("HD")
BLACK_SUITS = frozenset("CS")
BLOB = "O"
"""The label of plain round blobs in the glyph model's suit set: a lobe of a large pip seen
under a rank is no suit."""
NOT_A_SUIT = frozenset(BLOB)
"""Labels of the suit set that are no suit (a round lobe of a large pip): they veto a reading
when nearest, and take no margin from the suit that is read."""


@dataclass(frozen=True)
class CornerReading:
    """The reading of one corner index before the corners are combined."""

    rank: Guess
    suit: Guess
    confidence: float


def _guess_confidence(guess: Guess, full_margin: float, config: VisionConfig) -> float:
    """Map a guess's similarity and margin to a confidence in [0, 1]."""
    above = (guess.similarity - config.min_similarity) / config.similarity_span
    from_similarity = min(1.0, max(0.0, above))
    from_margin = min(1.0, max(0.0, guess.margin / full_margin))
    return from_similarity * from_margin


def suits_for_colour(redness: float, config: VisionConfig) -> frozenset[str] | None:
    """The suits the ink colour allows; None when the colour does not decide."""
    if redness >= config.red_level:
        return RED_SUITS
    if redness <= config.black_level:
        return BLACK_SUITS
    return None


def _merged_ten(rank: Guess, glyphs: IndexGlyphs, config: VisionConfig) -> bool:
    """A one-piece glyph that matches the tens closely: a '1' and '0' run together."""
    return rank.label == "T" and glyphs.rank_parts == 1 and (
        rank.similarity >= config.merged_ten_similarity)


def read_corner(
    glyphs: IndexGlyphs, model: GlyphModel, config: VisionConfig, better_than: float = -1.0
) -> CornerReading | None:
    """Classify the rank and suit glyphs of one corner; None also when its confidence could not
    exceed `better_than` (the suit is then not classified)."""
    # A '1' beside a closed '0' is a ten by its shape; no other rank comes in two such pieces,
    # so the glyph model only has to confirm that it looks like one.
    rank_vector, suit_vector = glyphs_features([glyphs.rank, glyphs.suit])
    rank = model.ranks.classify_vector(rank_vector, TEN if glyphs.ten_shaped else None,
                                       NOT_A_RANK)
    if rank is None or rank.label not in RANK_LABELS:
        return None
    if (rank.label == "T") != glyphs.ten_shaped and not _merged_ten(rank, glyphs, config):
        return None
    if rank.label != "T" and glyphs.rank_parts != 1:
        return None
    rank_confidence = _guess_confidence(rank, config.rank_full_margin, config)
    if rank_confidence <= better_than:
        return None
    allowed = suits_for_colour(glyphs.redness, config)
    suit = model.suits.classify_vector(suit_vector, allowed, NOT_A_SUIT)
    if suit is None or suit.label not in SUIT_LABELS:
        return None
    confidence = min(rank_confidence, _guess_confidence(suit, config.suit_full_margin, config))
    if confidence <= better_than:
        return None
    return CornerReading(rank=rank, suit=suit, confidence=confidence)


def _second_look(ink: IndexInk, corner: CornerReading | None, shifts: tuple[float, ...],
                 model: GlyphModel, config: VisionConfig) -> CornerReading | None:
    """Split a corner (its view's `IndexInk`) again at other ink levels (pale glyphs broken at
    the view's level, or glyphs run into the frame beside them); the surest reading is kept."""
    lower_found = True
    for shift in shifts:
        if shift > 0 and not lower_found:
            continue
        glyphs = split_index(ink.view, config, shift, ink)
        # A level that finds no index glyphs will not find them nearer still to the paper.
        lower_found = glyphs is not None or shift < 0
        surest = corner.confidence if corner is not None else 0.0
        again = read_corner(glyphs, model, config, surest) if glyphs is not None else None
        if again is not None:
            corner = again
            if corner.confidence >= config.second_look_below:
                break
    return corner


Transform = Callable[[Image, VisionConfig], Image | None]
"""A view made easier to read (sharpened), or None when there is nothing to do."""
Named = dict[tuple[str, str], list[CornerReading]]
"""Corner readings of one view grouped by the card they name."""


def _readings_by_name(view: Image, model: GlyphModel, config: VisionConfig,
                      looks: tuple[float, ...], min_levels: int = 1) -> Named:
    """A (sharpened) corner view read at each of `looks`' ink levels; the levels
    left once no name can be read at `min_levels` of them are not read."""
    found: Named = {}
    ink = IndexInk(view)
    for done, shift in enumerate(looks):
        most = max((len(r) for r in found.values()), default=0)
        if most + len(looks) - done < min_levels:
            break
        glyphs = split_index(view, config, shift, ink)
        reading = read_corner(glyphs, model, config) if glyphs is not None else None
        if reading is not None:
            found.setdefault((reading.rank.label, reading.suit.label), []).append(reading)
    return found


def _steady(named: Named, min_levels: int) -> Named:
    """The names read at `min_levels` ink levels or more; any other is an artefact of the
    transform."""
    return {name: r for name, r in named.items() if len(r) >= min_levels}


def _surest(named: Named, corner: CornerReading | None) -> CornerReading | None:
    """The surest reading kept, unless the corner's own reading was surer."""
    best = max((max(r, key=lambda c: c.confidence) for r in named.values()),
               key=lambda c: c.confidence, default=None)
    if best is None or (corner is not None and corner.confidence >= best.confidence):
        return corner
    return best


def read_views(
    views: list[Image], model: GlyphModel, config: VisionConfig,
    more_shifts: tuple[float, ...] = (),
) -> tuple[Reading | None, float]:
    """Combine the corner readings of one card (`_read_views`); returns the reading (or None)
    and a confidence."""
    reading, confidence, _ = _read_views(views, model, config, more_shifts)
    return reading, confidence


Widths = list[float | None]
"""Each view's edge width (`deblur.edge_width`) where it was measured."""


def _read_views(
    views: list[Image], model: GlyphModel, config: VisionConfig,
    more_shifts: tuple[float, ...] = (),
) -> tuple[Reading | None, float, Widths]:
    """Combine the corner readings of one card; returns the reading (or None), a confidence and
    the edge widths measured.

    When that reads nothing, corners that showed glyphs but were read unsurely (or not at all)
    get a second look at other ink levels: `second_look_shifts`, then `more_shifts`; blurred
    ones then a sharpened look, a card so read kept from `sharpen_min_confidence`."""
    looks: list[tuple[bool, CornerReading | None]] = []
    inks = [IndexInk(view) for view in views]
    for view, ink in zip(views, inks, strict=True):
        glyphs = split_index(view, config, 0.0, ink)
        looks.append((glyphs is not None,
                      read_corner(glyphs, model, config) if glyphs is not None else None))
    reading, confidence = _combined([c for _, c in looks if c is not None], config)
    widths: Widths = [None] * len(views)
    shifts = config.second_look_shifts + more_shifts
    if reading is not None or not shifts:
        return reading, confidence, widths
    again = [
        _second_look(ink, corner, shifts, model, config)
        if found and (corner is None or corner.confidence < config.second_look_below) else corner
        for ink, (found, corner) in zip(inks, looks, strict=True)
    ]
    reading, confidence = _combined([c for c in again if c is not None], config)
    # Sharpening is a further part of the second look: off with it.
    if reading is not None or not config.second_look_shifts:
        return reading, confidence, widths
    widths = [
        edge_width(view)
        if found and (corner is None or corner.confidence < config.second_look_below)
        else None
        for view, (found, _), corner in zip(views, looks, again, strict=True)
    ]
    blurred = [w is not None and w >= config.sharpen_min_edge_width for w in widths]
    stages: tuple[tuple[tuple[float, ...], Transform, int, float], ...] = (
        (config.sharpen_looks, sharpened, config.sharpen_min_levels,
         config.sharpen_min_confidence),
    )
    for stage_looks, transform, min_levels, min_confidence in stages:
        if not stage_looks or not any(blurred):
            continue
        seen = []
        for view, corner, is_blurred in zip(views, again, blurred, strict=True):
            changed = transform(view, config) if is_blurred else None
            named = (_readings_by_name(changed, model, config, stage_looks, min_levels)
                     if changed is not None else {})
            seen.append(_surest(_steady(named, min_levels), corner))
        reading, confidence = _combined([c for c in seen if c is not None], config)
        if reading is not None and confidence >= min_confidence:
            return reading, confidence, widths
    return None, confidence, widths


def _combined(corners: list[CornerReading], config: VisionConfig) -> tuple[Reading | None, float]:
    """The card's reading from its corner readings: they must agree (unsure dissenters aside)."""
    names = {(c.rank.label, c.suit.label) for c in corners}
    if len(names) > 1:
        corners = [c for c in corners if c.confidence >= config.min_corner_confidence
                   or _disputes_surely(c, corners, config)]
        names = {(c.rank.label, c.suit.label) for c in corners}
    if not corners or len(names) > 1:
        return None, 0.0
    confidence = max(c.confidence for c in corners)
    if len(corners) == 1:
        confidence *= config.single_corner_factor
    else:
        confidence = min(1.0, confidence + config.agreement_bonus)
    if confidence < config.min_confidence:
        return None, confidence
    rank_label, suit_label = names.pop()
    return Reading(Rank(rank_label), Suit(suit_label), round(confidence, 3)), confidence


def read_outline(
    frame: Image, corners: Quad, model: GlyphModel, config: VisionConfig
) -> tuple[Reading | None, float]:
    """Read an outlined card (`read_views` on its index corners). A card left unread whose two
    index views are both blurred, one showing glyphs it read unsurely, is read again from its
    outline moved outward by `blurred_outline_growth` times the blur's edge width: a blurred
    card's edge fades into the table, so its outline is found inside the card and the index is
    cut by the view's edge (small cards' views, warped finer than the frame, look blurred
    too)."""
    views = index_views(frame, corners, config)
    reading, confidence, measured = _read_views(views, model, config)
    # Only a view that showed glyphs was measured: an outline with no index in sight (a pip,
    # a scrap) is not grown.
    if (reading is not None or not config.blurred_outline_growth
            or all(width is None for width in measured)):
        return reading, confidence
    widths: list[float] = []
    for view, width in zip(views, measured, strict=True):
        widths.append(edge_width(view) if width is None else width)
        if widths[-1] < config.sharpen_min_edge_width:
            return reading, confidence
    # Edge widths are shares of the view's width, which spans `index_width` of the card.
    card_width = short_side(corners)
    blur = sum(widths) / len(widths) * config.index_width * card_width
    grown = grown_outline(corners, config.blurred_outline_growth * blur)
    again, again_confidence = read_views(index_views(frame, grown, config), model, config)
    if again is None:
        return reading, confidence
    return again, again_confidence


def _disputes_surely(corner: CornerReading, corners: list[CornerReading],
                     config: VisionConfig) -> bool:
    """Whether an unsure corner is sure of what it disputes: a suit read surely that differs
    from a sure corner's (its rank unsure), or a rank so read. Such a dissent is not set aside."""
    sure = [c for c in corners if c.confidence >= config.min_corner_confidence]
    suit_sure = _guess_confidence(corner.suit, config.suit_full_margin, config) >= \
        config.min_corner_confidence
    rank_sure = _guess_confidence(corner.rank, config.rank_full_margin, config) >= \
        config.min_corner_confidence
    return any((suit_sure and c.suit.label != corner.suit.label)
               or (rank_sure and c.rank.label != corner.rank.label) for c in sure)
