"""Which labelled dev photos may train or fit anything, and which are kept for measuring."""

from __future__ import annotations

import zlib
from collections import defaultdict
from collections.abc import Iterable

EDJE_SET = "edje_train"
EDJE_BLOCK = 20
"""The rank-only set is split in blocks of twenty photo numbers, as the glyph model was fitted."""


def photo_set(key: str) -> str:
    """The set a labels.json image key belongs to (its first folder)."""
    return key.split("/", 1)[0]


def _edje_is_training(key: str) -> bool:
    stem = key.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    digits = "".join(ch for ch in stem if ch.isdigit())
    number = int(digits) if digits else zlib.crc32(stem.encode())
    return (number // EDJE_BLOCK) % 2 == 0


def training_keys(keys: Iterable[str]) -> set[str]:
    """The half of each dev set that may train or fit; every other key is measured only.

    The rank-only set keeps the block split its glyphs were fitted on. Every other set is ordered
    by a stable hash of the image key and dealt alternately, so even a set of four photos has two
    in each half and the split never depends on what a reader gets right."""
    by_set: dict[str, list[str]] = defaultdict(list)
    for key in keys:
        by_set[photo_set(key)].append(key)
    chosen: set[str] = set()
    for name, members in by_set.items():
        if name == EDJE_SET:
            chosen.update(key for key in members if _edje_is_training(key))
            continue
        ordered = sorted(members, key=lambda key: (zlib.crc32(key.encode()), key))
        chosen.update(ordered[0::2])
    return chosen
