"""The learned index reader: a second network over the index corners, as a second opinion."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tools.scenes import paste_card, table_background
from tools.synthetic import artwork_cards
from vision.cards import CardObservation, Image, Quad, Rank, Reading, Suit
from vision.config import VisionConfig
from vision.corners import CardCorner, corner_views
from vision.deck_limit import within_deck
from vision.learned import (
    INDEX_BOX,
    INDEX_HEIGHT,
    INDEX_WIDTH,
    RANK_CLASSES,
    SUIT_CLASSES,
    CardScores,
    ModelFileError,
    Rule,
    checked,
    rectify,
    rectify_index,
    shipped_reader,
)
from vision.learned_index import (
    INDEX_MODEL_PATH,
    IndexReader,
    index_support,
    load_index_reader,
    named_by_both,
    named_with_index,
    shipped_index_reader,
    vouched_by_index,
)

ARTWORK = Path(__file__).resolve().parents[2] / "vision" / "data" / "artwork"
CARDS = ("JH", "TS", "9D", "AC", "KS", "QD", "AH", "9C")


@pytest.fixture(scope="module")
def index() -> IndexReader:
    return shipped_index_reader()


@pytest.fixture(scope="module", params=[95.0, 140.0], ids=["95px", "140px"])
def table(request: pytest.FixtureRequest) -> tuple[Image, list[Quad], float]:
    """Eight artwork cards of the camera's size on a table, and a blank card."""
    size = float(request.param)
    faces = dict(artwork_cards(ARTWORK))
    frame = table_background(int(size * 6.5), int(size * 5.0), seed=int(size))
    quads = [paste_card(frame, faces[name], (size * (0.9 + 1.5 * (i % 4)),
                                             size * (0.9 + 1.6 * (i // 4))), size,
                        angle=-30 + 17 * i, tilt=0.04) for i, name in enumerate(CARDS)]
    blank = np.full((338, 242, 3), 245, np.uint8)
    quads.append(paste_card(frame, blank, (size * 3.2, size * 4.1), size, angle=80.0))
    return frame, quads, size


def _scores(upright: str, turned: str, sure: float) -> CardScores:
    """Scores naming one card per view at a joint probability of `sure` squared."""
    rank = np.full((2, len(RANK_CLASSES)), (1 - sure) / (len(RANK_CLASSES) - 1), np.float32)
    suit = np.full((2, len(SUIT_CLASSES)), (1 - sure) / (len(SUIT_CLASSES) - 1), np.float32)
    for view, name in enumerate((upright, turned)):
        rank[view, RANK_CLASSES.index("low" if name[0] in "2345678" else name[0])] = sure
        suit[view, SUIT_CLASSES.index(name[1])] = sure
    return CardScores(rank, suit)


def test_the_index_view_is_the_top_left_of_the_card_in_more_detail(
        table: tuple[Image, list[Quad], float]) -> None:
    frame, quads, _ = table
    scale = 8
    for quad in quads[:4]:
        big = rectify(frame, quad, 64 * scale // 2, 96 * scale // 2)
        for view, whole in zip(rectify_index(frame, quad), big, strict=True):
            assert view.shape == (INDEX_HEIGHT, INDEX_WIDTH, 3)
            # The same part of the card cut from a large whole view: it matches, with the
            # margin outside the card (INDEX_BOX starts outside it) filled alike.
            left, top, right, bottom = INDEX_BOX
            h, w = whole.shape[:2]
            x0, y0 = round(max(left, 0.0) * w), round(max(top, 0.0) * h)
            cut = whole[y0:round(bottom * h), x0:round(right * w)]
            inner = view[round((0 - top) / (bottom - top) * INDEX_HEIGHT):,
                         round((0 - left) / (right - left) * INDEX_WIDTH):]
            resized = cv2.resize(cut, (inner.shape[1], inner.shape[0]),
                                 interpolation=cv2.INTER_AREA)
            assert np.abs(resized.astype(int) - inner.astype(int)).mean() < 18


def test_the_index_reader_names_the_cards_and_not_the_blank(
        index: IndexReader, table: tuple[Image, list[Quad], float]) -> None:
    frame, quads, _ = table
    found = index.scores(frame, quads)
    named = [s.agreed() for s in found]
    right = sum(1 for got, want in zip(named, CARDS, strict=False)
                if got is not None and got[0] == want)
    assert right >= 6
    assert named[-1] is None or named[-1][0] not in CARDS


@pytest.mark.parametrize(("card", "corner", "level", "named"), [
    (("QS", "QS"), ("QS", "QS"), 0.8, "QS"),       # both readers, both views
    (("QS", "QS"), ("QS", "QS"), 0.7, None),       # 0.49 < threshold 0.6
    (("QS", "QS"), ("QC", "QC"), 0.9, None),       # the readers differ
    (("QS", "QS"), ("QS", "QC"), 0.9, None),       # the index views differ
    (("9S", "9S"), ("9S", "9S"), 0.9, "9S"),
    (("8S", "8S"), ("8S", "8S"), 0.9, None),       # a low card is never named
])
def test_a_card_is_named_by_both_only_where_both_name_it_alike(
        card: tuple[str, str], corner: tuple[str, str], level: float,
        named: str | None) -> None:
    got = named_by_both(_scores(*card, level), _scores(*corner, level), 0.6)
    assert (got.name if got else None) == named
    if got is not None:
        assert got.confidence == pytest.approx(level * level, abs=1e-3)


def _unread(quads: list[Quad]) -> list[CardObservation]:
    return [CardObservation(q.astype(np.float32), None, 0.0, whole=True) for q in quads]


def test_unread_whole_cards_are_named_where_both_readers_agree(
        index: IndexReader, table: tuple[Image, list[Quad], float]) -> None:
    frame, quads, _ = table
    card = shipped_reader().scores(frame, quads)
    observations = _unread(quads)
    out = named_with_index(frame, observations, dict(enumerate(card)), index, VisionConfig())
    names = [o.name for o in out]
    assert names[-1] is None
    assert sum(n is not None for n in names) >= 5
    assert all(n == want for n, want in zip(names, CARDS, strict=False) if n is not None)
    # Never above 1: nothing is named.
    never = IndexReader(index.net, {**index.manifest, "threshold": 2.0})
    assert all(o.name is None for o in named_with_index(
        frame, observations, dict(enumerate(card)), never, VisionConfig()))
    # Cards the card reader did not see are not named; a name the frame holds already is
    # given once by the deck constraint.
    assert all(o.name is None for o in named_with_index(
        frame, observations, {}, index, VisionConfig()))
    first = next(k for k, n in enumerate(names) if n is not None)
    held = list(observations)
    held[-1] = replace(held[-1], reading=out[first].reading, confidence=0.9)
    again = within_deck(named_with_index(frame, held, dict(enumerate(card)), index,
                                         VisionConfig()))
    assert again[first].name is None and again[-1].name == names[first]


def _corner_box(frame: Image, quad: Quad, config: VisionConfig) -> Quad:
    """The index box a loose corner at the card's top-left gives (`corner_views`)."""
    pts = np.asarray(quad, np.float32)
    width = float(np.linalg.norm(pts[1] - pts[0]))
    height = float(np.linalg.norm(pts[3] - pts[0]))
    across = (pts[1] - pts[0]) / width
    down = (pts[3] - pts[0]) / height
    corner = CardCorner(pts[0], across, down, width, height)
    _, outline = next(corner_views(frame, corner, width, config, (True,)))
    return outline


@pytest.mark.parametrize("card", ["TS", "QD", "AH"])
def test_a_loose_corner_is_backed_for_its_own_card_only(index: IndexReader, card: str) -> None:
    faces = dict(artwork_cards(ARTWORK))
    frame = table_background(420, 320, seed=5)
    quad = paste_card(frame, faces[card], (210.0, 160.0), 140.0, angle=0.0)
    config = VisionConfig()
    box = _corner_box(frame, quad, config)
    right = Reading(Rank(card[0]), Suit(card[1]), 0.7)
    wrong = Reading(Rank.NINE if card[0] != "9" else Rank.TEN, Suit.CLUBS, 0.7)
    got = index_support(frame, [box, box], [right, wrong], index, config)
    assert got[0] >= index.loose_support > got[1]


def test_checked_keeps_a_weak_loose_corner_that_another_cue_backs() -> None:
    box = np.array([[0, 0], [14, 0], [14, 30], [0, 30]], np.float32)
    corner = CardObservation(box, Reading(Rank.JACK, Suit.SPADES, 0.7), 0.7, whole=False)
    rule = Rule(0.8, 0.3, 0.8, loose_backed=0.55, loose_support=0.5)
    assert checked([corner], [None], rule)[0].name is None
    assert checked([corner], [None], rule, frozenset({0}))[0].name == "JS"


def test_a_bad_index_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ModelFileError, match="cannot load"):
        load_index_reader(tmp_path / "missing.onnx")
    shutil.copy(INDEX_MODEL_PATH, tmp_path / "index.onnx")
    manifest = json.loads(INDEX_MODEL_PATH.with_suffix(".json").read_text())
    (tmp_path / "index.json").write_text(json.dumps({**manifest, "view": "card"}))
    with pytest.raises(ModelFileError, match="not an index reader"):
        load_index_reader(tmp_path / "index.onnx")
    (tmp_path / "index.json").write_text(json.dumps(manifest))
    assert load_index_reader(tmp_path / "index.onnx").threshold == pytest.approx(0.6)


def test_switched_off_the_pipeline_never_asks_the_index_reader(
        monkeypatch: pytest.MonkeyPatch, table: tuple[Image, list[Quad], float]) -> None:
    import vision.learned_check as check_module
    import vision.pipeline as pipeline_module
    from vision.model import GlyphModel
    from vision.pipeline import recognise

    frame, _, _ = table

    def refused() -> IndexReader:
        raise AssertionError("the index reader was asked")

    monkeypatch.setattr(pipeline_module, "shipped_index_reader", refused)
    monkeypatch.setattr(check_module, "shipped_index_reader", refused)
    config = replace(VisionConfig(), learned_index=False)
    assert recognise(frame, GlyphModel.load(), config)


def _read_as(quads: list[Quad], names: list[str]) -> list[CardObservation]:
    """Whole outlines carrying glyph readings of the given names."""
    out = []
    for quad, name in zip(quads, names, strict=True):
        reading = Reading(Rank(name[0]), Suit(name[1]), 0.9)
        out.append(CardObservation(quad.astype(np.float32), reading, 0.9, whole=True))
    return out


def test_weakly_backed_names_take_the_index_readers_sure_agreement(
        index: IndexReader, table: tuple[Image, list[Quad], float]) -> None:
    frame, quads, _ = table
    quads = quads[:len(CARDS)]
    before = _read_as(quads, list(CARDS))

    def scored(found: list[Quad]) -> list[CardScores]:
        return index.scores(frame, found)

    def weakly(observations: list[CardObservation]) -> list[CardObservation]:
        """The names kept, as the card network backs them weakly."""
        return [replace(o, reading=replace(o.reading, confidence=0.4), confidence=0.4)
                if o.reading else o for o in observations]

    out = vouched_by_index(before, weakly(before), 0.8, scored)
    assert [o.name for o in out] == list(CARDS)  # names never change
    raised = [o for o in out if o.confidence > 0.4]
    assert len(raised) >= 3
    assert all(0.8 <= o.confidence <= 0.9 for o in raised)
    assert all(o.reading is not None and o.reading.confidence == o.confidence for o in out)
    # A name the index reader does not give, or a glyph reading under the level, stays weak.
    shifted = _read_as(quads, list(CARDS[1:] + CARDS[:1]))
    assert all(o.confidence == 0.4 for o in vouched_by_index(shifted, weakly(shifted), 0.8,
                                                             scored))
    unsure = [replace(o, confidence=0.75) for o in before]
    assert all(o.confidence == 0.4 for o in vouched_by_index(unsure, weakly(before), 0.8,
                                                             scored))
    # Names the check withdrew or kept surely are left as they are.
    withdrawn = _unread(quads)
    assert vouched_by_index(before, withdrawn, 0.8, scored) is withdrawn
    assert vouched_by_index(before, before, 0.8, scored) is before
