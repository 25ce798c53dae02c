"""Learn a deck from the camera: the cards are shown one at a time, each held still until taken."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

import numpy as np

from vision.api import (
    JOKER,
    CardNameError,
    FaceVector,
    FaceViews,
    GlyphModel,
    Image,
    Quad,
    Rank,
    Suit,
    VisionConfig,
    face_sample,
    find_cards,
    index_sample,
    parse_card,
    profile_of,
)

DECK_ORDER = (*(rank + suit for suit in "CDHS" for rank in "9TJQKA"), JOKER)
"""The order cards are asked for: clubs, diamonds, hearts, spades, 9 up to ace, then the joker."""

SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}


def card_label(name: str) -> str:
    """A card as people write it: `10♥`, `J♣`, `joker`."""
    if name == JOKER:
        return "joker"
    rank, suit = parse_card(name)
    return ("10" if rank is Rank.TEN else rank.value) + SYMBOLS[suit]


def enrolment_cards(text: str | None) -> list[str]:
    """The cards to learn, from a comma list such as `9C,TD,JK`; all 25 when None."""
    if text is None:
        return list(DECK_ORDER)
    cards = []
    for item in (part.strip().upper() for part in text.split(",") if part.strip()):
        if item in ("JK", "JOKER"):
            cards.append(JOKER)
            continue
        rank, suit = parse_card(item)
        cards.append(rank.value + suit.value)
    if not cards:
        raise CardNameError(f"no cards named in {text!r}")
    return cards


class Step(Enum):
    """What the person at the camera is told."""

    SHOW = "show"
    TAKEN = "taken"
    ONE_AT_A_TIME = "one at a time"
    UNREADABLE = "unreadable"
    WRONG_CARD = "wrong card"
    DONE = "done"


@dataclass(frozen=True)
class Prompt:
    """One message for the person enrolling, about the card asked for."""

    step: Step
    card: str | None
    message: str


@dataclass
class CameraEnrolment:
    """Frames in, prompts out: each card is taken once it has lain still and its index is read."""

    cards: list[str]
    base: GlyphModel
    config: VisionConfig = field(default_factory=VisionConfig)
    steady_frames: int = 4
    """Frames the single card must lie still before it is taken."""
    clear_frames: int = 3
    """Frames with no card before the next card is asked for."""
    wrong_confidence: float = 0.5
    """A card read this surely as another card than the one asked for (as surely as recognition
    needs to name a card) is refused the first time it is shown."""

    position: int = 0
    learnt: list[str] = field(default_factory=list)
    _rank_glyphs: list[Image] = field(default_factory=list)
    _rank_labels: list[str] = field(default_factory=list)
    _suit_glyphs: list[Image] = field(default_factory=list)
    _suit_labels: list[str] = field(default_factory=list)
    _faces: list[tuple[str, FaceVector]] = field(default_factory=list)
    _deck: list[tuple[str, FaceViews]] = field(default_factory=list)
    _waiting_for_clear: bool = True
    _clear: int = 0
    _steady: int = 0
    _last: Quad | None = None
    _told: set[Step] = field(default_factory=set)
    _refused: str | None = None

    @property
    def done(self) -> bool:
        """True once every card asked for has been taken."""
        return self.position >= len(self.cards)

    @property
    def missing(self) -> list[str]:
        """The cards not taken yet."""
        return self.cards[self.position:]

    @property
    def expected(self) -> str:
        """The card asked for now."""
        return self.cards[self.position]

    def feed(self, frame: Image) -> list[Prompt]:
        """Look at one camera frame; returns what to tell the person, if anything."""
        if self.done:
            return []
        quads = find_cards(frame, self.config)
        if self._waiting_for_clear:
            self._clear = 0 if quads else self._clear + 1
            if self._clear < self.clear_frames:
                return []
            self._waiting_for_clear = False
            self._told.clear()
            return [self._ask()]
        if len(quads) != 1:
            self._steady, self._last = 0, None
            if not quads:
                return []
            return self._tell_once(Step.ONE_AT_A_TIME, "one card at a time, please")
        quad = quads[0]
        self._steady = self._steady + 1 if self._still(quad, frame) else 1
        self._last = quad
        if self._steady < self.steady_frames:
            return []
        return self._take(frame, quad)

    def profile(self) -> GlyphModel:
        """The deck profile learnt so far; ProfileError when no index was learnt."""
        return profile_of(self._rank_glyphs, self._rank_labels, self._suit_glyphs,
                          self._suit_labels, self._faces, self._deck)

    def _ask(self) -> Prompt:
        """Ask for the next card, or say that all are taken."""
        if self.done:
            return Prompt(Step.DONE, None, f"all {len(self.cards)} cards learnt")
        name = self.expected
        return Prompt(Step.SHOW, name, f"show the {card_label(name)} "
                                       f"({self.position + 1} of {len(self.cards)})")

    def _still(self, quad: Quad, frame: Image) -> bool:
        """True when the card lies where it lay in the last frame."""
        if self._last is None:
            return False
        reach = 0.01 * float(np.hypot(frame.shape[0], frame.shape[1]))
        return bool(np.max(np.linalg.norm(quad - self._last, axis=1)) <= reach)

    def _tell_once(self, step: Step, message: str) -> list[Prompt]:
        """A prompt said once per card asked for."""
        if step in self._told:
            return []
        self._told.add(step)
        return [Prompt(step, self.expected, message)]

    def _take(self, frame: Image, quad: Quad) -> list[Prompt]:
        """Learn the still card if it can be read and is the one asked for."""
        name = self.expected
        sample = index_sample(frame, quad, self.base, self.config)
        seen, confidence = sample.reading, sample.confidence
        insisted = ""
        if seen is not None and seen.name != name and confidence >= self.wrong_confidence:
            if self._refused != seen.name:
                # Refused once; shown again after being taken away, it is taken as asked.
                self._refused = seen.name
                self._waiting_for_clear, self._clear, self._steady = True, 0, 0
                return [Prompt(Step.WRONG_CARD, name,
                               f"that looks like the {card_label(seen.name)}; take it away and "
                               f"show the {card_label(name)} (show it again to insist)")]
            insisted = f" (it looks like the {card_label(seen.name)} to the shipped model)"
        if name != JOKER:
            glyphs = sample.glyphs(self.config)
            if not glyphs:
                self._steady = 0
                return self._tell_once(
                    Step.UNREADABLE,
                    f"the {card_label(name)}'s corner cannot be read: lay it flat, in good light",
                )
            for rank_glyph, suit_glyph in glyphs:
                self._rank_glyphs.append(rank_glyph)
                self._rank_labels.append(name[0])
                self._suit_glyphs.append(suit_glyph)
                self._suit_labels.append(name[1])
        face, views = face_sample(frame, quad)
        self._faces.append((name, face))
        self._deck.append((name, views))
        self.learnt.append(name)
        self.position += 1
        self._waiting_for_clear, self._clear, self._steady, self._last = True, 0, 0, None
        self._refused = None
        taken = Prompt(Step.TAKEN, name, f"{card_label(name)} learnt{insisted}; take it away")
        return [taken, self._ask()] if self.done else [taken]
