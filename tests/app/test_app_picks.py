"""Cards asked for by name, named, and the answers given to the screen's prompts."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.entry import Stage
from app.game_record import PERSON
from app.journal import UNREADABLE, Journal, Provenance
from app.notices import NoticeKind
from app.prompts import (
    Answer,
    CorrectionPrompt,
    MisreadPrompt,
    PickPrompt,
    PickReason,
    SeatCardNamed,
)
from table import JOKER, Card, Rules, Seat, Suit
from table.hand import Play, Renege
from tests.app.partsrig import bid_hand, playing, seen, wire


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path / "state" / "journal.sqlite") as opened:
        yield opened


def test_the_pick_opens_for_the_seat_asked_an_unreadable_seat_or_the_seat_in_turn(
    journal: Journal,
) -> None:
    parts = wire(journal)
    parts.questions.entry.stage = Stage.CARD
    assert parts.picks.ask_name(None)[0].message == "no card to name now"  # still bidding
    assert not parts.questions.entry.partial
    bid_hand(parts.intake)
    assert parts.picks.ask_name(None)[0].message == "E: name the card"
    assert parts.questions.prompts == [PickPrompt(Seat.E, PickReason.ASKED)]
    assert parts.picks.ask_name(None)[0].kind is NoticeKind.ENTRY  # the pick is open already
    parts.questions.problems.unreadable_since[Seat.W] = 100.0
    parts.picks.ask_name(Seat.W)
    assert parts.questions.prompt == PickPrompt(Seat.W, PickReason.UNREADABLE)


def test_a_card_named_for_an_unreadable_card_is_played_as_named_by_a_person(
    journal: Journal,
) -> None:
    parts = playing(journal)
    parts.questions.problems.unreadable_since[Seat.E] = 100.0
    parts.picks.ask_name(None)
    notices = parts.picks.card_named(Card.parse("JH"), None)
    assert [n.message for n in notices] == ["E plays J♥"]
    assert parts.questions.named == {Seat.E} and not parts.questions.problems
    assert parts.questions.prompts == []
    record = journal.card_records(parts.record.game_id)[-1]
    assert record.provenance == Provenance(PERSON, UNREADABLE, 1, 1)
    again = parts.picks.name_at(Card.parse("JH"), Seat.E)
    assert again[0].message == "E's J♥ is recorded already"


def test_a_card_named_during_a_correction_is_chosen_not_played(journal: Journal) -> None:
    parts = playing(journal, "E JH")
    play = Play(1, 1, Seat.E, Card.parse("JH"))
    parts.questions.ask(CorrectionPrompt(play, refused="an earlier refusal"))
    notices = parts.picks.card_named(Card.parse("QH"), None)
    assert notices[0].message == "E's card of trick 1 was Q♥? OK to confirm"
    assert parts.questions.prompts == [CorrectionPrompt(play, chosen=Card.parse("QH"))]
    assert parts.record.played_card(1, 1, Seat.E) == Card.parse("JH")
    assert parts.picks.answer(Answer.OK)[0].kind is NoticeKind.ACCEPTED
    assert parts.record.played_card(1, 1, Seat.E) == Card.parse("QH")


def test_a_card_named_with_no_seat_to_name_it_for_is_refused(journal: Journal) -> None:
    parts = wire(journal)
    notices = parts.picks.card_named(Card.parse("JH"), None)
    assert notices[0].message == "no card to name now: J♥ not recorded"


def test_no_to_a_suspect_reading_asks_for_the_card_and_keeps_what_the_camera_read(
    journal: Journal,
) -> None:
    parts = playing(journal, "E JH")
    seen(parts, "S JH")  # already played by E: suspect
    assert parts.picks.answer(Answer.CONFIRM)[0].message == "confirm does not answer this question"
    notices = parts.picks.answer(Answer.NO)
    assert notices[0].message == "S: name the card, not J♥"
    assert parts.questions.prompt == PickPrompt(Seat.S, PickReason.DISPUTED,
                                                camera_read=Card.parse("JH"))
    assert not parts.questions.problems.already_played
    parts.picks.card_named(Card.parse("9H"), None)
    record = journal.card_records(parts.record.game_id)[-1]
    assert record.provenance == Provenance(PERSON, "JH", 1, 1)


def test_correct_to_a_suspect_reading_corrects_the_earlier_card_then_plays_this_one(
    journal: Journal,
) -> None:
    parts = playing(journal, "E JH")
    seen(parts, "S JH")
    notices = parts.picks.answer(Answer.CORRECT)
    assert notices[0].message == "what did E play in trick 1?"
    prompt = parts.questions.prompt
    assert isinstance(prompt, CorrectionPrompt) and prompt.then is not None
    parts.picks.card_named(Card.parse("KH"), None)
    notices = parts.picks.answer(Answer.CONFIRM)
    assert [n.message for n in notices][1:] == ["S plays J♥"]


def test_a_renege_is_let_stand_or_taken_as_a_misread(journal: Journal) -> None:
    parts = playing(journal)
    renege = Renege(Seat.S, 1, Suit("H"), Card.parse("AS"), 2, Card.parse("AH"))
    parts.questions.prompts.append(MisreadPrompt(renege, 1))
    assert parts.picks.answer(Answer.OK)[0].message == "renege stands"
    parts.questions.prompts.append(MisreadPrompt(renege, 1))
    assert parts.picks.answer(Answer.MISREAD)[0].message == "what did S play in trick 1?"
    assert parts.questions.prompts == [CorrectionPrompt(Play(1, 1, Seat.S, Card.parse("AS")))]
    assert parts.picks.answer(Answer.CANCEL)[0].message == "correction cancelled"
    assert parts.picks.answer(Answer.OK)[0].message == "nothing is asked now"


def test_the_page_names_a_card_where_it_lies_and_no_joker_in_a_deck_without_one(
    journal: Journal,
) -> None:
    parts = playing(journal)
    assert not Rules().joker
    refused = parts.picks.from_page(SeatCardNamed(Seat.E, JOKER))
    assert refused[0].message == "the joker is not in this deck"
    held = parts.picks.from_page(SeatCardNamed(Seat.S, Card.parse("9H")))
    assert held[0].kind is NoticeKind.HELD
    assert parts.questions.held == {Seat.S: Card.parse("9H")}
