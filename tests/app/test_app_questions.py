"""The open questions: prompts on the screen, held cards, and putting them all back."""

from __future__ import annotations

from app.entry import Stage
from app.prompts import Pending, PickPrompt, PickReason, PlayedPrompt
from app.questions import Questions
from drivers import inputs
from table import Card, Seat


def test_the_prompt_asked_last_is_on_the_screen_and_close_takes_only_those_chosen() -> None:
    questions = Questions()
    assert questions.prompt is None
    questions.ask(PickPrompt(Seat.E, PickReason.UNREADABLE))
    questions.ask(PlayedPrompt(1))
    questions.ask(PickPrompt(Seat.S, PickReason.ASKED))
    assert questions.prompt == PickPrompt(Seat.S, PickReason.ASKED)
    questions.close(lambda p: isinstance(p, PickPrompt))
    assert questions.prompts == [PlayedPrompt(1)]


def test_a_held_card_replaced_tells_which_and_let_go_forgets_it() -> None:
    questions = Questions()
    first = Pending(Seat.S, Card.parse("9H"), "camera", "9H")
    second = Pending(Seat.S, Card.parse("TH"), "person", None)
    assert questions.hold(first, 1) is None
    assert questions.hold(second, 2) == Card.parse("9H")
    assert questions.held == {Seat.S: Card.parse("TH")}
    assert questions.held_from == {Seat.S: second} and questions.held_hand == 2
    questions.let_go(Seat.S)
    assert questions.held == {} and questions.held_from == {}


def test_forget_drops_held_cards_problems_prompts_entry_and_names_not_a_proposal() -> None:
    questions = Questions(proposal=inputs.BidPressed(None, 4))
    questions.hold(Pending(Seat.W, Card.parse("AS"), "camera", "AS"), 1)
    questions.problems.unreadable_since[Seat.E] = 1.0
    questions.ask(PlayedPrompt(1))
    questions.entry.stage = Stage.CARD
    questions.named.add(Seat.E)
    questions.forget()
    assert not questions.held and not questions.held_from and not questions.problems
    assert questions.prompts == [] and not questions.entry.partial and not questions.named
    assert questions.proposal == inputs.BidPressed(None, 4)


def test_restore_puts_every_question_back_in_place_from_an_independent_snapshot() -> None:
    questions = Questions()
    questions.ask(PlayedPrompt(1))
    questions.problems.out_of_turn[Seat.N] = Card.parse("KD")
    before = questions.snapshot()
    questions.ask(PickPrompt(Seat.E, PickReason.ASKED))
    questions.problems.out_of_turn[Seat.E] = Card.parse("QD")
    questions.entry.stage = Stage.SEAT
    questions.entry_seat = Seat.W
    questions.proposal = inputs.TrumpPressed(None, "S")
    assert before.prompts == [PlayedPrompt(1)]  # the snapshot did not follow the changes
    same = questions
    questions.restore(before)
    assert questions is same
    assert questions.prompts == [PlayedPrompt(1)]
    assert questions.problems.out_of_turn == {Seat.N: Card.parse("KD")}
    assert questions.entry.stage is Stage.NONE and questions.entry_seat is None
    assert questions.proposal is None
