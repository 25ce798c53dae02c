"""The prompts: their values are checked, and each is drawn readably at every screen size."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from collections.abc import Callable
from dataclasses import replace

import pygame
import pytest

from display.cards import JOKER, Trick
from display.errors import ViewError
from display.layout import layout_for
from display.prompt_layout import prompt_geometry
from display.prompts import (
    CardPick,
    CorrectionPick,
    MisreadQuestion,
    PlayedPicker,
    Prompt,
    SuspectPrompt,
    card_choices,
)
from display.render import render
from display.samples import RENEGE, prompt_views, sample_views
from display.style import Style
from display.targets import PickCard, PlayedCell, PromptButton
from display.view import Phase, View
from display.wording import card_text

SIZES = [(800, 480), (1920, 1080)]
PROMPTS = prompt_views()
ids = lambda size: f"{size[0]}x{size[1]}"  # noqa: E731


def test_card_choices_are_the_24_cards_once_each_and_the_joker_when_in_play() -> None:
    cards = card_choices()
    assert len(cards) == 24 == len(set(cards))
    assert {card[0] for card in cards} == set("9TJQKA")
    assert {card[1] for card in cards} == set("CDHS")
    assert card_choices(joker=True) == (*cards, JOKER)


BAD_PROMPTS: list[Callable[[], object]] = [
    lambda: CardPick("W", "unreadable", ("JH", "1H")),
    lambda: CardPick("W", "unreadable", ("JH", "JH")),
    lambda: CardPick("W", "unreadable", ()),
    lambda: CardPick("X"),
    lambda: CardPick("W", "guessed"),
    lambda: CorrectionPick(3, 2, "E", "ZZ"),
    lambda: CorrectionPick(3, 2, "E", "JH", chosen="JX"),
    lambda: CorrectionPick(3, 2, "E", "JH", chosen="JK"),
    lambda: CorrectionPick(0, 2, "E", "JH"),
    lambda: CorrectionPick(3, 0, "E", "JH"),
    lambda: PlayedPicker(3, (Trick(1, "E", (("E", "J"),)),)),
    lambda: PlayedPicker(3, (Trick(1, "E"), Trick(1, "S"))),
    lambda: PlayedPicker(0),
    lambda: SuspectPrompt("10H", "W", 3, 1, "N"),
    lambda: SuspectPrompt("QS", "W", 3, 1, "Q"),
    lambda: MisreadQuestion("W", 2, "C", "9X", 4, "KC"),
    lambda: MisreadQuestion("W", 2, "X", "9H", 4, "KC"),
    lambda: View(phase=Phase.PLAY, dealer="N", prompt="JH"),  # type: ignore[arg-type]
    lambda: View(phase=Phase.BIDDING, dealer="N", legal_bids=(2, "double")),
]


@pytest.mark.parametrize("build", BAD_PROMPTS)
def test_a_prompt_with_a_value_outside_the_log_notation_is_refused(
    build: Callable[[], object],
) -> None:
    with pytest.raises(ViewError):
        build()


def test_a_misread_question_carries_the_renege_it_asks_about() -> None:
    question = MisreadQuestion.of(RENEGE)
    assert question.renege == RENEGE
    assert (question.seat, question.trick, question.led) == ("W", 2, "C")
    assert (question.proved_by_trick, question.proved_by_card) == (4, "KC")


def test_every_existing_view_has_no_prompt() -> None:
    samples = sample_views()
    assert all(samples[name].prompt is None for name in samples if name not in PROMPTS)
    assert {type(view.prompt) for view in PROMPTS.values()} == {
        CardPick, CorrectionPick, PlayedPicker, SuspectPrompt, MisreadQuestion}


@pytest.mark.parametrize("size", SIZES, ids=ids)
@pytest.mark.parametrize("name", list(PROMPTS))
def test_every_prompt_draws_its_texts_inside_the_screen_and_legible(
    name: str, size: tuple[int, int]
) -> None:
    surface = pygame.Surface(size)
    placed = render(PROMPTS[name], surface)
    floor = int(12 * min(size[0] / 800, size[1] / 480))
    for text in placed:
        assert surface.get_rect().contains(text.box)
        assert text.box.contains(text.rect), f"{text.text!r} runs outside its box"
        assert text.size >= floor, f"{text.text!r} shrank to {text.size}px"


@pytest.mark.parametrize("size", SIZES, ids=ids)
@pytest.mark.parametrize("name", list(PROMPTS))
def test_every_target_of_a_prompt_is_a_big_separate_patch_on_its_panel(
    name: str, size: tuple[int, int]
) -> None:
    prompt = PROMPTS[name].prompt
    assert prompt is not None
    geometry = prompt_geometry(prompt, layout_for(*size))
    scale = min(size[0] / 800, size[1] / 480)
    smallest = 48 if len(geometry.spots) <= 26 else 36  # a twelve-trick double-deck hand
    for index, spot in enumerate(geometry.spots):
        assert geometry.panel.contains(spot.rect)
        assert min(spot.rect.size) >= smallest * scale, f"{spot.target} is {spot.rect.size}"
        for other in geometry.spots[index + 1:]:
            assert not spot.rect.colliderect(other.rect), f"{spot.target} overlaps {other.target}"


@pytest.mark.parametrize("size", SIZES, ids=ids)
@pytest.mark.parametrize("name", list(PROMPTS))
def test_each_card_and_button_label_is_drawn_on_its_own_target(
    name: str, size: tuple[int, int]
) -> None:
    view = PROMPTS[name]
    prompt = view.prompt
    assert prompt is not None
    placed = render(view, pygame.Surface(size))
    for spot in prompt_geometry(prompt, layout_for(*size)).spots:
        inside = [text.text for text in placed if spot.rect.contains(text.rect)]
        assert inside, f"nothing drawn on {spot.target}"
        target = spot.target
        if isinstance(target, PickCard) and target.card != JOKER:
            assert inside == [card_text(target.card)]
        elif isinstance(target, PlayedCell) and isinstance(prompt, PlayedPicker):
            card = prompt.card_at(target.trick, target.seat)
            assert card is not None and inside == [card_text(card)]
        elif isinstance(target, PromptButton):
            assert len(inside) == 1 and inside[0].rstrip("?").replace(" IT", "") == \
                target.name.upper()


def texts_of(view: View, size: tuple[int, int] = (800, 480)) -> list[str]:
    return [text.text for text in render(view, pygame.Surface(size))]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("pick-card", ["Name the card at W Dan", "The camera cannot read it: tap the card it is"]),
        ("pick-card-joker", ["Name the card at E Bob", "Tap the card lying there", "JOKER"]),
        ("correct-card", ["Correct hand 3, trick 1: N Ann",
                          "Recorded Q♠: tap the card it really was"]),
        ("correct-card-chosen", ["Recorded Q♠, now Q♣: press CONFIRM", "CONFIRM"]),
        ("played-picker", ["Correct a card of hand 3", "HAND 2", "CANCEL", "N", "E", "S", "W"]),
        ("suspect", ["Q♠ seen again, at W Dan",
                     "Q♠ was already recorded for N\u00a0Ann in trick 1.\nMisread there?",
                     "CORRECT IT", "NO"]),
        ("misread-question", ["RENEGE: W Dan", "OK", "MISREAD?"]),
    ],
)
def test_each_prompt_says_what_it_asks(name: str, expected: list[str]) -> None:
    texts = texts_of(PROMPTS[name])
    for text in expected:
        assert text in texts


def test_the_misread_question_shows_the_evidence_of_the_renege() -> None:
    texts = " ".join(texts_of(PROMPTS["misread-question"]))
    assert "Trick 2: ♣ led, W played 9♥. K♣ in trick 4 proves it." in texts
    assert "EW lose 2 points. A card misread? Tap MISREAD?" in texts


def test_a_suspect_in_an_earlier_hand_names_that_hand() -> None:
    view = PROMPTS["suspect"]
    assert isinstance(view.prompt, SuspectPrompt)
    earlier = replace(view, prompt=replace(view.prompt, earlier_hand=2, earlier_trick=5))
    assert any("in hand 2, trick 5." in text for text in texts_of(earlier))


def test_the_correction_offers_confirm_only_once_a_card_is_chosen() -> None:
    assert "CONFIRM" not in texts_of(PROMPTS["correct-card"])
    assert "CONFIRM" in texts_of(PROMPTS["correct-card-chosen"])


def test_a_pick_without_the_joker_draws_no_joker() -> None:
    assert "JOKER" not in texts_of(PROMPTS["pick-card"])


def test_a_pick_of_some_cards_draws_only_those() -> None:
    pick: Prompt = CardPick("N", "asked", ("JH", "JD", JOKER))
    texts = texts_of(replace(PROMPTS["pick-card"], prompt=pick))
    drawn = [text for text in texts if text in {card_text(card) for card in card_choices()}]
    assert sorted(drawn) == sorted([card_text("JH"), card_text("JD")])
    assert "JOKER" in texts


@pytest.mark.parametrize("size", SIZES, ids=ids)
def test_a_full_pick_hides_the_game_buttons_but_keeps_the_scores(size: tuple[int, int]) -> None:
    texts = texts_of(PROMPTS["pick-card"], size)
    assert "12" in texts and "9" in texts
    assert "UNDO" not in texts and "W Dan to play" not in texts


@pytest.mark.parametrize("size", SIZES, ids=ids)
def test_a_suspect_leaves_the_contract_and_the_status_in_sight(size: tuple[int, int]) -> None:
    texts = texts_of(PROMPTS["suspect"], size)
    assert "E Bob bid 4" in texts and "W Dan to play" in texts
    assert "UNDO" not in texts


def test_the_misread_question_flashes_while_the_alarm_runs_and_then_stays_red() -> None:
    layout = layout_for(800, 480)
    view = PROMPTS["misread-question"]
    point = (layout.below_scores.x + 2 * layout.gap, layout.middle.centery)
    surface = pygame.Surface((800, 480))
    style = Style()
    colours = []
    for now in (0.0, 0.3):
        render(view, surface, now=now)
        colours.append(tuple(surface.get_at(point))[:3])
    assert colours == [style.alarm, style.alarm_dim]
    render(replace(view, alarm=None), surface, now=0.3)
    assert tuple(surface.get_at(point))[:3] == style.alarm


def test_a_touched_target_is_drawn_pressed() -> None:
    view = PROMPTS["pick-card"]
    assert view.prompt is not None
    spot = prompt_geometry(view.prompt, layout_for(800, 480)).spots[0]
    corner = (spot.rect.x + spot.rect.width // 8, spot.rect.centery)
    surface = pygame.Surface((800, 480))
    render(view, surface)
    assert tuple(surface.get_at(corner))[:3] == Style().card
    render(view, surface, touched=spot.target)
    assert tuple(surface.get_at(corner))[:3] == Style().button_pressed
