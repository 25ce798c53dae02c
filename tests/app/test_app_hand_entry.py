"""Cards named by hand: the pick after an unreadable wait, by touch and by panel keys."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from app.controller import NoticeKind, TableController
from app.journal import UNREADABLE, Journal
from app.prompts import Answer, CardNamed, NamingAsked, PickPrompt, PickReason, PromptAnswered
from app.script import script_from_events
from drivers.clock import ManualClock
from table import Card, CardPlayed, Rules, Seat
from table.simulate import simulate_game
from tests.app.tablerig import bid_hand, button_table


@pytest.fixture
def journal(tmp_path: Path) -> Journal:
    with Journal(tmp_path / "state" / "journal.sqlite") as opened:
        yield opened


@pytest.mark.parametrize("wait", [0.5, 3.0, 7.25])
def test_an_unreadable_card_is_asked_for_after_the_wait_not_before(
    journal: Journal, wait: float
) -> None:
    clock = ManualClock(50.0)
    table = TableController(journal, Rules(), clock=clock, unreadable_prompt_s=wait)
    bid_hand(table)
    assert table.on_card(Seat.E, None)[0].kind is NoticeKind.UNREADABLE_CARD
    clock.advance(wait * 0.9)
    table.on_card(Seat.E, None)  # seen again unreadable: the wait does not start over
    assert table.tick() == [] and table.prompt is None
    clock.advance(wait * 0.1 + 0.01)
    notices = table.tick()
    assert [n.kind for n in notices] == [NoticeKind.PROMPT]
    assert table.prompt == PickPrompt(Seat.E, PickReason.UNREADABLE)
    assert table.tick() == []  # asked once


def test_the_card_named_by_touch_is_played_and_journaled_as_named_by_a_person(
    journal: Journal,
) -> None:
    clock = ManualClock()
    table = TableController(journal, Rules(), clock=clock)
    bid_hand(table)
    table.on_card(Seat.E, None)
    clock.advance(3.0)
    table.tick()
    notices = table.on_input(CardNamed("JH"))
    assert [n.message for n in notices] == ["E plays J♥"]
    assert table.prompt is None and not table.problems
    assert table.state.hand.tricks[0].cards == [(Seat.E, Card.parse("JH"))]
    record = journal.card_records(table.game_id)[-1]
    assert record.event == CardPlayed(Seat.E, Card.parse("JH"))
    assert record.provenance is not None
    assert (record.provenance.source, record.provenance.camera_read) == ("person", UNREADABLE)
    assert (record.provenance.hand, record.provenance.trick) == (1, 1)


def test_camera_cards_are_journaled_as_read_by_the_camera(journal: Journal) -> None:
    table = TableController(journal, Rules())
    bid_hand(table)
    for seat, card in [("E", "AS"), ("S", "9S"), ("W", "KS"), ("N", "QS"), ("E", "TH")]:
        table.on_card(Seat(seat), Card.parse(card))
    places = [
        (r.provenance.source, r.provenance.camera_read, r.provenance.hand, r.provenance.trick)
        for r in journal.card_records(table.game_id)
        if r.provenance is not None
    ]
    assert places == [("camera", "AS", 1, 1), ("camera", "9S", 1, 1), ("camera", "KS", 1, 1),
                      ("camera", "QS", 1, 1), ("camera", "TH", 1, 2)]


@pytest.mark.parametrize(
    ("keys", "card"),
    [(("5", "HEARTS"), "JH"), (("CARD", "MOON", "SPADES"), "AS"), (("3", "CLUBS"), "9C"),
     (("CARD", "ASK", "DIAMONDS"), "KD")],
)
def test_the_card_named_on_the_panel_after_the_pick_appears(
    tmp_path: Path, keys: tuple[str, ...], card: str
) -> None:
    with button_table(tmp_path) as rig:
        controller = rig.app.controller
        bid_hand(controller)
        rig.app.handle(_unreadable(Seat.E))
        rig.wait(3.5)
        assert controller.prompt == PickPrompt(Seat.E, PickReason.UNREADABLE)
        notices = rig.press(*keys)
        assert notices[-1].message == f"E plays {Card.parse(card)}"
        assert controller.prompt is None
        assert controller.state.hand.tricks[0].cards == [(Seat.E, Card.parse(card))]


def test_a_double_press_names_one_card(tmp_path: Path) -> None:
    with button_table(tmp_path) as rig:
        controller = rig.app.controller
        bid_hand(controller)
        rig.press("5", gap=0.05)
        rig.press("5", "HEARTS", "HEARTS", gap=0.05)  # bounces: within the repeat time
        assert controller.state.hand.tricks[0].cards == [(Seat.E, Card.parse("JH"))]
        events = len(controller.state.log)
        assert controller.on_input(CardNamed("JH"))[0].kind is NoticeKind.REFUSED  # a second tap
        assert len(controller.state.log) == events and controller.prompt is None


def test_undo_drops_a_half_keyed_card_and_a_suit_alone_names_nothing(tmp_path: Path) -> None:
    with button_table(tmp_path) as rig:
        controller = rig.app.controller
        bid_hand(controller)
        events = len(controller.state.log)
        assert rig.press("4", "UNDO")[-1].message == "entry dropped"
        assert len(controller.state.log) == events  # the UNDO took no event back
        assert rig.press("SPADES")[0].kind is NoticeKind.REFUSED
        assert rig.press("4", "SPADES")[-1].message == "E plays 10♠"


def test_a_card_read_later_needs_no_press(journal: Journal) -> None:
    clock = ManualClock()
    table = TableController(journal, Rules(), clock=clock)
    bid_hand(table)
    table.on_card(Seat.E, None)
    clock.advance(1.0)
    assert table.on_card(Seat.E, Card.parse("QH"), identified=True)[0].message == "E plays Q♥"
    clock.advance(5.0)
    assert table.tick() == [] and table.prompt is None
    table.on_card(Seat.S, None)
    clock.advance(4.0)
    table.tick()
    assert table.prompt == PickPrompt(Seat.S, PickReason.UNREADABLE)
    assert table.on_card(Seat.S, Card.parse("9H"), identified=True)[0].message == "S plays 9♥"
    assert table.prompt is None  # the pick goes away once the camera reads the card
    assert journal.card_records(table.game_id)[-1].provenance.source == "camera"  # type: ignore[union-attr]


def test_a_person_named_card_stands_over_a_later_reading(journal: Journal) -> None:
    clock = ManualClock()
    table = TableController(journal, Rules(), clock=clock)
    bid_hand(table)
    table.on_card(Seat.E, None)
    clock.advance(4.0)
    table.tick()
    table.on_input(CardNamed("JH"))
    assert table.on_card(Seat.E, Card.parse("JD"), identified=True) == []
    assert table.state.hand.tricks[0].cards == [(Seat.E, Card.parse("JH"))]
    assert not table.held
    assert table.on_card(Seat.E, Card.parse("AH"))[0].kind is NoticeKind.HELD  # the next card


def test_a_player_asks_for_the_pick_and_can_cancel_it(journal: Journal) -> None:
    table = TableController(journal, Rules())
    bid_hand(table)
    table.on_input(NamingAsked(Seat.E))
    assert table.prompt == PickPrompt(Seat.E, PickReason.ASKED)
    table.on_input(PromptAnswered(Answer.CANCEL))
    assert table.prompt is None and len(table.state.hand.tricks) == 0


def test_the_joker_is_named_with_the_joker_key_only_when_in_the_deck(tmp_path: Path) -> None:
    with button_table(tmp_path / "plain") as rig:
        bid_hand(rig.app.controller)
        assert rig.press("CARD", "PASS")[-1].message == "the joker is not in this deck"
    with button_table(tmp_path / "joker", Rules(joker=True)) as rig:
        controller = rig.app.controller
        controller.on_input(_discard())
        bid_hand(controller)
        assert rig.press("CARD", "PASS")[-1].message == "E plays Joker"


def test_a_whole_game_on_the_buttons_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for seed in (2, 9):
        game = simulate_game(seed=seed, dealer=Seat.N)
        lines = script_from_events(game.events, by_keys=True)
        assert not any("card" in line for line in lines)  # presses only
        script = tmp_path / f"keys{seed}.jsonl"
        script.write_text("".join(json.dumps(line) + "\n" for line in lines))
        state = tmp_path / f"state{seed}"
        assert main(["run", "--script", str(script), "--state-dir", str(state),
                     "--no-display"]) == 0
        log = tmp_path / f"game{seed}.jsonl"
        capsys.readouterr()
        assert main(["export", "1", "--state-dir", str(state), "--out", str(log)]) == 0
        assert main(["replay", str(log), "--json"]) == 0
        summary = json.loads(capsys.readouterr().out)
        assert summary["winner"] == game.state.winner
        assert summary["score"] == {t.value: s for t, s in game.state.scores.items()}


def _unreadable(seat: Seat) -> object:
    from app.sightings import Sighting, SightingKind

    return Sighting(SightingKind.PLACED, 0.0, seat, None, 0.0)


def _discard() -> object:
    from drivers import inputs

    return inputs.ConfirmPressed(None)


def test_correct_then_cancel_on_the_screen_gives_the_keys_their_own_meaning(
    tmp_path: Path,
) -> None:
    with button_table(tmp_path) as rig:
        controller = rig.app.controller
        bid_hand(controller)
        rig.press("4", "HEARTS")  # E plays 10♥
        rig.press("CORRECT")
        controller.on_input(PromptAnswered(Answer.CANCEL))
        assert rig.press("5", "HEARTS")[-1].message == "S plays J♥"  # not seat S, trick 3
