"""What a press means: the shared panel's keys on mock pins, seat pads and screen touches."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from app.journal import Journal
from app.notices import Notice, NoticeKind
from app.prompts import (
    CardNamed,
    CorrectionOpened,
    CorrectionPrompt,
    HandShown,
    NamingAsked,
    PickPrompt,
    PickReason,
    PlayedChosen,
    PlayedPrompt,
)
from drivers import inputs
from drivers.buttons import ButtonPanel
from drivers.debounce import KeyTiming
from drivers.pinmap import default_pin_map
from table import Card, Phase, Seat
from table.hand import Play
from tests.app.partsrig import Parts, bid_hand, seen, wire

TIMING = KeyTiming(settle_s=0.02, repeat_s=0.25, hold_s=2.0, confirm_s=10.0)


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path / "state" / "journal.sqlite") as opened:
        yield opened


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    made = MockFactory()
    yield made
    made.reset()


class Panel:
    """The shared panel on mock pins, its presses handed to the parts' `presses`."""

    def __init__(self, parts: Parts, factory: MockFactory) -> None:
        self.parts, self.factory = parts, factory
        self.buttons = ButtonPanel(default_pin_map("shared"), factory, timing=TIMING,
                                   clock=parts.clock)

    def press(self, *names: str) -> list[Notice]:
        """Press and release each key like a person; the notices of all of them."""
        notices: list[Notice] = []
        for name in names:
            pin = self.factory.pin(self.buttons.pin_map.gpio_of(name))
            pin.drive_low()
            self.parts.clock.advance(0.1)
            pin.drive_high()
            self.parts.clock.advance(0.4)
            for event in self.buttons.poll():
                assert isinstance(event, inputs.PlayerInput)
                notices.extend(self.parts.presses.press(event))
        return notices


@pytest.fixture
def panel(journal: Journal, factory: MockFactory) -> Iterator[Panel]:
    made = Panel(wire(journal), factory)
    yield made
    made.buttons.close()


def test_shared_value_keys_bid_for_the_seat_in_turn(panel: Panel) -> None:
    notices = panel.press("4", "PASS", "5")
    assert [n.message for n in notices] == ["E bids 4", "S passes", "W bids 5"]
    assert panel.parts.record.state.turn is Seat.N


def test_rank_then_suit_keys_name_the_card_in_turn_and_undo_drops_a_half_keyed_one(
    panel: Panel,
) -> None:
    bid_hand(panel.parts.intake)
    assert panel.press("4")[-1].kind is NoticeKind.ENTRY
    assert panel.parts.questions.entry.partial
    assert panel.press("UNDO")[-1].message == "entry dropped"
    assert panel.parts.record.state.phase is Phase.PLAY  # the bidding was not undone
    assert panel.press("SPADES")[0].kind is NoticeKind.REFUSED  # a suit alone names nothing
    assert panel.press("4", "SPADES")[-1].message == "E plays 10♠"


def test_correct_seat_trick_then_the_card_and_ok_correct_a_played_card(panel: Panel) -> None:
    bid_hand(panel.parts.intake)
    seen(panel.parts, "E JH", "S 9H")
    panel.press("CORRECT")
    assert panel.parts.questions.prompt == PlayedPrompt(1)
    panel.press("5")  # seat S
    assert panel.parts.questions.prompt == PlayedPrompt(1, Seat.S)
    panel.press("3")  # trick 1
    assert panel.parts.questions.prompts == [
        CorrectionPrompt(Play(1, 1, Seat.S, Card.parse("9H")))]
    panel.press("6", "HEARTS")
    notices = panel.press("OK")
    assert notices[0].message == "S's card of trick 1 (hand 1) corrected to Q♥"
    assert panel.parts.record.played_card(1, 1, Seat.S) == Card.parse("QH")


def test_the_card_key_opens_the_pick_for_the_seat_in_turn(panel: Panel) -> None:
    bid_hand(panel.parts.intake)
    assert panel.press("CARD")[-1].message == "E: name the card"
    assert panel.parts.questions.prompt == PickPrompt(Seat.E, PickReason.ASKED)
    assert panel.press("MOON", "CLUBS")[-1].message == "E plays A♣"


def test_a_shared_bid_waits_for_the_seats_own_ok_when_seats_confirm(journal: Journal) -> None:
    parts = wire(journal, seat_confirms=True)
    held = parts.presses.press(inputs.BidPressed(None, 4))
    assert held[0].message == "to bid 4, press OK on your own pad"
    assert parts.questions.proposal == inputs.BidPressed(None, 4)
    notices = parts.presses.press(inputs.ConfirmPressed("E"))
    assert [n.message for n in notices] == ["E bids 4"] and parts.questions.proposal is None


def test_ok_dismisses_problems_then_has_nothing_to_confirm_and_undo_forgets_questions(
    journal: Journal,
) -> None:
    parts = wire(journal)
    claimed = parts.presses.press(inputs.AceNoFaceClaimed(None))
    assert claimed[0].message == "Ace No Face: press it on the claimant's own pad"
    bid_hand(parts.intake)
    seen(parts, "S 9H")  # held until E has played
    parts.questions.problems.unreadable_since[Seat.W] = 1.0
    assert parts.presses.press(inputs.ConfirmPressed(None))[0].message == "problems dismissed"
    assert parts.presses.press(inputs.ConfirmPressed(None))[0].message == "nothing to confirm"
    assert parts.presses.press(inputs.UndoPressed(None))[0].message == "undone"
    assert parts.record.state.phase is Phase.TRUMP and not parts.questions.held


def test_touches_open_and_choose_played_cards_and_name_cards(journal: Journal) -> None:
    parts = wire(journal)
    bid_hand(parts.intake)
    seen(parts, "E JH")
    press = parts.presses.press
    assert press(CardNamed("XX"))[0].kind is NoticeKind.REFUSED  # not a card
    assert press(CardNamed("9H"))[0].message == "no card is asked for: 9♥ ignored"
    assert press(CorrectionOpened())[0].message == "touch the card to correct"
    assert press(HandShown(2))[0].message == "hand 2 cannot be corrected here"
    press(PlayedChosen(1, 1, Seat.E))
    press(CardNamed("QH"))
    assert parts.questions.prompt == CorrectionPrompt(
        Play(1, 1, Seat.E, Card.parse("JH")), chosen=Card.parse("QH"))
    parts.questions.prompts.clear()
    assert press(NamingAsked(Seat.S))[0].message == "S: name the card"
    assert [n.message for n in press(CardNamed("9H"))] == ["S plays 9♥"]
