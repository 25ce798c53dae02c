"""The dev photo split: half of every set trains, the other half is only measured."""

from __future__ import annotations

import random

from tools.fitting import is_fit_photo
from tools.split import photo_set, training_keys


def _keys() -> list[str]:
    keys = [f"edje_train/IMG_{number}.jpg" for number in range(2380, 2480)]
    keys += [f"webcam_felt/frame_{n}.jpg" for n in range(4)]
    keys += [f"vosloo_crops/{card}_{n:02d}.jpg" for card in ("9S", "TC", "AH") for n in range(9)]
    return keys


def test_every_set_of_several_photos_has_both_halves() -> None:
    keys = _keys()
    chosen = training_keys(keys)
    for name in {photo_set(key) for key in keys}:
        members = [key for key in keys if photo_set(key) == name]
        inside = sum(key in chosen for key in members)
        assert 0 < inside < len(members), name
        assert abs(2 * inside - len(members)) <= len(members) // 2


def test_the_split_does_not_depend_on_the_order_of_the_keys() -> None:
    keys = _keys()
    shuffled = keys[:]
    random.Random(3).shuffle(shuffled)
    assert training_keys(keys) == training_keys(shuffled)


def test_the_rank_only_set_keeps_the_glyph_models_fit_half() -> None:
    keys = [key for key in _keys() if photo_set(key) == "edje_train"]
    chosen = training_keys(keys)
    assert {key for key in keys if is_fit_photo(key)} == chosen
