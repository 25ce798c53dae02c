"""The camera's sightings: cards come to rest, read late, taken away; unreadable ones asked for."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.journal import Journal
from app.notices import NoticeKind
from app.prompts import PickPrompt, PickReason
from table import JOKER, Card, Seat
from tests.app.partsrig import playing, seen


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path / "state" / "journal.sqlite") as opened:
        yield opened


def test_an_unreadable_card_is_asked_for_once_after_the_wait(journal: Journal) -> None:
    parts = playing(journal, prompt_s=2.0)
    notices = parts.seen.placed(Seat.E, None)
    assert [n.kind for n in notices] == [NoticeKind.UNREADABLE_CARD]
    parts.clock.advance(1.5)
    parts.seen.placed(Seat.E, None)  # seen unreadable again: the wait goes on
    assert parts.seen.tick() == []
    parts.clock.advance(0.6)
    assert [n.message for n in parts.seen.tick()] == [
        "E: the camera cannot read your card: name it"]
    assert parts.questions.prompts == [PickPrompt(Seat.E, PickReason.UNREADABLE)]
    assert parts.seen.tick() == []


def test_a_joker_in_a_deck_without_one_counts_as_unreadable(journal: Journal) -> None:
    parts = playing(journal)
    assert parts.seen.placed(Seat.E, JOKER)[0].kind is NoticeKind.UNREADABLE_CARD
    assert parts.questions.problems.unreadable == {Seat.E}


def test_a_card_read_where_a_person_named_it_changes_nothing(journal: Journal) -> None:
    parts = playing(journal)
    parts.seen.placed(Seat.E, None)
    parts.picks.name_at(Card.parse("JH"), Seat.E)
    assert parts.questions.named == {Seat.E}
    assert parts.seen.placed(Seat.E, Card.parse("QH"), identified=True) == []
    assert parts.record.played_card(1, 1, Seat.E) == Card.parse("JH")
    assert parts.questions.named == set()


def test_a_card_seen_again_where_it_lies_records_nothing(journal: Journal) -> None:
    parts = playing(journal)
    assert [n.message for n in seen(parts, "E JH")] == ["E plays J♥"]
    assert seen(parts, "E JH") == []
    assert len(journal.events(parts.record.game_id)) == 7  # start, 4 bids, trump, one card


def test_a_card_read_at_last_closes_its_pick_and_is_played(journal: Journal) -> None:
    parts = playing(journal, prompt_s=0.0)
    parts.seen.placed(Seat.E, None)
    parts.seen.tick()
    assert [n.message for n in seen(parts, "E JH")] == ["E plays J♥"]
    assert parts.questions.prompts == [] and not parts.questions.problems


def test_taking_cards_away_clears_what_they_left(journal: Journal) -> None:
    parts = playing(journal, prompt_s=0.0)
    seen(parts, "S 9H")  # held for S's turn
    parts.seen.removed(Seat.S, Card.parse("9H"))
    assert parts.questions.held == {}
    seen(parts, "E JH", "S JH")  # already played: a suspect reading
    assert parts.questions.prompts != []
    parts.seen.removed(Seat.S, Card.parse("JH"))
    assert parts.questions.prompts == [] and not parts.questions.problems.already_played
    parts.seen.placed(Seat.S, None)
    parts.seen.tick()
    parts.seen.removed(Seat.S, None)
    assert parts.questions.prompts == [] and not parts.questions.problems
    parts.seen.removed(Seat.E, Card.parse("JH"))  # gathered
    assert parts.record.on_table == set() and journal.on_table(parts.record.game_id) == []
