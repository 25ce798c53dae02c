"""Correcting a played card: choose it, name the real card, confirm; or in one step."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.entry import Stage
from app.game_record import CAMERA, PERSON
from app.journal import Journal, Provenance
from app.notices import NoticeKind
from app.prompts import CorrectionPrompt, Pending, PlayCorrected, PlayedPrompt
from table import Card, CardCorrected, Seat
from table.hand import Play
from tests.app.partsrig import playing, seen


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path / "state" / "journal.sqlite") as opened:
        yield opened


def test_the_played_cards_open_only_once_a_card_is_played(journal: Journal) -> None:
    parts = playing(journal)
    parts.questions.entry.stage = Stage.SEAT
    notices = parts.correcting.open_played("correct a card")
    assert [(n.kind, n.message) for n in notices] == [
        (NoticeKind.REFUSED, "no card has been played yet")]
    assert not parts.questions.entry.partial and parts.questions.prompts == []
    seen(parts, "E JH")
    parts.correcting.open_played("correct a card")
    assert parts.correcting.open_played("again")[0].message == "again"
    assert parts.questions.prompts == [PlayedPrompt(1)]
    assert parts.correcting.show_hand(1)[0].kind is NoticeKind.PROMPT
    assert parts.correcting.show_hand(2)[0].message == "hand 2 cannot be corrected here"


def test_a_chosen_card_asks_for_the_real_one_and_a_missing_one_is_refused(
    journal: Journal,
) -> None:
    parts = playing(journal, "E JH")
    parts.correcting.open_played("correct a card")
    parts.questions.entry.stage = Stage.TRICK
    refused = parts.correcting.choose_played(1, 1, Seat.S)
    assert refused[0].message == "S has no card in trick 1 of hand 1"
    assert not parts.questions.entry.partial and parts.questions.prompts == [PlayedPrompt(1)]
    notices = parts.correcting.choose_played(1, 1, Seat.E)
    assert notices[0].message == "E's J♥ of trick 1: name the real card"
    assert parts.questions.prompts == [CorrectionPrompt(Play(1, 1, Seat.E, Card.parse("JH")))]


def test_a_confirmed_correction_is_journaled_with_the_cameras_reading(journal: Journal) -> None:
    parts = playing(journal, "E JH", "S 9H")
    prompt = CorrectionPrompt(Play(1, 1, Seat.E, Card.parse("JH")))
    parts.questions.ask(prompt)
    notices = parts.correcting.correct(prompt, Card.parse("QH"))
    assert [n.kind for n in notices] == [NoticeKind.ACCEPTED]
    assert parts.record.played_card(1, 1, Seat.E) == Card.parse("QH")
    record = journal.card_records(parts.record.game_id)[-1]
    assert record.event == CardCorrected(1, 1, Seat.E, Card.parse("QH"))
    assert record.provenance == Provenance(PERSON, "JH", 1, 1)
    assert parts.questions.prompts == []


def test_a_refused_correction_stays_on_the_screen_with_the_reason(journal: Journal) -> None:
    parts = playing(journal, "E JH", "S 9H")
    prompt = CorrectionPrompt(Play(1, 1, Seat.S, Card.parse("9H")), chosen=Card.parse("JH"))
    parts.questions.ask(prompt)
    notices = parts.correcting.correct(prompt, Card.parse("JH"))  # E played it already
    assert notices[0].kind is NoticeKind.REFUSED
    assert parts.questions.prompts == [
        CorrectionPrompt(prompt.play, chosen=None, refused=notices[0].message)]
    assert parts.record.played_card(1, 1, Seat.S) == Card.parse("9H")


def test_the_card_waiting_on_a_correction_is_played_after_it(journal: Journal) -> None:
    parts = playing(journal, "E JH")
    waiting = Pending(Seat.S, Card.parse("JH"), CAMERA, "JH")
    parts.questions.problems.already_played[Seat.S] = Card.parse("JH")
    prompt = CorrectionPrompt(Play(1, 1, Seat.E, Card.parse("JH")), then=waiting)
    parts.questions.ask(prompt)
    notices = parts.correcting.correct(prompt, Card.parse("KH"))
    assert [n.message for n in notices][1:] == ["S plays J♥"]
    assert not parts.questions.problems
    assert parts.record.state.hand.tricks[0].cards == [
        (Seat.E, Card.parse("KH")), (Seat.S, Card.parse("JH"))]


def test_the_page_corrects_in_one_step_and_a_refusal_leaves_the_screen_as_it_was(
    journal: Journal,
) -> None:
    parts = playing(journal, "E JH", "S 9H")
    parts.questions.ask(PlayedPrompt(1))
    wrong_hand = parts.correcting.correct_from_page(PlayCorrected(2, 1, Seat.E, Card.parse("QH")))
    assert wrong_hand[0].message == "hand 2 cannot be corrected here (hands: 1)"
    no_card = parts.correcting.correct_from_page(PlayCorrected(1, 1, Seat.W, Card.parse("QH")))
    assert no_card[0].message == "W has no card in trick 1 of hand 1"
    refused = parts.correcting.correct_from_page(PlayCorrected(1, 1, Seat.S, Card.parse("JH")))
    assert refused[0].kind is NoticeKind.REFUSED
    assert parts.questions.prompts == [PlayedPrompt(1)]
    done = parts.correcting.correct_from_page(PlayCorrected(1, 1, Seat.S, Card.parse("TH")))
    assert done[0].kind is NoticeKind.ACCEPTED
    assert parts.record.played_card(1, 1, Seat.S) == Card.parse("TH")
    assert parts.correcting.correctable_hands() == [1]
