"""Learning a deck from the camera: cards shown one at a time in recorded frames."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from app.cli import main
from app.enrol_camera import DECK_ORDER, CameraEnrolment, Step, card_label, enrolment_cards
from tools.scenes import paste_card, plain_card, table_background
from vision.cards import Image
from vision.errors import CardNameError
from vision.model import GlyphModel

SIZE = (640, 480)


def house_joker() -> Image:
    """A joker unlike the shipped artwork's: a purple disc and a word on white."""
    card = np.full((490, 338, 3), 250, np.uint8)
    cv2.circle(card, (169, 230), 120, (160, 40, 120), -1)
    cv2.putText(card, "JOKER", (40, 470), cv2.FONT_HERSHEY_TRIPLEX, 1.8, (20, 20, 20), 3)
    cv2.rectangle(card, (0, 0), (337, 489), (150, 150, 150), 3)
    return card


def face(name: str) -> Image:
    """The face of a card of the house deck: standard indices, and the house joker."""
    if name == "JK":
        return house_joker()
    return plain_card("10" if name[0] == "T" else name[0], name[1])


def shown(names: list[str], hold: int = 6, gap: int = 3) -> list[Image]:
    """Frames of a table where each card is laid down, held still a moment, and taken away."""
    empty = table_background(*SIZE, seed=11)
    frames = [empty] * gap
    for number, name in enumerate(names):
        frame = empty.copy()
        paste_card(frame, face(name), (320 + 3 * number, 240), 420, 4 + number)
        frames += [frame] * hold + [empty] * gap
    return frames


def run(enrolment: CameraEnrolment, frames: list[Image]) -> list[tuple[Step, str | None]]:
    """Feed every frame; the prompts given, in order."""
    prompts = []
    for frame in frames:
        prompts += [(p.step, p.card) for p in enrolment.feed(frame)]
    return prompts


def test_each_card_is_asked_for_taken_when_still_and_the_next_asked_for() -> None:
    enrolment = CameraEnrolment(["9C", "TD", "JK"], GlyphModel.load())
    prompts = run(enrolment, shown(["9C", "TD", "JK"]))
    assert prompts == [
        (Step.SHOW, "9C"), (Step.TAKEN, "9C"), (Step.SHOW, "TD"), (Step.TAKEN, "TD"),
        (Step.SHOW, "JK"), (Step.TAKEN, "JK"), (Step.DONE, None),
    ]
    profile = enrolment.profile()
    assert sorted(set(profile.ranks.labels)) == ["9", "T"]
    assert list(profile.faces.names) == ["9C", "TD", "JK"]


def test_a_card_taken_away_too_soon_is_not_learnt() -> None:
    enrolment = CameraEnrolment(["9C"], GlyphModel.load())
    assert run(enrolment, shown(["9C"], hold=2)) == [(Step.SHOW, "9C")]
    assert enrolment.missing == ["9C"] and not enrolment.learnt


def test_two_cards_at_once_are_refused_with_one_message() -> None:
    enrolment = CameraEnrolment(["9C"], GlyphModel.load())
    empty = table_background(*SIZE, seed=11)
    both = empty.copy()
    paste_card(both, face("9C"), (170, 240), 300, 0)
    paste_card(both, face("KS"), (470, 240), 300, 0)
    prompts = run(enrolment, [empty] * 3 + [both] * 8)
    assert prompts == [(Step.SHOW, "9C"), (Step.ONE_AT_A_TIME, "9C")]
    assert not enrolment.learnt


def test_the_wrong_card_is_refused_once_then_taken_if_shown_again() -> None:
    enrolment = CameraEnrolment(["9C", "TD"], GlyphModel.load())
    prompts = run(enrolment, shown(["KS", "9C", "KH", "KH"]))
    assert prompts == [
        (Step.SHOW, "9C"), (Step.WRONG_CARD, "9C"), (Step.SHOW, "9C"), (Step.TAKEN, "9C"),
        (Step.SHOW, "TD"), (Step.WRONG_CARD, "TD"), (Step.SHOW, "TD"), (Step.TAKEN, "TD"),
        (Step.DONE, None),
    ]
    assert enrolment.learnt == ["9C", "TD"]


def test_card_lists_and_labels() -> None:
    assert enrolment_cards(None) == list(DECK_ORDER) and len(DECK_ORDER) == 25
    assert enrolment_cards("9c, 10H,joker") == ["9C", "TH", "JK"]
    with pytest.raises(CardNameError, match="XX"):
        enrolment_cards("9C,XX")
    assert [card_label(n) for n in ("TH", "JC", "JK")] == ["10♥", "J♣", "joker"]


def write_frames(folder: Path, frames: list[Image]) -> None:
    """A recording as a folder of numbered PNG frames."""
    folder.mkdir()
    for number, frame in enumerate(frames):
        cv2.imwrite(str(folder / f"{number:04d}.png"), frame)


def test_enroll_from_a_recorded_camera_writes_a_profile_that_reads_the_joker(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_frames(tmp_path / "frames", shown(["QH", "JK"]))
    profile = tmp_path / "deck.npz"
    assert main(["deck", "enroll", "--camera", f"recorded:{tmp_path / 'frames'}",
                 "--cards", "QH,JK", "--out", str(profile)]) == 0
    out = capsys.readouterr().out
    assert "show the Q♥ (1 of 2)" in out and "joker learnt" in out and "all 2 cards" in out
    scene = table_background(900, 480, seed=5)
    paste_card(scene, face("QH"), (250, 240), 320, 8)
    paste_card(scene, house_joker(), (650, 240), 320, -170)
    cv2.imwrite(str(tmp_path / "scene.png"), scene)
    assert main(["vision", "detect", str(tmp_path / "scene.png"), "--json",
                 "--deck", str(profile)]) == 0
    line = json.loads(capsys.readouterr().out)
    assert sorted(c["card"] for c in line["cards"]) == ["JK", "QH"]


def test_a_recording_that_ends_early_keeps_what_was_learnt_and_names_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_frames(tmp_path / "frames", shown(["9S"]))
    profile = tmp_path / "deck.npz"
    assert main(["deck", "enroll", "--camera", str(tmp_path / "frames"),
                 "--cards", "9S,AS", "--out", str(profile)]) == 1
    err = capsys.readouterr().err
    assert "recording ended" in err and "not learnt: A♠" in err
    assert list(GlyphModel.load(profile).faces.names) == ["9S"]
    write_frames(tmp_path / "more", shown(["AS"]))
    assert main(["deck", "enroll", "--camera", str(tmp_path / "more"), "--cards", "AS",
                 "--add", "--out", str(profile)]) == 0
    assert list(GlyphModel.load(profile).faces.names) == ["9S", "AS"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["deck", "enroll", "--out", "p.npz"], "either a FOLDER"),
        (["deck", "enroll", "photos", "--camera", "usb", "--out", "p.npz"], "either a FOLDER"),
        (["deck", "enroll", "--camera", "recorded:/no/such/place", "--out", "p.npz"],
         "/no/such/place"),
        (["deck", "enroll", "--camera", "usb", "--cards", "9C,1Z", "--out", "p.npz"], "1Z"),
    ],
)
def test_enroll_problems_are_named(argv: list[str], message: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err
