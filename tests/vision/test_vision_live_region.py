"""The watcher reads only the part of the view that changed and keeps the cards outside it."""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import pytest

import vision.live
from tools.scenes import paste_card, table_background
from tools.synthetic import artwork_cards
from vision.cards import CardObservation
from vision.faces import ARTWORK
from vision.live import LiveConfig, TableWatcher, on_border
from vision.model import GlyphModel
from vision.pipeline import recognise
from vision.tracker import CardEvent
from vision.zones import default_zones

WIDTH, HEIGHT = 1280, 720
STILL = [("KS", (330.0, 200.0), 10.0), ("QD", (950.0, 200.0), -15.0),
         ("AC", (330.0, 520.0), 5.0)]
"""Cards lying still, far apart in the play area."""


@pytest.fixture(scope="module")
def model() -> GlyphModel:
    return GlyphModel.load()


@cache
def _faces() -> dict[str, np.ndarray]:
    return dict(artwork_cards(ARTWORK))


def _table(cards: list[tuple[str, tuple[float, float], float]]) -> np.ndarray:
    faces = _faces()
    scene = table_background(WIDTH, HEIGHT, seed=6)
    for name, centre, angle in cards:
        paste_card(scene, faces[name], centre, 120, angle)
    return scene


class Views:
    """The sizes of the views handed to recognition."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.shapes: list[tuple[int, int]] = []
        def recorded(view: np.ndarray, *args: Any, **kwargs: Any) -> list[CardObservation]:
            self.shapes.append(view.shape[:2])
            return recognise(view, *args, **kwargs)

        monkeypatch.setattr(vision.live, "recognise", recorded)


def _watch(watcher: TableWatcher, scene: np.ndarray, start: float) -> list[CardEvent]:
    return [e for i in range(12) for e in watcher.process(start + i * 0.1, scene)]


def _settled_table(model: GlyphModel, config: LiveConfig | None = None) -> TableWatcher:
    watcher = TableWatcher(model, default_zones(WIDTH, HEIGHT), live_config=config)
    named = {e.card for e in _watch(watcher, _table(STILL), 0.0)}
    assert named == {"KS", "QD", "AC"}
    assert watcher.card_length is not None
    return watcher


def test_a_card_laid_beside_cards_lying_still_is_read_in_a_part_of_the_view(
        model: GlyphModel, monkeypatch: pytest.MonkeyPatch) -> None:
    watcher = _settled_table(model)
    before = {o.name: o for o in watcher.observations}
    views = Views(monkeypatch)
    events = _watch(watcher, _table([*STILL, ("QH", (950.0, 520.0), 20.0)]), 2.0)
    assert [(e.kind.value, e.card) for e in events] == [("placed", "QH")]
    assert views.shapes and all(h * w < 0.5 * 682 * 1153 for h, w in views.shapes)
    # The cards far from it were not read again: their observations are those read before.
    assert all(any(o is before[name] for o in watcher.observations) for name in ("KS", "AC"))
    assert sorted(o.name or "" for o in watcher.observations) == ["AC", "KS", "QD", "QH"]


def test_without_regions_the_whole_view_is_read(model: GlyphModel,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    watcher = _settled_table(model, LiveConfig(region_share=0.0))
    views = Views(monkeypatch)
    events = _watch(watcher, _table([*STILL, ("QH", (950.0, 520.0), 20.0)]), 2.0)
    assert [(e.kind.value, e.card) for e in events] == [("placed", "QH")]
    assert views.shapes and set(views.shapes) == {(682, 1153)}


def test_a_change_spread_over_most_of_the_view_reads_the_whole_view(
        model: GlyphModel, monkeypatch: pytest.MonkeyPatch) -> None:
    watcher = _settled_table(model)
    views = Views(monkeypatch)
    laid = [("QH", (950.0, 520.0), 20.0), ("TS", (640.0, 360.0), -10.0),
            ("JC", (120.0, 360.0), 80.0)]
    events = _watch(watcher, _table([*STILL, *laid]), 2.0)
    assert sorted(e.card or "" for e in events) == ["JC", "QH", "TS"]
    assert (682, 1153) in views.shapes


def test_a_card_lying_still_across_the_edge_of_the_change_is_kept_as_it_was_read(
        model: GlyphModel, monkeypatch: pytest.MonkeyPatch) -> None:
    watcher = _settled_table(model)
    before = {o.name: o for o in watcher.observations}
    views = Views(monkeypatch)
    # Laid just below the queen of diamonds: the part grown around it cuts into that card.
    events = _watch(watcher, _table([*STILL, ("QH", (960.0, 380.0), 0.0)]), 2.0)
    assert [(e.kind.value, e.card) for e in events] == [("placed", "QH")]
    assert views.shapes and all(h * w < 0.5 * 682 * 1153 for h, w in views.shapes)
    # The part is not grown to hold the queen of diamonds whole (that part is some 450 px
    # high, this one 360): she lies still and keeps her reading; what of her lies inside the
    # part is no card of its own.
    assert max(h for h, _ in views.shapes) < 400, views.shapes
    assert all(any(o is before[name] for o in watcher.observations)
               for name in ("KS", "QD", "AC"))
    assert sorted(o.name or "" for o in watcher.observations) == ["AC", "KS", "QD", "QH"]


def test_an_outline_on_a_chosen_side_of_the_border_is_on_it() -> None:
    quad = np.array([[0, 10], [50, 10], [50, 80], [0, 80]], np.float32)
    assert on_border(quad, 100, 100, 2.0)
    assert on_border(quad, 100, 100, 2.0, (True, False, False, False))
    assert not on_border(quad, 100, 100, 2.0, (False, True, True, True))
