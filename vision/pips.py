"""A number card's pips counted on its upright view: a cue independent of the index glyphs."""

from __future__ import annotations

from dataclasses import dataclass, replace
from statistics import median

import cv2
import numpy as np

from vision.cards import CardObservation, Image, Quad
from vision.config import PipCountConfig
from vision.deblur_outline import long_side
from vision.learned import oriented

PIP_RANKS = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10}
"""The ranks shown by their pips, and how many."""
FACE_RANKS = frozenset({"A", "J", "Q", "K"})
RED_SUITS = frozenset({"D", "H"})
BLACK_SUITS = frozenset({"C", "S"})
"""The ranks shown by one large pip or a figure, never by a layout of pips."""
CENTRE_COLUMN_MOST = 3
"""Up to this many pips, all lie in the card's middle column."""
PAPER_LEVEL = 200.0
"""The level the paper is balanced to before the ink's colour is measured."""
MIN_INK_DARKNESS = 20.0
"""Ink fainter than this below the paper counts as this dark."""


@dataclass(frozen=True)
class Piece:
    """One connected piece of ink in the upright view."""

    label: int
    """Its label in the view's component image."""
    area: int
    width: int
    height: int
    x: float
    y: float
    """Its centre, as shares of the view's width and height."""


def ink_pieces(view: Image, config: PipCountConfig) -> tuple[list[Piece], int, Image]:
    """The ink pieces of an upright card view not touching its edge, how much ink of the
    pieces that do touch it lies inside the border band (`edge_band`: a frame line printed
    along the card's edge stays in the band, a card lying over this one reaches in), and the
    view's component labels (0: paper)."""
    blue, green, red = cv2.split(view)
    darkest = cv2.min(cv2.min(blue, green), red)
    size = max(3, int(config.paper_kernel * view.shape[1]) | 1)
    paper = cv2.blur(cv2.dilate(darkest, np.ones((size, size), np.uint8)), (size, size))
    ink = (darkest < config.ink_ratio * np.maximum(paper, 1).astype(np.float32)).astype(np.uint8)
    _, labels, stats, centres = cv2.connectedComponentsWithStats(ink, connectivity=4)
    height, width = ink.shape
    x, y, w, h, area = (stats[:, k] for k in range(5))
    touching = (x <= 0) | (y <= 0) | (x + w >= width) | (y + h >= height)
    touching[0] = False  # the paper
    kept = np.flatnonzero(~touching & (area >= config.min_area * width * height))
    pieces = [Piece(int(k), int(area[k]), int(w[k]), int(h[k]), float(centres[k, 0]) / width,
                    float(centres[k, 1]) / height) for k in kept if k > 0]
    band = max(1, round(config.edge_band * width))
    inner = labels[band:height - band, band:width - band]
    reaching_in = int(touching[inner].sum()) if touching.any() else 0
    return pieces, reaching_in, labels


@dataclass(frozen=True)
class Pips:
    """The pips a card shows: how many, and the colour of their ink."""

    count: int
    redness: float
    """Red over the ink's darkness, on the paper's white balance (`glyphs.ink_colour`)."""
    chroma: float
    """Colour of any hue over the ink's darkness (black ink has little)."""


def count_pips(frame: Image, quad: Quad, config: PipCountConfig) -> int | None:
    """How many pips the card outlined by `quad` shows, or None where it cannot be told: no
    count unless every sign of a standard pip card holds (`PipCountConfig`)."""
    pips = read_pips(frame, quad, config)
    return pips.count if pips is not None else None


def read_pips(frame: Image, quad: Quad, config: PipCountConfig) -> Pips | None:
    """The pips of the card outlined by `quad` (`count_pips`), with their ink's colour."""
    view = upright_view(frame, quad, config.width, config.height)
    pieces, reaching_in, labels = ink_pieces(view, config)
    counted = _pip_pieces(pieces, reaching_in, config)
    if counted is None or _pip_joined_to_edge(labels, pieces, counted, config):
        return None
    lookup = np.zeros(int(labels.max()) + 1, np.uint8)
    lookup[[p.label for p in counted]] = 255
    paper = (labels == 0).astype(np.uint8)
    redness, chroma = ink_colour(view, lookup[labels], paper)
    return Pips(len(counted), redness, chroma)


def _pip_joined_to_edge(labels: Image, pieces: list[Piece], counted: list[Piece],
                        config: PipCountConfig) -> bool:
    """Whether ink joined to the card's edge holds as much ink inside the pips' box as a stray
    piece (`stray_floor` times a pip): a pip printed against the index, joined to it, is not
    counted, and the count would be short."""
    left, top, right, bottom = config.body
    height, width = labels.shape
    box = labels[int(top * height):int(bottom * height), int(left * width):int(right * width)]
    inner = {p.label for p in pieces}
    found = np.bincount(box.ravel(), minlength=int(labels.max()) + 1)
    found[0] = 0
    found[list(inner)] = 0
    return bool(found.max(initial=0) >= config.stray_floor * min(p.area for p in counted))


