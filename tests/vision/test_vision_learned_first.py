"""The learned reader's first look: cards it names surely skip the glyph reader's rescue."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import vision.pipeline as pipeline_module
import vision.read as read_module
from tools.scenes import paste_card, table_background
from tools.synthetic import artwork_cards
from vision.cards import CardObservation, Image, Quad
from vision.config import VisionConfig
from vision.learned import CardScores, LearnedReader, reading_of, shipped_reader
from vision.learned_first import LearnedViews, learned_views, outline_key
from vision.learned_index import IndexReader, named_by_both, shipped_index_reader
from vision.model import GlyphModel
from vision.pipeline import StageClock, recognise
from vision.propose import find_cards

ARTWORK = Path(__file__).resolve().parents[2] / "vision" / "data" / "artwork"
CARDS = ("JH", "TS", "9D", "AC", "KS", "QD", "AH", "9C")


@pytest.fixture(scope="module")
def reader() -> LearnedReader:
    return shipped_reader()


@pytest.fixture(scope="module")
def model() -> GlyphModel:
    return GlyphModel.load()


def _table(long_side: float, seed: int) -> tuple[Image, list[Quad]]:
    """Eight artwork cards of `long_side` pixels on a table, two rows of four, and a blank card
    below them (which the network never names)."""
    faces = dict(artwork_cards(ARTWORK))
    frame = table_background(int(long_side * 6.5), int(long_side * 5.0), seed=seed)
    quads = []
    for i, name in enumerate(CARDS):
        centre = (long_side * (0.9 + 1.5 * (i % 4)), long_side * (0.9 + 1.6 * (i // 4)))
        quads.append(paste_card(frame, faces[name], centre, long_side,
                                angle=-30 + 17 * i + 5 * seed, tilt=0.04))
    blank = np.full((338, 242, 3), 245, np.uint8)
    quads.append(paste_card(frame, blank, (long_side * 3.2, long_side * 4.1), long_side,
                            angle=80.0))
    return frame, quads


@pytest.fixture(scope="module", params=[(95.0, 1), (140.0, 2)], ids=["95px", "140px"])
def table(request: pytest.FixtureRequest) -> tuple[Image, list[Quad]]:
    long_side, seed = request.param
    return _table(long_side, seed)


def test_each_outline_is_scored_once(reader: LearnedReader,
                                     table: tuple[Image, list[Quad]]) -> None:
    frame, quads = table
    views = LearnedViews(frame, reader)
    first = views.scores(quads[:3])
    again = views.scores([*quads[1:], quads[0]])
    assert len(views.scored) == len(quads)
    direct = reader.scores(frame, quads)
    for got, want in zip([again[-1], *again[:-1]], direct, strict=True):
        assert np.allclose(got.rank, want.rank, atol=1e-5)
        assert np.allclose(got.suit, want.suit, atol=1e-5)
    assert np.array_equal(first[0].rank, again[-1].rank)


def test_each_outline_is_shown_to_the_index_reader_once(table: tuple[Image, list[Quad]]
                                                         ) -> None:
    frame, quads = table
    index = shipped_index_reader()
    shown: list[int] = []

    class Counting:
        """The shipped index reader, counting the outlines it is shown."""

        def scores(self, frame: Image, quads: list[Quad]) -> list[CardScores]:
            shown.append(len(quads))
            return index.scores(frame, quads)

    views = LearnedViews(frame, shipped_reader())
    first = views.index_scores(Counting(), quads[:3])  # type: ignore[arg-type]
    again = views.index_scores(Counting(), [*quads[1:], quads[0]])  # type: ignore[arg-type]
    assert shown == [3, len(quads) - 3]
    direct = index.scores(frame, quads)
    for got, want in zip([again[-1], *again[:-1]], direct, strict=True):
        assert np.allclose(got.rank, want.rank, atol=1e-5)
        assert np.allclose(got.suit, want.suit, atol=1e-5)
    assert first[0] is again[-1]


def test_sure_cards_are_those_both_views_name_at_the_naming_threshold(
        reader: LearnedReader, table: tuple[Image, list[Quad]]) -> None:
    frame, quads = table
    views = learned_views(frame, quads, reader, VisionConfig())
    level = reader.rule.threshold
    assert views.sure_at == level
    for quad, scores in zip(quads, views.scores(quads), strict=True):
        agreed = scores.agreed()
        named = agreed is not None and reading_of(*agreed) is not None
        assert views.is_sure(quad) == (named and agreed is not None and agreed[1] >= level)
        assert (views.sure_reading(quad) is not None) == views.is_sure(quad)
    assert any(views.is_sure(q) for q in quads)
    assert not views.is_sure(quads[-1])


def test_nothing_is_sure_with_the_first_look_off_or_unseen(
        reader: LearnedReader, table: tuple[Image, list[Quad]]) -> None:
    frame, quads = table
    off = learned_views(frame, quads, reader, replace(VisionConfig(), learned_first=False))
    assert not off.scored and not any(off.is_sure(q) for q in quads)
    small = learned_views(frame, quads, reader,
                          replace(VisionConfig(), learned_max_length=20.0))
    assert not small.scored and not any(small.is_sure(q) for q in quads)


def test_a_blank_region_is_never_sure(reader: LearnedReader) -> None:
    frame = table_background(400, 300, seed=5)
    blank = np.full((338, 242, 3), 245, np.uint8)
    quad = paste_card(frame, blank, (200, 150), 120, angle=10)
    views = learned_views(frame, [quad], reader, VisionConfig())
    assert views.scored and not views.is_sure(quad)


class _Calls:
    """What the rescue stages were asked to do."""

    def __init__(self) -> None:
        self.outlines: list[tuple[Quad, VisionConfig]] = []
        self.second_looks = 0

    def clear(self) -> None:
        self.outlines.clear()
        self.second_looks = 0


@pytest.fixture()
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[_Calls]:
    seen = _Calls()
    outline = pipeline_module.read_outline
    second = read_module._second_look

    def counted_outline(frame: Image, corners: Quad, model: GlyphModel,
                        config: VisionConfig) -> object:
        seen.outlines.append((corners, config))
        return outline(frame, corners, model, config)

    def counted_second(*args: object, **kwargs: object) -> object:
        seen.second_looks += 1
        return second(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline_module, "read_outline", counted_outline)
    monkeypatch.setattr(read_module, "_second_look", counted_second)
    yield seen


def test_sure_cards_get_the_first_look_only_and_keep_their_names(
        calls: _Calls, model: GlyphModel, reader: LearnedReader,
        table: tuple[Image, list[Quad]]) -> None:
    frame, _ = table
    rescued = recognise(frame, model, replace(VisionConfig(), learned_first=False))
    rescue_looks = calls.second_looks
    assert all(config.second_look_shifts for _, config in calls.outlines)
    calls.clear()
    # Every sure card read (none named without a glyph look), so each sure one is seen here.
    first = recognise(frame, model, replace(VisionConfig(), learned_skip_plain=False))
    views = learned_views(frame, [q for q, _ in calls.outlines], reader, VisionConfig(),
                          shipped_index_reader())
    sure = [views.is_sure(q) for q, _ in calls.outlines]
    assert any(sure) and not all(sure)
    for (_, config), is_sure in zip(calls.outlines, sure, strict=True):
        assert (config.second_look_shifts == ()) is is_sure
        assert (config.blurred_outline_growth == 0.0) is is_sure
    assert calls.second_looks < rescue_looks
    assert sorted(o.name for o in first if o.name) == sorted(o.name for o in rescued if o.name)
    assert {o.name for o in first if o.name} <= set(CARDS)


def test_the_first_look_is_timed_as_its_own_stage(model: GlyphModel) -> None:
    frame, _ = _table(120.0, 3)
    clock = StageClock()
    recognise(frame, model, stages=clock)
    assert clock.calls.get("learned first") == 1
    off = StageClock()
    recognise(frame, model, replace(VisionConfig(), learned_first=False), stages=off)
    assert "learned first" not in off.calls


def test_cards_both_readers_name_alike_are_sure_too(
        reader: LearnedReader, table: tuple[Image, list[Quad]]) -> None:
    frame, quads = table
    index = shipped_index_reader()
    # The card reader alone is made unsure of every card: only the readers' agreement is left.
    unsure = replace(reader, rule=replace(reader.rule, threshold=2.0))
    alone = learned_views(frame, quads, unsure, VisionConfig())
    assert not any(alone.is_sure(q) for q in quads) and not alone.agreed
    both = learned_views(frame, quads, unsure, VisionConfig(), index)
    corners = index.scores(frame, quads)
    for quad, name, card, corner in zip(quads, [*CARDS, None], both.scores(quads), corners,
                                        strict=True):
        expected = named_by_both(card, corner, index.threshold)
        got = both.sure_reading(quad)
        assert (got.name if got else None) == (expected.name if expected else None)
        assert got is None or got.name == name
    assert sum(both.is_sure(q) for q in quads) >= 5
    assert not both.is_sure(quads[-1])


def _glyph_looks(calls: _Calls, frame: Image, model: GlyphModel, *configs: VisionConfig
                 ) -> list[tuple[list[CardObservation], list[Quad]]]:
    """The frame recognised with each config in turn, with the outlines the glyph reader read."""
    out = []
    for config in configs:
        calls.clear()
        found = recognise(frame, model, config)
        out.append((found, [q for q, _ in calls.outlines]))
    return out


def test_sure_nines_tens_and_aces_are_named_without_a_glyph_look(
        calls: _Calls, model: GlyphModel, reader: LearnedReader,
        table: tuple[Image, list[Quad]]) -> None:
    frame, _ = table
    (looked, read_before), (skipped, read_now) = _glyph_looks(
        calls, frame, model, replace(VisionConfig(), learned_skip_plain=False),
        replace(VisionConfig(), learned_skip_courts=False, learned_skip_agreed=None))
    views = learned_views(frame, read_before, reader, VisionConfig())
    plain = [q for q in read_before if (r := views.alone_reading(q)) is not None
             and r.rank.value in "9TA"]
    assert plain
    assert len(read_now) == len(read_before) - len(plain)
    plain_keys = {outline_key(q) for q in plain}
    assert not any(outline_key(q) in plain_keys for q in read_now)
    assert sorted(o.name for o in skipped if o.name) == sorted(o.name for o in looked if o.name)


def test_sure_courts_the_index_reader_names_alike_are_named_without_a_glyph_look(
        calls: _Calls, model: GlyphModel, reader: LearnedReader,
        table: tuple[Image, list[Quad]]) -> None:
    frame, _ = table
    (looked, read_before), (skipped, read_now) = _glyph_looks(
        calls, frame, model, replace(VisionConfig(), learned_skip_courts=False), VisionConfig())
    index = shipped_index_reader()
    views = learned_views(frame, read_before, reader, VisionConfig(), index)
    backed = [q for q in read_before if views.court_backed(q)]
    assert backed
    for quad in backed:
        alone = views.alone_reading(quad)
        both = named_by_both(views.scores([quad])[0], index.scores(frame, [quad])[0],
                             index.threshold)
        assert alone is not None and alone.rank.value in "JQK"
        assert both is not None and both.name == alone.name
    assert len(read_now) == len(read_before) - len(backed)
    backed_keys = {outline_key(q) for q in backed}
    assert not any(outline_key(q) in backed_keys for q in read_now)
    named = sorted(o.name for o in skipped if o.name)
    assert named == sorted(o.name for o in looked if o.name)
    assert set(named) <= set(CARDS)


def test_no_court_is_backed_where_the_index_reader_names_nothing(
        reader: LearnedReader, table: tuple[Image, list[Quad]]) -> None:
    frame, quads = table
    index = shipped_index_reader()
    views = learned_views(frame, quads, reader, VisionConfig(), index)
    assert any(views.court_backed(q) for q in quads)
    never = IndexReader(index.net, {**index.manifest, "threshold": 2.0})
    strict = learned_views(frame, quads, reader, VisionConfig(), never)
    assert not any(strict.court_backed(q) for q in quads)
    off = learned_views(frame, quads, reader, replace(VisionConfig(), learned_skip_courts=False),
                        index)
    assert not any(off.court_backed(q) for q in quads)
    assert not any(views.court_backed(q) for q in quads
                   if (r := views.alone_reading(q)) is None or r.rank.value not in "JQK")


def test_cards_both_networks_name_at_the_tables_level_get_no_glyph_look(
        calls: _Calls, model: GlyphModel, reader: LearnedReader,
        table: tuple[Image, list[Quad]], monkeypatch: pytest.MonkeyPatch) -> None:
    frame, _ = table
    # The card reader alone is made unsure of every card: only the readers' agreement is left.
    unsure = replace(reader, rule=replace(reader.rule, threshold=2.0))
    monkeypatch.setattr(pipeline_module, "shipped_reader", lambda: unsure)
    level = VisionConfig().learned_skip_agreed
    assert level is not None
    (looked, read_before), (skipped, read_now) = _glyph_looks(
        calls, frame, model, replace(VisionConfig(), learned_skip_agreed=None), VisionConfig())
    first_look = find_cards(frame, VisionConfig())
    views = learned_views(frame, first_look, unsure, VisionConfig(), shipped_index_reader())
    agreed = {outline_key(q) for q in first_look if views.agreed_at(q) >= level}
    assert agreed and all(views.agreed_at(q) < level for q in first_look
                          if outline_key(q) not in agreed)
    # Those outlines are read by the glyph reader only when the rule is off.
    assert agreed <= {outline_key(q) for q in read_before}
    assert not agreed & {outline_key(q) for q in read_now}
    assert len(read_now) <= len(read_before) - len(agreed)
    named = sorted(o.name for o in skipped if o.name)
    assert named == sorted(o.name for o in looked if o.name)
    assert set(named) <= set(CARDS)
    for observation in skipped:
        if outline_key(observation.corners) in agreed and observation.name is not None:
            assert observation.confidence >= level
