"""The camera's watcher as the table opens it."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.camera_feed import deck_notice, open_watcher
from vision.zones import default_zones, save_zones


@pytest.mark.parametrize("copies", [1, 2])
def test_the_watcher_names_each_card_as_often_as_the_deck_holds_it(
        tmp_path: Path, copies: int) -> None:
    save_zones(default_zones(1280, 720), tmp_path / "zones.json")
    watcher = open_watcher(tmp_path / "zones.json", None, 0.5, copies)
    assert watcher.vision_config.copies == copies
    assert watcher.tracker_config is not None and watcher.tracker_config.stable_time == 0.5


def test_a_table_without_a_deck_profile_is_told_how_to_enrol_one() -> None:
    assert deck_notice(None) is not None and "deck" in str(deck_notice(None))
    assert deck_notice(Path("deck.npz")) is None