def ink_colour(view: Image, ink: Image, paper: Image) -> tuple[float, float]:
    """The ink's redness and chroma, each over its darkness, after white balance on the paper
    (masks: non-zero where ink, where paper): the mean R - max(G, B), and the mean of the
    largest channel less the smallest. A pale pink and a full red alike are red; black and
    grey ink have little chroma, blue or green much and no redness."""
    redness, chroma, _ = ink_hues(view, ink, paper)
    return redness, chroma


def ink_hues(view: Image, ink: Image, paper: Image) -> tuple[float, float, float]:
    """The ink's redness and chroma (`ink_colour`) and its greenness, the mean G - max(R, B)
    over its darkness: black ink under any light has none once the paper is balanced."""
    levels = cv2.mean(view, mask=paper)[:3]
    gains = np.asarray([PAPER_LEVEL / max(level, 1.0) for level in levels], np.float32)
    blue, green, red = cv2.split(view.astype(np.float32) * gains)
    darkest = cv2.min(cv2.min(blue, green), red)
    lightest = cv2.max(cv2.max(blue, green), red)
    darkness = max(PAPER_LEVEL - cv2.mean(darkest, mask=ink)[0], MIN_INK_DARKNESS)
    redness = cv2.mean(cv2.subtract(red, cv2.max(blue, green)), mask=ink)[0]
    chroma = cv2.mean(cv2.subtract(lightest, darkest), mask=ink)[0]
    greenness = cv2.mean(cv2.subtract(green, cv2.max(blue, red)), mask=ink)[0]
    return float(redness / darkness), float(chroma / darkness), float(greenness / darkness)


def _pip_pieces(pieces: list[Piece], reaching_in: int,
                config: PipCountConfig) -> list[Piece] | None:
    """The pieces that are a standard card's pips, or None where the view is not one's."""
    if reaching_in > config.edge_share * config.width * config.height:
        return None
    left, top, right, bottom = config.body
    inside: list[Piece] = []
    beside: list[Piece] = []
    for piece in pieces:
        (inside if left < piece.x < right and top < piece.y < bottom else beside).append(piece)
    if not inside:
        return None
    largest = max(p.area for p in inside)
    typical = median(p.area for p in inside if p.area >= config.typical_share * largest)
    if largest > config.largest * typical:
        return None
    floor = config.pip_floor * typical
    low, high = config.side_band
    if any(p.area >= floor and low < p.y < high for p in beside):
        return None
    pips = [p for p in inside if p.area >= floor]
    if typical > config.most_pip_share * config.width * config.height:
        return None
    if any(config.stray_floor * typical <= p.area < floor for p in inside):
        return None
    if not PIP_RANKS["2"] <= len(pips) <= PIP_RANKS["T"] or not _one_shape(pips, config):
        return None
    return pips if _upright(pips, config) and _mirrored(pips, config) else None


def upright_view(frame: Image, quad: Quad, width: int, height: int) -> Image:
    """The card warped upright to width x height (one end of `learned.rectify`)."""
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    matrix = cv2.getPerspectiveTransform(oriented(quad, (frame.shape[1], frame.shape[0])), target)
    view: Image = cv2.warpPerspective(frame, matrix, (width, height), flags=cv2.INTER_AREA,
                                      borderMode=cv2.BORDER_REPLICATE)
    return view


def _upright(pips: list[Piece], config: PipCountConfig) -> bool:
    """Whether the pips lie as on a card seen upright: two or three in the middle column, more
    spread further down the card than across it (a card seen sideways, its long side taken for
    its short one under a steep slant, shows them across)."""
    xs = [p.x for p in pips]
    ys = [p.y for p in pips]
    if len(pips) <= CENTRE_COLUMN_MOST:
        return all(abs(x - 0.5) <= config.centre_column for x in xs)
    return max(ys) - min(ys) > max(xs) - min(xs)


def _one_shape(pips: list[Piece], config: PipCountConfig) -> bool:
    """Whether the pieces share one shape and size, about as wide as tall: area, width over
    height and fill of their box alike."""
    aspects = [p.width / p.height for p in pips]
    fills = [p.area / (p.width * p.height) for p in pips]
    areas = [p.area for p in pips]
    aspect, fill = median(aspects), median(fills)
    low, high = config.pip_aspect
    return (low <= aspect <= high and max(areas) <= config.size_spread * min(areas)
            and all(max(a / aspect, aspect / a) <= config.aspect_spread for a in aspects)
            and all(abs(f - fill) <= config.fill_spread for f in fills))


