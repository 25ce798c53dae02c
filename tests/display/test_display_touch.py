"""hit_test: a tap on what the screen draws gives its target, and a tap elsewhere gives None."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from dataclasses import replace

import pygame
import pytest

from display.cards import SEATS
from display.errors import ViewError
from display.layout import layout_for
from display.prompt_layout import prompt_geometry
from display.prompts import CardPick, CorrectionPick, PlayedPicker, card_choices
from display.render import render
from display.samples import played_tricks, prompt_views, sample_views
from display.touch import (
    AskCard,
    OpenCorrection,
    PickCard,
    PlayedCell,
    PromptButton,
    ScreenButton,
    ShowHand,
    TouchTarget,
    hit_test,
)
from display.view import Problem, ProblemKind, View
from display.wording import card_text

SIZES = [(800, 480), (1920, 1080), (1024, 600)]
SAMPLES = sample_views()
PROMPTS = prompt_views()
ids = lambda size: f"{size[0]}x{size[1]}"  # noqa: E731


def centre_of_drawn(view: View, size: tuple[int, int], text: str) -> tuple[int, int]:
    """The centre of where `text` was drawn: the point a player's finger goes to."""
    placed = render(view, pygame.Surface(size))
    found = [item for item in placed if item.text == text]
    assert len(found) == 1, f"{text!r} drawn {len(found)} times"
    return found[0].rect.center


@pytest.mark.parametrize("size", SIZES, ids=ids)
def test_a_tap_on_each_drawn_card_of_the_pick_names_that_card(size: tuple[int, int]) -> None:
    view = PROMPTS["pick-card-joker"]
    for card in card_choices(joker=False):
        pos = centre_of_drawn(view, size, card_text(card))
        assert hit_test(view, size, pos) == PickCard(card)
    assert hit_test(view, size, centre_of_drawn(view, size, "JOKER")) == PickCard("JK")
    assert hit_test(view, size, centre_of_drawn(view, size, "★")) == PickCard("JK")


@pytest.mark.parametrize("size", SIZES, ids=ids)
@pytest.mark.parametrize("name", list(PROMPTS))
def test_the_centre_of_every_target_gives_that_target(name: str, size: tuple[int, int]) -> None:
    view = PROMPTS[name]
    assert view.prompt is not None
    spots = prompt_geometry(view.prompt, layout_for(*size)).spots
    assert spots
    for spot in spots:
        assert hit_test(view, size, spot.rect.center) == spot.target
        assert hit_test(view, size, spot.rect.topleft) == spot.target


@pytest.mark.parametrize("size", SIZES, ids=ids)
def test_each_pick_has_its_buttons(size: tuple[int, int]) -> None:
    def targets(view: View) -> set[TouchTarget]:
        assert view.prompt is not None
        return {spot.target for spot in prompt_geometry(view.prompt, layout_for(*size)).spots}

    assert targets(PROMPTS["pick-card"]) == {PickCard(card) for card in card_choices()} | {
        PromptButton("cancel")}
    assert PickCard("JK") in targets(PROMPTS["pick-card-joker"])
    assert PromptButton("confirm") not in targets(PROMPTS["correct-card"])
    assert PromptButton("confirm") in targets(PROMPTS["correct-card-chosen"])
    assert targets(PROMPTS["suspect"]) == {PromptButton("correct"), PromptButton("no")}
    assert targets(PROMPTS["misread-question"]) == {PromptButton("ok"), PromptButton("misread")}
    picker = targets(PROMPTS["played-picker"])
    assert {ShowHand(2), PromptButton("cancel")} <= picker
    cells = {target for target in picker if isinstance(target, PlayedCell)}
    expected = {PlayedCell(3, trick.number, seat) for trick in played_tricks()
                for seat, _ in trick.cards}
    assert cells == expected and len(cells) == 10


@pytest.mark.parametrize("size", SIZES, ids=ids)
def test_a_tap_on_a_drawn_recorded_card_picks_that_play(size: tuple[int, int]) -> None:
    view = PROMPTS["played-picker"]
    for trick in played_tricks():
        for seat, card in trick.cards:
            pos = centre_of_drawn(view, size, card_text(card))
            assert hit_test(view, size, pos) == PlayedCell(3, trick.number, seat)


@pytest.mark.parametrize("size", SIZES, ids=ids)
def test_the_buttons_of_the_prompts_answer_where_their_labels_are(size: tuple[int, int]) -> None:
    cases = [("correct-card-chosen", "CONFIRM", PromptButton("confirm")),
             ("correct-card-chosen", "CANCEL", PromptButton("cancel")),
             ("pick-card", "CANCEL", PromptButton("cancel")),
             ("played-picker", "HAND 2", ShowHand(2)),
             ("suspect", "CORRECT IT", PromptButton("correct")),
             ("suspect", "NO", PromptButton("no")),
             ("misread-question", "OK", PromptButton("ok")),
             ("misread-question", "MISREAD?", PromptButton("misread"))]
    for name, label, target in cases:
        view = PROMPTS[name]
        assert hit_test(view, size, centre_of_drawn(view, size, label)) == target, label


