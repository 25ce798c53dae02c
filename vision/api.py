"""What the rest of the table uses from recognition: app/ imports vision through this module only.

Each name is loaded on first use (module `__getattr__`), so importing this module costs nothing
and a command that never reads a card never loads OpenCV.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vision.cards import CardObservation, Image, Quad, Rank, Suit, parse_card
    from vision.config import VisionConfig
    from vision.deck_faces import FaceViews
    from vision.errors import CardNameError, VisionError
    from vision.faces import JOKER, FaceVector
    from vision.imageio import read_image
    from vision.live import LiveConfig, TableWatcher, draw_zones, view_config
    from vision.model import DEFAULT_MODEL, GlyphModel
    from vision.pipeline import recognise
    from vision.profile import enroll_images, folder_images, profile_of, with_profile
    from vision.propose import find_cards
    from vision.samples import face_sample, index_sample
    from vision.tracker import CardEvent, EventKind, TrackerConfig
    from vision.zones import CalibrationError, TableZones, default_zones, load_zones, save_zones

__all__ = [
    "DEFAULT_MODEL", "JOKER", "CalibrationError", "CardEvent", "CardNameError", "CardObservation",
    "EventKind", "FaceVector", "FaceViews", "GlyphModel", "Image", "LiveConfig", "Quad", "Rank",
    "Suit", "TableWatcher", "TableZones", "TrackerConfig", "VisionConfig", "VisionError",
    "default_zones", "draw_zones", "enroll_images", "face_sample", "find_cards", "folder_images",
    "index_sample", "load_zones", "parse_card", "profile_of", "read_image", "recognise",
    "save_zones", "view_config", "with_profile",
]

HOMES = {
    "vision.cards": ("CardObservation", "Image", "Quad", "Rank", "Suit", "parse_card"),
    "vision.config": ("VisionConfig",),
    "vision.deck_faces": ("FaceViews",),
    "vision.propose": ("find_cards",),
    "vision.errors": ("CardNameError", "VisionError"),
    "vision.faces": ("JOKER", "FaceVector"),
    "vision.imageio": ("read_image",),
    "vision.live": ("LiveConfig", "TableWatcher", "draw_zones", "view_config"),
    "vision.model": ("DEFAULT_MODEL", "GlyphModel"),
    "vision.pipeline": ("recognise",),
    "vision.profile": ("enroll_images", "folder_images", "profile_of", "with_profile"),
    "vision.samples": ("face_sample", "index_sample"),
    "vision.tracker": ("CardEvent", "EventKind", "TrackerConfig"),
    "vision.zones": ("CalibrationError", "TableZones", "default_zones", "load_zones", "save_zones"),
}
"""The module each name of `__all__` comes from."""

_HOME_OF = {name: module for module, names in HOMES.items() for name in names}

if not TYPE_CHECKING:  # type checkers see the imports above, so a misspelt name is caught

    def __getattr__(name: str) -> Any:
        """Load a name of `__all__` from its module the first time it is asked for."""
        module = _HOME_OF.get(name)
        if module is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        globals()[name] = value
        return value

    def __dir__() -> list[str]:
        """The module's public names, loaded or not."""
        return sorted(__all__)