def _mirrored(pips: list[Piece], config: PipCountConfig) -> bool:
    """Whether every pip has a partner half a turn about the layout's centre (the middle of
    the pips' extent, which an outline a little off does not move), but for one pip in the
    middle column of an odd number (a 7's, and some designs' 9)."""
    xs = [p.x for p in pips]
    ys = [p.y for p in pips]
    centre_x, centre_y = min(xs) + max(xs), min(ys) + max(ys)
    alone = [x for x, y in zip(xs, ys, strict=True)
             if all(max(abs(centre_x - u - x), abs(centre_y - v - y)) > config.mirror_reach
                    for u, v in zip(xs, ys, strict=True))]
    if len(pips) % 2 == 0:
        return not alone
    return not alone or (len(alone) == 1 and abs(alone[0] - 0.5) <= config.centre_column)


PipReads = dict[tuple[bool, bytes, PipCountConfig], Pips | None]
"""A frame's pip readings (`read_once`): by whether an ace's, the outline's bytes, the
settings."""


def read_once(frame: Image, quad: Quad, config: PipCountConfig, ace: bool,
              reads: PipReads | None) -> Pips | None:
    """`read_ace` (with `ace`) or `read_pips` of an outline, read once a frame where the
    frame's `reads` are given."""
    read = read_ace if ace else read_pips
    if reads is None:
        return read(frame, quad, config)
    key = (ace, np.ascontiguousarray(quad, np.float32).tobytes(), config)
    if key not in reads:
        reads[key] = read(frame, quad, config)
    return reads[key]


def pips_deny(frame: Image, observation: CardObservation, config: PipCountConfig,
              reads: PipReads | None = None) -> bool:
    """Whether a whole card's name is denied by its pips: a number named shows, counted,
    another number or pips of the other colour (`_other_colour`); an ace named shows a lone
    middle pip of the other colour (`read_ace`); an ace or a court named on a close-up
    (`faces_longer_than`) shows `least_against_face` pips or more."""
    reading = observation.reading
    if reading is None or not observation.whole:
        return False
    rank = reading.rank.value
    suit = reading.suit.value if reading.suit else None
    if rank == "A" and suit is not None:
        ace = read_once(frame, observation.corners, config, True, reads)
        if ace is not None and _other_colour(ace, suit, config):
            return True
    if rank in FACE_RANKS:
        if long_side(observation.corners) <= config.faces_longer_than:
            return False
    elif rank not in PIP_RANKS:
        return False
    pips = read_once(frame, observation.corners, config, False, reads)
    if pips is None:
        return False
    if rank in FACE_RANKS:
        return pips.count >= config.least_against_face
    return pips.count != PIP_RANKS[rank] or _other_colour(pips, suit, config)


def read_ace(frame: Image, quad: Quad, config: PipCountConfig) -> Pips | None:
    """An ace's one pip, with its ink's colour: the largest piece of the card's body, in its
    middle (`centre_column` either way) and at least twice as large as any other piece there;
    None where the card shows no such pip."""
    view = upright_view(frame, quad, config.width, config.height)
    pieces, reaching_in, labels = ink_pieces(view, config)
    if reaching_in > config.edge_share * config.width * config.height:
        return None
    left, top, right, bottom = config.body
    inside = [p for p in pieces if left < p.x < right and top < p.y < bottom]
    if not inside:
        return None
    pip = max(inside, key=lambda p: p.area)
    if (abs(pip.x - 0.5) > config.centre_column or abs(pip.y - 0.5) > config.centre_column
            or any(p is not pip and 2 * p.area > pip.area for p in inside)):
        return None
    ink = (labels == pip.label).astype(np.uint8)
    paper = (labels == 0).astype(np.uint8)
    redness, chroma = ink_colour(view, ink, paper)
    return Pips(1, redness, chroma)


def _other_colour(pips: Pips, suit: str | None, config: PipCountConfig) -> bool:
    """Whether the pips' ink is clearly not a suit's. Spades are black and hearts red in every
    deck, four-colour ones too; diamonds may be blue and clubs green there. So black ink (little
    chroma) denies a heart or a diamond, red ink a club or a spade, ink of any colour
    (`coloured_chroma`) a spade, and ink without red (`red_free`) a heart."""
    if suit in RED_SUITS:
        return pips.chroma <= config.black_chroma or (
            suit == "H" and pips.redness <= config.red_free)
    if suit in BLACK_SUITS:
        return pips.redness >= config.red_redness or (
            suit == "S" and pips.chroma >= config.coloured_chroma)
    return False


def checked_by_pips(frame: Image, observations: list[CardObservation],
                    config: PipCountConfig, reads: PipReads | None = None
                    ) -> list[CardObservation]:
    """The observations with every name the pips deny withdrawn (present, unreadable)."""
    return [replace(o, reading=None, confidence=0.0) if pips_deny(frame, o, config, reads)
            else o for o in observations]

