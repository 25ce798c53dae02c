"""The journal's side: the game started or resumed, events journaled, cards on the table."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.game_record import CAMERA, PERSON, GameRecord
from app.journal import Journal, Provenance
from table import (
    Bid,
    BidMade,
    Card,
    CardCorrected,
    CardPlayed,
    GameStarted,
    InvalidEvent,
    Phase,
    Rules,
    Seat,
    Suit,
    TrumpNamed,
)
from table.hand import Play


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path / "state" / "journal.sqlite") as opened:
        yield opened


def bid_hand(record: GameRecord) -> None:
    """Dealer N: E bids 3, the rest pass, E names hearts."""
    for seat, bid in (("E", "3"), ("S", "pass"), ("W", "pass"), ("N", "pass")):
        record.apply(BidMade(Seat(seat), Bid.parse(bid)))
    record.apply(TrumpNamed(Seat.E, Suit("H")))


def played(record: GameRecord, *plays: str) -> None:
    for text in plays:
        seat, card = text.split()
        record.apply(CardPlayed(Seat(seat), Card.parse(card)), Provenance(CAMERA, card))


def test_an_empty_journal_starts_a_game_and_a_second_record_resumes_it(journal: Journal) -> None:
    record = GameRecord(journal, Rules(), Seat.W)
    assert record.events == [GameStarted(dealer=Seat.W, rules=Rules())]
    assert journal.latest_game() == record.game_id
    record.apply(BidMade(Seat.N, Bid.parse("4")))  # dealer W: N bids first
    again = GameRecord(journal, Rules(), Seat.E)  # the journal's game wins over the arguments
    assert again.game_id == record.game_id and again.events == record.events
    assert again.state.dealer is Seat.W and again.state.turn is record.state.turn


def test_an_accepted_event_is_journaled_and_a_refused_one_is_not(journal: Journal) -> None:
    record = GameRecord(journal, Rules(), Seat.N)
    with pytest.raises(InvalidEvent):
        record.apply(CardPlayed(Seat.E, Card.parse("JH")))  # still bidding
    assert len(journal.events(record.game_id)) == 1
    bid_hand(record)
    played(record, "E JH")
    assert journal.events(record.game_id)[-1] == CardPlayed(Seat.E, Card.parse("JH"))
    assert journal.on_table(record.game_id) == [("E", "JH")]
    assert record.turn_to_play() is Seat.S


def test_the_cards_on_the_table_follow_plays_corrections_and_gathering(journal: Journal) -> None:
    record = GameRecord(journal, Rules(), Seat.N)
    bid_hand(record)
    played(record, "E JH", "S 9H")
    record.apply(CardCorrected(1, 1, Seat.S, Card.parse("TH")), Provenance(PERSON, "9H", 1, 1))
    assert record.on_table == {(Seat.E, Card.parse("JH")), (Seat.S, Card.parse("TH"))}
    record.taken_away(Seat.E, Card.parse("JH"))
    assert journal.on_table(record.game_id) == [("S", "TH")]
    assert GameRecord(journal, Rules(), Seat.N).on_table == {(Seat.S, Card.parse("TH"))}


def test_a_played_card_is_found_by_hand_trick_and_seat(journal: Journal) -> None:
    record = GameRecord(journal, Rules(), Seat.N)
    assert record.correctable() == [] and record.turn_to_play() is None
    bid_hand(record)
    played(record, "E JH")
    assert record.played_card(1, 1, Seat.E) == Card.parse("JH")
    assert record.played_card(1, 1, Seat.S) is None
    assert record.played_card(1, 2, Seat.E) is None
    assert record.played_card(2, 1, Seat.E) is None and record.hand(2) is None
    assert [hand.number for hand in record.correctable()] == [1]


def test_the_camera_reading_is_known_only_where_the_camera_named_the_card(
    journal: Journal,
) -> None:
    record = GameRecord(journal, Rules(), Seat.N)
    bid_hand(record)
    played(record, "E JH")
    record.apply(CardPlayed(Seat.S, Card.parse("9H")), Provenance(PERSON, None, 1, 1))
    assert record.camera_reading(Play(1, 1, Seat.S, Card.parse("9H"))) is None
    record.apply(CardPlayed(Seat.W, Card.parse("QH")), Provenance(CAMERA, "QH", 1, 1))
    assert record.camera_reading(Play(1, 1, Seat.W, Card.parse("QH"))) == "QH"


def test_put_back_undoes_what_a_failed_transaction_applied(journal: Journal) -> None:
    record = GameRecord(journal, Rules(), Seat.N)
    bid_hand(record)
    mark = record.mark()
    with pytest.raises(RuntimeError), journal.atomic():
        played(record, "E JH")
        record.start(Seat.E)
        raise RuntimeError("the input failed")
    record.put_back(mark)
    assert record.game_id == mark.game_id and record.on_table == set()
    assert record.state.phase is Phase.PLAY and record.state.turn is Seat.E
    assert record.events == journal.events(record.game_id)
