"""The referee: presses and card sightings become journaled engine events."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.controller import NoticeKind, TableController
from app.journal import Journal
from drivers import inputs
from table import Card, Phase, Rules, Seat
from table.log import replay_lines


@pytest.fixture
def journal(tmp_path: Path) -> Journal:
    with Journal(tmp_path / "state" / "journal.sqlite") as opened:
        yield opened


def bid_hand(table: TableController, bidder: str = "E", bid: int | str = 3) -> None:
    """Dealer N: E bids, the rest pass, E names hearts."""
    for seat in ("E", "S", "W", "N"):
        pressed = inputs.BidPressed(seat, bid) if seat == bidder else inputs.PassPressed(seat)
        assert table.on_input(pressed)[0].kind is NoticeKind.ACCEPTED
    assert table.on_input(inputs.TrumpPressed(None, "H"))[0].kind is NoticeKind.ACCEPTED


def test_shared_panel_presses_belong_to_the_seat_in_turn(journal: Journal) -> None:
    table = TableController(journal, Rules())
    notices = table.on_input(inputs.BidPressed(None, 4))
    assert notices[0].message == "E bids 4"
    refused = table.on_input(inputs.BidPressed(None, 4))
    assert refused[0].kind is NoticeKind.REFUSED
    assert refused[0].message == "S bid 4, but the bid to beat is 4"


def test_card_before_its_turn_is_held_then_played(journal: Journal) -> None:
    table = TableController(journal, Rules())
    bid_hand(table)
    held = table.on_card(Seat.S, Card.parse("9H"))
    assert held[0].kind is NoticeKind.HELD
    notices = table.on_card(Seat.E, Card.parse("JH"))
    assert [n.message for n in notices] == ["E plays J♥", "S plays 9♥"]
    assert table.state.turn is Seat.W


def test_already_played_card_is_flagged_not_recorded(journal: Journal) -> None:
    table = TableController(journal, Rules())
    bid_hand(table)
    table.on_card(Seat.E, Card.parse("JH"))
    notices = table.on_card(Seat.S, Card.parse("JH"))
    assert notices[0].kind is NoticeKind.ALREADY_PLAYED
    assert len(table.state.hand.tricks[0].cards) == 1
    assert table.problems.already_played == {Seat.S: Card.parse("JH")}


def test_unreadable_card_asks_and_ok_dismisses(journal: Journal) -> None:
    table = TableController(journal, Rules())
    bid_hand(table)
    assert table.on_card(Seat.E, None)[0].kind is NoticeKind.UNREADABLE_CARD
    assert table.problems.unreadable == {Seat.E}
    table.on_input(inputs.ConfirmPressed(None))
    assert not table.problems


def test_a_joker_seen_where_the_deck_has_none_is_asked_for_not_played(journal: Journal) -> None:
    table = TableController(journal, Rules())
    bid_hand(table)
    assert table.on_card(Seat.E, Card.parse("JK"))[0].kind is NoticeKind.UNREADABLE_CARD
    assert table.problems.unreadable == {Seat.E}
    assert not table.state.hand.tricks or not table.state.hand.tricks[0].cards
    notices = table.on_card(Seat.E, Card.parse("JH"))
    assert [n.message for n in notices] == ["E plays J♥"]


def test_renege_alarm_when_proven(journal: Journal) -> None:
    table = TableController(journal, Rules())
    bid_hand(table)
    for seat, card in [
        ("E", "AS"),
        ("S", "9H"),
        ("W", "KS"),
        ("N", "QS"),  # S reneges
        ("E", "AH"),
        ("S", "TS"),
    ]:  # S shows a spade: proven
        notices = table.on_card(Seat(seat), Card.parse(card))
    alarms = [n for n in notices if n.kind is NoticeKind.RENEGE]
    assert len(alarms) == 1 and alarms[0].renege is not None
    assert (alarms[0].renege.seat, alarms[0].renege.trick) == (Seat.S, 1)


def test_moon_records_the_forced_passes(journal: Journal) -> None:
    table = TableController(journal, Rules())
    notices = table.on_input(inputs.BidPressed("E", "moon"))
    assert [n.message for n in notices] == ["E bids moon", "S passes", "W passes", "N passes"]
    assert table.state.phase is Phase.TRUMP


def test_ask_exchange_is_confirmed_with_ok(journal: Journal) -> None:
    table = TableController(journal, Rules())
    table.on_input(inputs.BidPressed("E", "ask"))
    for seat in ("S", "W", "N"):
        table.on_input(inputs.PassPressed(seat))
    table.on_input(inputs.TrumpPressed("E", "S"))
    assert table.state.phase is Phase.EXCHANGE
    assert table.on_input(inputs.ConfirmPressed(None))[0].message == "E: exchange done"
    assert table.state.phase is Phase.PLAY


def test_every_accepted_event_is_in_the_journal_and_resumes(journal: Journal) -> None:
    table = TableController(journal, Rules(target=40))
    bid_hand(table)
    table.on_card(Seat.E, Card.parse("JH"))
    table.on_input(inputs.UndoPressed(None))
    table.on_card(Seat.E, Card.parse("AH"))
    resumed = TableController(journal, Rules())
    assert resumed.game_id == table.game_id
    assert resumed.state.rules.target == 40
    assert resumed.state.hand.tricks[0].cards == [(Seat.E, Card.parse("AH"))]
    exported = replay_lines(journal.export(table.game_id).splitlines())
    assert exported.hand.tricks[0].cards == [(Seat.E, Card.parse("AH"))]


def test_new_game_closes_the_old_one(journal: Journal) -> None:
    table = TableController(journal, Rules())
    table.on_input(inputs.BidPressed(None, 3))
    first = table.game_id
    table.on_input(inputs.NewGameConfirmed(None))
    assert table.game_id != first and not table.state.hands
    assert journal.unfinished_game() == table.game_id
    assert [g.events for g in journal.games()] == [2, 1]


def test_anf_without_seat_is_refused(journal: Journal) -> None:
    table = TableController(journal, Rules(ace_no_face=True))
    assert table.on_input(inputs.AceNoFaceClaimed(None))[0].kind is NoticeKind.REFUSED
    assert table.on_input(inputs.AceNoFaceClaimed("W"))[0].kind is NoticeKind.ACCEPTED
    assert table.state.dealer is Seat.E


def test_seat_pads_confirm_shared_value_keys_with_their_own_ok(journal: Journal) -> None:
    table = TableController(journal, Rules(), seat_confirms=True)
    proposed = table.on_input(inputs.BidPressed(None, 4))
    assert proposed[0].kind is NoticeKind.HELD and not table.state.hands
    assert table.on_input(inputs.ConfirmPressed("E"))[0].message == "E bids 4"
    table.on_input(inputs.BidPressed(None, 5))
    refused = table.on_input(inputs.ConfirmPressed("W"))
    assert refused[0].message == "W bid 5 out of turn: it is S's turn to bid"
    assert table.proposal is None


def test_a_card_identified_where_it_lies_clears_the_question_and_is_played(
        journal: Journal) -> None:
    from app.camera_feed import sighting_of
    from app.sightings import SightingKind
    from vision.tracker import CardEvent, EventKind

    table = TableController(journal, Rules())
    bid_hand(table)
    unread = sighting_of(CardEvent(EventKind.UNREADABLE, 1.0, "E", None, 0.2))
    identified = sighting_of(CardEvent(EventKind.IDENTIFIED, 2.0, "E", "JH", 0.9))
    assert identified.kind is SightingKind.IDENTIFIED and identified.card == Card.parse("JH")
    assert table.on_card(unread.seat, unread.card)[0].kind is NoticeKind.UNREADABLE_CARD
    notices = table.on_card(identified.seat, identified.card)
    assert [n.message for n in notices] == ["E plays J♥"]
    assert not table.problems
