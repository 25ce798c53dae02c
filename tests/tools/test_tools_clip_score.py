"""Scoring the tracker on labelled clips: rendered videos, and event streams scored directly."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.tools.card_clip import FPS, SPOTS, write_clip
from tools.clip_score import (
    AREAS,
    ClipError,
    ClipLabel,
    LabelledCard,
    area_zones,
    clip_areas,
    clip_frames,
    clip_labels,
    load_label,
    score_clip,
    summary,
    track_clip,
)
from vision.model import GlyphModel
from vision.tracker import CardEvent, EventKind

SHOWN = [("9S", "E"), ("AD", "W")]


@pytest.fixture(scope="module")
def model() -> GlyphModel:
    return GlyphModel.load()


def scored(label_path: Path, model: GlyphModel) -> dict[str, Any]:
    label = load_label(label_path)
    run = track_clip(label, model)
    score = score_clip(label, run.events)
    score.frames, score.cpu_s = run.frames, run.cpu_s
    return score.summary()


def test_cards_shown_and_labelled_are_named_right(tmp_path: Path, model: GlyphModel) -> None:
    figures = scored(write_clip(tmp_path, "both", SHOWN, SHOWN), model)
    assert (figures["cards"], figures["right"], figures["wrong"], figures["phantoms"],
            figures["missed"], figures["false_removals"]) == (2, 2, 0, 0, 0, 0)
    assert figures["frames"] == 14
    latency = figures["median_latency_s"]
    assert isinstance(latency, float) and 0.0 <= latency <= 1.0
    assert figures["euchre_cards"] == 2


def test_a_card_left_out_of_the_label_is_a_phantom(tmp_path: Path, model: GlyphModel) -> None:
    figures = scored(write_clip(tmp_path, "one", SHOWN, SHOWN[:1]), model)
    assert (figures["cards"], figures["right"], figures["phantoms"]) == (1, 1, 1)
    (phantom,) = figures["phantom_events"]
    assert phantom["at"] == pytest.approx(SPOTS["W"], abs=15)


def test_a_card_labelled_otherwise_counts_as_named_wrong(tmp_path: Path,
                                                         model: GlyphModel) -> None:
    figures = scored(write_clip(tmp_path, "wrong", SHOWN, [("9C", "E"), ("4D", "W")]), model)
    assert (figures["right"], figures["wrong_euchre"], figures["wrong_other"]) == (0, 1, 1)
    outcomes = {o["card"]: o for o in figures["outcomes"]}
    assert outcomes["9C"]["named"] == "9S" and outcomes["4D"]["named"] == "AD"
    assert outcomes["9C"]["euchre"] and not outcomes["4D"]["euchre"]


def label_of(*cards: LabelledCard) -> ClipLabel:
    return ClipLabel("scripted", Path("scripted.avi"), FPS, 640, 480, cards)


STILL = LabelledCard("QH", 1.0, None, (200.0, 240.0))
LEAVES = LabelledCard("6S", 1.0, 4.0, (460.0, 240.0))


def event(kind: EventKind, t: float, card: str | None, where: tuple[float, float],
          seat: str = "W") -> CardEvent:
    return CardEvent(kind, t, seat, card, 0.9, where)


def test_a_card_placed_unreadable_then_identified_is_named_right_with_its_latency() -> None:
    events = [event(EventKind.UNREADABLE, 1.3, None, (205.0, 242.0)),
              event(EventKind.IDENTIFIED, 2.5, "QH", (206.0, 243.0))]
    score = score_clip(label_of(STILL), events)
    (outcome,) = score.cards
    assert (outcome.outcome, outcome.latency_s, score.phantoms) == ("right", 1.5, [])


def test_unreadable_never_named_and_missed_cards_are_told_apart() -> None:
    events = [event(EventKind.UNREADABLE, 1.3, None, (205.0, 242.0))]
    score = score_clip(label_of(STILL, LEAVES), events)
    assert [o.outcome for o in score.cards] == ["unreadable", "missed"]
    assert summary("x", [score])["median_latency_s"] is None


def test_a_second_placement_of_a_lying_card_is_a_phantom() -> None:
    events = [event(EventKind.PLACED, 1.3, "QH", (205.0, 242.0)),
              event(EventKind.REMOVED, 2.0, "QH", (205.0, 242.0)),
              event(EventKind.PLACED, 2.6, "QH", (203.0, 240.0))]
    score = score_clip(label_of(STILL), events)
    assert [o.outcome for o in score.cards] == ["right"]
    assert [p.t for p in score.phantoms] == [2.6]
    assert summary("x", [score])["false_removals"] == 1


def test_a_removal_after_the_card_leaves_is_not_false() -> None:
    events = [event(EventKind.PLACED, 1.2, "6S", (455.0, 238.0), "E"),
              event(EventKind.REMOVED, 4.3, "6S", (455.0, 238.0), "E")]
    assert [o.false_removal for o in score_clip(label_of(LEAVES), events).cards] == [False]
    early = [events[0], event(EventKind.REMOVED, 3.0, "6S", (455.0, 238.0), "E")]
    assert [o.false_removal for o in score_clip(label_of(LEAVES), early).cards] == [True]


@pytest.mark.parametrize(("t", "where"), [
    (0.4, (205.0, 242.0)),  # before the card lies still (less the half second allowed)
    (1.3, (400.0, 420.0)),  # beyond 0.35 of the frame's short side from the card
])
def test_a_placement_too_early_or_too_far_is_a_phantom_and_the_card_is_missed(
        t: float, where: tuple[float, float]) -> None:
    score = score_clip(label_of(STILL), [event(EventKind.PLACED, t, "QH", where)])
    assert [o.outcome for o in score.cards] == ["missed"]
    assert len(score.phantoms) == 1


def test_a_wrong_name_given_later_makes_the_card_named_wrong() -> None:
    events = [event(EventKind.UNREADABLE, 1.3, None, (205.0, 242.0)),
              event(EventKind.IDENTIFIED, 2.0, "QD", (205.0, 242.0))]
    (outcome,) = score_clip(label_of(STILL), events).cards
    assert (outcome.outcome, outcome.named, outcome.label.is_euchre) == ("wrong", "QD", True)


def test_a_play_area_rectangle_leaves_the_rest_of_the_frame_out() -> None:
    zones = area_zones(690, 388, clip_areas()["greenfelt_webcam_01"])
    assert zones.seat_of((180.0, 110.0)) == "N" and zones.seat_of((180.0, 300.0)) == "S"
    assert zones.seat_of((550.0, 200.0)) is None
    whole = area_zones(690, 388)
    assert whole.seat_of((550.0, 200.0)) == "E" and whole.seat_of((2.0, 2.0)) is not None
    assert AREAS.exists()


def test_bad_label_files_and_folders_are_named(tmp_path: Path) -> None:
    with pytest.raises(ClipError, match="no such folder"):
        clip_labels(tmp_path / "nowhere")
    with pytest.raises(ClipError, match="no label files"):
        clip_labels(tmp_path)
    path = write_clip(tmp_path, "good", SHOWN[:1], SHOWN[:1], frames=4)
    with pytest.raises(ClipError, match="no label file for absent"):
        clip_labels(tmp_path, ["absent"])
    data = json.loads(path.read_text())
    spoils: list[tuple[Callable[[dict[str, Any]], object], str]] = [
        (lambda d: d.pop("file"), "'file'"),
        (lambda d: d["video"].pop("fps"), "'fps'"),
        (lambda d: d["cards"][0].pop("leaves_s"), "'leaves_s'"),
        (lambda d: d["cards"][0].update(pos_xy=[1]), "pos_xy")]
    for spoil, problem in spoils:
        broken = json.loads(json.dumps(data))
        spoil(broken)
        path.write_text(json.dumps(broken))
        with pytest.raises(ClipError, match=problem):
            clip_labels(tmp_path)
    path.write_text("{not json")
    with pytest.raises(ClipError, match=r"good\.json: not JSON"):
        clip_labels(tmp_path)


def test_a_video_that_does_not_decode_is_named(tmp_path: Path) -> None:
    path = write_clip(tmp_path, "clip", SHOWN[:1], SHOWN[:1], frames=4)
    label = load_label(path)
    assert [t for t, _ in clip_frames(label)] == [i / FPS for i in range(4)]
    (tmp_path / "clip.avi").write_bytes(b"not a video at all" * 50)
    with pytest.raises(ClipError, match=r"clip\.avi: (does not decode|decodes to no frame)"):
        list(clip_frames(label))
    (tmp_path / "clip.avi").unlink()
    with pytest.raises(ClipError, match="no such video"):
        list(clip_frames(label))
