"""The intake: events applied, journaled and reported; placed cards played, held or refused."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.game_record import CAMERA, PERSON
from app.journal import UNREADABLE, Journal, Provenance
from app.notices import NoticeKind
from app.prompts import MisreadPrompt, Pending, SuspectPrompt
from table import Bid, BidMade, Card, CardPlayed, Seat, Suit, TrumpNamed
from table.hand import Play
from tests.app.partsrig import bid_hand, wire


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path / "state" / "journal.sqlite") as opened:
        yield opened


def placed(seat: str, code: str, source: str = CAMERA) -> Pending:
    return Pending(Seat(seat), Card.parse(code), source, code if source == CAMERA else None)


def test_a_refused_event_gives_the_reason_and_journals_nothing(journal: Journal) -> None:
    parts = wire(journal)
    notices = parts.intake.submit(BidMade(Seat.S, Bid.parse("4")))  # E bids first
    assert [n.kind for n in notices] == [NoticeKind.REFUSED]
    assert len(journal.events(parts.record.game_id)) == 1


def test_a_moon_records_the_others_passes(journal: Journal) -> None:
    parts = wire(journal)
    notices = parts.intake.submit(BidMade(Seat.E, Bid.parse("moon")))
    assert [n.message for n in notices] == ["E bids moon", "S passes", "W passes", "N passes"]
    assert journal.events(parts.record.game_id)[-1] == BidMade(Seat.N, Bid.parse("pass"))


def test_a_card_before_its_turn_waits_then_is_played_with_who_named_it(
    journal: Journal,
) -> None:
    parts = wire(journal)
    bid_hand(parts.intake)
    south = Pending(Seat.S, Card.parse("9H"), PERSON, UNREADABLE)
    assert parts.intake.place(south)[0].kind is NoticeKind.HELD
    assert parts.questions.held == {Seat.S: Card.parse("9H")}
    notices = parts.intake.place(placed("E", "JH"))
    assert [n.message for n in notices] == ["E plays J♥", "S plays 9♥"]
    assert parts.questions.held == {}
    records = journal.card_records(parts.record.game_id)
    assert [r.provenance for r in records] == [
        Provenance(CAMERA, "JH", 1, 1), Provenance(PERSON, UNREADABLE, 1, 1)]


def test_a_card_played_already_is_not_recorded_and_asks_about_the_earlier_reading(
    journal: Journal,
) -> None:
    parts = wire(journal)
    bid_hand(parts.intake)
    parts.intake.place(placed("E", "JH"))
    again = placed("S", "JH")
    notices = parts.intake.place(again)
    assert notices[0].kind is NoticeKind.ALREADY_PLAYED
    assert "trick 1 by E" in notices[0].message
    assert parts.questions.problems.already_played == {Seat.S: Card.parse("JH")}
    earlier = Play(1, 1, Seat.E, Card.parse("JH"))
    assert parts.questions.prompt == SuspectPrompt(Seat.S, Card.parse("JH"), earlier, again)
    assert len(parts.record.state.hand.tricks[0].cards) == 1


def test_the_partner_of_a_moon_sits_out(journal: Journal) -> None:
    parts = wire(journal)
    parts.intake.submit(BidMade(Seat.E, Bid.parse("moon")))
    parts.intake.submit(TrumpNamed(Seat.E, Suit("S")))
    notices = parts.intake.place(placed("W", "AS"))
    assert [(n.kind, n.message) for n in notices] == [
        (NoticeKind.OUT_OF_TURN, "W sits out this hand")]
    assert parts.questions.problems.out_of_turn == {Seat.W: Card.parse("AS")}


def test_a_proven_renege_is_reported_and_asked_about(journal: Journal) -> None:
    parts = wire(journal)
    bid_hand(parts.intake)  # hearts trump
    for seat, code in (("E", "9H"), ("S", "AS"), ("W", "TH"), ("N", "QH"), ("N", "KH")):
        parts.intake.submit(CardPlayed(Seat(seat), Card.parse(code)))
    parts.intake.submit(CardPlayed(Seat.E, Card.parse("9C")))
    notices = parts.intake.submit(CardPlayed(Seat.S, Card.parse("AH")))  # S had a heart
    assert [n.kind for n in notices] == [NoticeKind.ACCEPTED, NoticeKind.RENEGE]
    renege = notices[1].renege
    assert renege is not None and renege.seat is Seat.S
    assert parts.questions.prompts == [MisreadPrompt(renege, 1)]


def test_a_new_game_is_dealt_by_the_hands_dealer_and_drops_every_question(
    journal: Journal,
) -> None:
    parts = wire(journal)
    for seat in ("E", "S", "W", "N"):  # all pass: the deal passes to E
        parts.intake.submit(BidMade(Seat(seat), Bid.parse("pass")))
    assert parts.record.state.dealer is Seat.E
    bid_hand(parts.intake, bidder="S")
    parts.intake.place(placed("E", "9H"))
    first = parts.record.game_id
    notices = parts.intake.new_game()
    assert [n.message for n in notices] == ["new game, E deals"]
    assert journal.latest_game() == parts.record.game_id != first
    assert parts.record.state.dealer is Seat.E
    assert not parts.questions.held and not parts.questions.prompts
