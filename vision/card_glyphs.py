"""The index glyphs of a card photographed alone (a deck's enrolment photos, artwork faces)."""

from __future__ import annotations

from vision.cards import Image
from vision.config import VisionConfig
from vision.glyphs import IndexGlyphs, index_views, split_index
from vision.propose import find_cards


def card_glyphs(image: Image, config: VisionConfig) -> list[IndexGlyphs]:
    """The index glyphs of a single-card image (a photo or a crop)."""
    quads = find_cards(image, config)
    if not quads:
        return []
    found = [split_index(view, config) for view in index_views(image, quads[0], config)]
    return [g for g in found if g is not None]
