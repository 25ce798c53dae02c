"""A table for the tests: a referee on an SQLite journal, a hand-driven clock, mock buttons."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from app.config import AppConfig
from app.controller import Notice, NoticeKind, TableController
from app.journal import Journal
from app.run import TableApp
from drivers import inputs
from drivers.buttons import ButtonPanel
from drivers.clock import ManualClock
from drivers.debounce import KeyTiming
from drivers.pinmap import default_pin_map
from table import Card, Rules, Seat

BIDDING_ORDER: tuple[inputs.Seat, ...] = ("E", "S", "W", "N")


def bid_hand(
    table: TableController,
    bidder: inputs.Seat = "E",
    bid: inputs.BidValue = 3,
    trump: inputs.Suit = "H",
) -> None:
    """Dealer N: `bidder` bids, the rest pass, the bidder names `trump`."""
    for seat in BIDDING_ORDER:
        if seat == bidder:
            table.on_input(inputs.BidPressed(seat, bid))
        elif table.state.phase.value == "bidding":
            table.on_input(inputs.PassPressed(seat))
    assert table.on_input(inputs.TrumpPressed(None, trump))[0].kind is NoticeKind.ACCEPTED


def play(table: TableController, *plays: str) -> list[Notice]:
    """Camera sightings `"E AS"`, ...; the notices of the last."""
    notices: list[Notice] = []
    for text in plays:
        seat, card = text.split()
        notices = table.on_card(Seat(seat), Card.parse(card))
    return notices


class ButtonRig:
    """The shared panel on gpiozero mock pins feeding a TableApp, the clock moved by hand."""

    def __init__(self, app: TableApp, panel: ButtonPanel, factory: MockFactory,
                 clock: ManualClock) -> None:
        self.app, self.panel, self.factory, self.clock = app, panel, factory, clock

    def press(self, *names: str, gap: float = 0.4) -> list[Notice]:
        """Press and release each key like a person, then let the app take the presses."""
        notices: list[Notice] = []
        for name in names:
            pin = self.factory.pin(self.panel.pin_map.gpio_of(name))
            pin.drive_low()
            self.clock.advance(0.1)
            pin.drive_high()
            self.clock.advance(gap)
            notices.extend(self.app.drain([self.panel.poll]))
        return notices

    def wait(self, seconds: float) -> list[Notice]:
        """Let time pass at the table."""
        self.clock.advance(seconds)
        return self.app.drain([self.panel.poll])


@contextmanager
def button_table(state_dir: Path, rules: Rules | None = None, prompt_s: float = 3.0
                 ) -> Iterator[ButtonRig]:
    """A referee with the shared panel on mock pins, its journal in `state_dir`."""
    clock = ManualClock(100.0)
    factory = MockFactory()
    timing = KeyTiming(settle_s=0.02, repeat_s=0.25, hold_s=2.0, confirm_s=10.0)
    with Journal(state_dir / "journal.sqlite") as journal:
        controller = TableController(journal, rules or Rules(), clock=clock,
                                     unreadable_prompt_s=prompt_s)
        app = TableApp(AppConfig(state_dir=state_dir), controller, clock=clock)
        panel = ButtonPanel(default_pin_map("shared"), factory, timing=timing, clock=clock)
        try:
            yield ButtonRig(app, panel, factory, clock)
        finally:
            panel.close()
            factory.reset()
