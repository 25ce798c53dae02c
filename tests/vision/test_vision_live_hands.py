"""The table watcher on short synthetic hands (two tricks, 960x540, every effect on): each card is
reported once, in its zone, as itself or as unreadable, never as another card, and nothing is
invented."""

from __future__ import annotations

from pathlib import Path

import pytest

from table.log import dump_events
from table.simulate import simulate_game
from tools.table_synth import Comparison, SynthConfig, TableScene, compare_events, tricks_from_log
from vision.live import TableWatcher
from vision.model import GlyphModel

SEEDS = (11, 12, 13)


def track_scene(seed: int, tmp_path: Path) -> Comparison:
    log = tmp_path / f"game{seed}.jsonl"
    log.write_text(dump_events(simulate_game(seed=seed, max_hands=1).events))
    config = SynthConfig(width=960, height=540, seed=seed, max_tricks=2)
    assert config.lighting and config.shadow and config.blur and config.noise
    assert config.hand_passes and config.nudges
    scene = TableScene(tricks_from_log(log), config)
    watcher = TableWatcher(GlyphModel.load(), scene.zones())
    events = [event.to_json() for t, frame in scene.frames() for event in watcher.process(t, frame)]
    return compare_events(scene.truth, events)


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Comparison]:
    folder = tmp_path_factory.mktemp("hands")
    return {seed: track_scene(seed, folder) for seed in SEEDS}


@pytest.mark.parametrize("seed", SEEDS)
def test_every_card_is_reported_once_in_its_zone_and_never_wrong(
        results: dict[int, Comparison], seed: int) -> None:
    result = results[seed]
    assert result.wrong == []
    assert result.wrong_seat == []
    assert result.missed == []
    assert result.phantoms == []
    assert result.right + result.unreadable == result.placed == 8
    assert result.removed_found == result.removed == 8
    assert result.is_faithful


def test_some_cards_are_named(results: dict[int, Comparison]) -> None:
    assert sum(result.right for result in results.values()) >= 3


def test_the_comparison_catches_mistakes() -> None:
    from tools.table_synth import TruthEvent

    truth = [TruthEvent("placed", 1.0, "N", "TH"), TruthEvent("placed", 2.0, "E", "9S"),
             TruthEvent("removed", 5.0, "N", "TH")]
    reported = [{"event": "placed", "t": 1.4, "seat": "N", "card": "TD", "confidence": 0.9},
                {"event": "unreadable", "t": 2.5, "seat": "W", "card": None, "confidence": 0.2},
                {"event": "placed", "t": 3.0, "seat": "S", "card": "AS", "confidence": 0.9}]
    result = compare_events(truth, reported)
    assert len(result.wrong) == 1 and "TD" in result.wrong[0]
    assert len(result.wrong_seat) == 1 and "W" in result.wrong_seat[0]
    assert len(result.missed) == 1 and "removed" in result.missed[0]
    assert len(result.phantoms) == 1 and "AS" in result.phantoms[0]
    assert not result.is_faithful


def test_the_comparison_weighs_cards_identified_later() -> None:
    from tools.table_synth import TruthEvent

    truth = [TruthEvent("placed", 1.0, "N", "TH"), TruthEvent("placed", 2.0, "E", "9S"),
             TruthEvent("removed", 6.0, "N", "TH"), TruthEvent("removed", 6.0, "E", "9S")]
    reported = [{"event": "unreadable", "t": 1.4, "seat": "N", "card": None, "confidence": 0.2},
                {"event": "unreadable", "t": 2.4, "seat": "E", "card": None, "confidence": 0.2},
                {"event": "identified", "t": 3.0, "seat": "N", "card": "TH", "confidence": 0.9},
                {"event": "identified", "t": 3.5, "seat": "E", "card": "9C", "confidence": 0.9},
                {"event": "removed", "t": 6.3, "seat": "N", "card": "TH", "confidence": 0.9},
                {"event": "removed", "t": 6.3, "seat": "E", "card": "9C", "confidence": 0.9},
                {"event": "identified", "t": 7.0, "seat": "N", "card": "AS", "confidence": 0.9}]
    result = compare_events(truth, reported)
    assert (result.right, result.unreadable) == (1, 0)
    assert len(result.wrong) == 1 and "identified later as 9C" in result.wrong[0]
    assert len(result.phantoms) == 1 and "AS" in result.phantoms[0]