@pytest.mark.parametrize("size", SIZES, ids=ids)
@pytest.mark.parametrize("name", list(PROMPTS))
def test_a_tap_off_every_target_gives_nothing(name: str, size: tuple[int, int]) -> None:
    view = PROMPTS[name]
    assert view.prompt is not None
    geometry = prompt_geometry(view.prompt, layout_for(*size))
    layout = layout_for(*size)
    misses = [(2, 2), (size[0] - 2, size[1] - 2), layout.score_ns.center,
              geometry.bands[0].center]
    misses += [(spot.rect.right + 1, spot.rect.bottom + 1) for spot in geometry.spots]
    for pos in misses:
        if not any(spot.rect.collidepoint(pos) for spot in geometry.spots):
            assert hit_test(view, size, pos) is None, pos


@pytest.mark.parametrize("size", SIZES, ids=ids)
def test_with_a_prompt_up_the_game_buttons_do_not_answer(size: tuple[int, int]) -> None:
    layout = layout_for(*size)
    for name in ("pick-card", "suspect", "played-picker"):
        for rect in (layout.ok_button, layout.undo_button, layout.correct_button):
            target = hit_test(PROMPTS[name], size, rect.center)
            assert not isinstance(target, ScreenButton | OpenCorrection)


@pytest.mark.parametrize("size", SIZES, ids=ids)
@pytest.mark.parametrize("name", ["bidding", "trick", "hand-end", "game-over", "renege-alarm"])
def test_the_game_screen_has_ok_undo_and_correct(name: str, size: tuple[int, int]) -> None:
    view = SAMPLES[name]
    assert hit_test(view, size, centre_of_drawn(view, size, "OK")) == ScreenButton("ok")
    assert hit_test(view, size, centre_of_drawn(view, size, "UNDO")) == ScreenButton("undo")
    assert hit_test(view, size, centre_of_drawn(view, size, "CORRECT")) == OpenCorrection()
    assert hit_test(view, size, layout_for(*size).score_ew.center) is None


@pytest.mark.parametrize("size", SIZES, ids=ids)
def test_during_play_a_tap_on_a_seat_card_place_asks_to_name_its_card(
    size: tuple[int, int],
) -> None:
    slots = layout_for(*size).seats
    for seat in SEATS:
        pos = slots[seat].card.center
        assert hit_test(SAMPLES["trick"], size, pos) == AskCard(seat)
        assert hit_test(SAMPLES["bidding"], size, pos) is None
        assert hit_test(SAMPLES["already-played"], size, pos) is None
        assert hit_test(SAMPLES["renege-alarm"], size, pos) is None
    moon = SAMPLES["contract-moon"]
    assert hit_test(moon, size, slots["W"].card.center) is None  # W sits out
    assert hit_test(moon, size, slots["E"].card.center) == AskCard("E")


def test_hit_test_is_pure() -> None:
    view = PROMPTS["pick-card"]
    pos = centre_of_drawn(view, (800, 480), card_text("QH"))
    assert [hit_test(view, (800, 480), pos) for _ in range(3)] == [PickCard("QH")] * 3


def test_a_correction_pick_answers_confirm_only_after_a_choice() -> None:
    size = (800, 480)
    chosen = PROMPTS["correct-card-chosen"]
    assert isinstance(chosen.prompt, CorrectionPick)
    pos = centre_of_drawn(chosen, size, "CONFIRM")
    assert hit_test(chosen, size, pos) == PromptButton("confirm")
    assert hit_test(replace(chosen, prompt=replace(chosen.prompt, chosen=None)), size, pos) is None


def test_a_picker_without_another_hand_has_no_hand_button() -> None:
    view = PROMPTS["played-picker"]
    alone = replace(view, prompt=PlayedPicker(3, played_tricks()))
    targets = {spot.target for spot in
               prompt_geometry(alone.prompt, layout_for(800, 480)).spots}  # type: ignore[arg-type]
    assert not any(isinstance(target, ShowHand) for target in targets)


@pytest.mark.parametrize("build", [lambda: PickCard("XX"), lambda: PromptButton("maybe"),
                                   lambda: PlayedCell(1, 1, "Z"), lambda: AskCard("NE"),
                                   lambda: ScreenButton("quit")])
def test_a_target_outside_the_notation_is_refused(build: object) -> None:
    with pytest.raises(ViewError):
        build()  # type: ignore[operator]


def test_a_pick_offering_fewer_cards_answers_only_those() -> None:
    view = replace(PROMPTS["pick-card"], prompt=CardPick("N", "asked", ("JH", "JD")))
    full = PROMPTS["pick-card"]
    pos = centre_of_drawn(full, (800, 480), card_text("QH"))
    assert hit_test(view, (800, 480), pos) is None
    assert hit_test(view, (800, 480), centre_of_drawn(view, (800, 480), card_text("JH"))) == \
        PickCard("JH")


@pytest.mark.parametrize("size", SIZES, ids=ids)
def test_a_tap_on_an_unreadable_card_problem_asks_to_name_that_card(size: tuple[int, int]) -> None:
    view = SAMPLES["unreadable-card"]
    headline = centre_of_drawn(view, size, "Card at W Dan unreadable")
    assert hit_test(view, size, headline) == AskCard("W")
    problems = (Problem(ProblemKind.DISCONNECTED, device="camera"),
                Problem(ProblemKind.UNREADABLE_CARD, seat="S"))
    both = replace(view, problems=problems)
    assert hit_test(both, size, centre_of_drawn(both, size, "Card at S Cat unreadable")) == \
        AskCard("S")
    assert hit_test(both, size, centre_of_drawn(both, size, "Camera disconnected")) is None
    other = SAMPLES["already-played"]
    assert hit_test(other, size, layout_for(*size).problem_area.center) is None
