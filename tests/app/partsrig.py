"""The referee's parts wired by hand on a real journal, for the tests of each part."""

from __future__ import annotations

from dataclasses import dataclass

from app.correcting import Correcting
from app.game_record import GameRecord
from app.intake import Intake
from app.journal import Journal
from app.notices import Notice, NoticeKind
from app.picks import Picks
from app.presses import Presses
from app.questions import Questions
from app.seen_cards import SeenCards
from drivers.clock import ManualClock
from table import Bid, BidMade, Card, Rules, Seat, Suit, TrumpNamed


@dataclass
class Parts:
    """Every part of the referee, sharing one record and one set of questions."""

    record: GameRecord
    questions: Questions
    intake: Intake
    correcting: Correcting
    picks: Picks
    presses: Presses
    seen: SeenCards
    clock: ManualClock


def wire(journal: Journal, rules: Rules | None = None, *, seat_confirms: bool = False,
         prompt_s: float = 3.0) -> Parts:
    """The parts on `journal`, dealer N, time moved by hand."""
    record = GameRecord(journal, rules or Rules(), Seat.N)
    questions = Questions()
    intake = Intake(record, questions)
    correcting = Correcting(record, questions, intake)
    picks = Picks(record, questions, intake, correcting)
    presses = Presses(record, questions, intake, picks, correcting, seat_confirms)
    clock = ManualClock(100.0)
    seen = SeenCards(record, questions, intake, clock, prompt_s)
    return Parts(record, questions, intake, correcting, picks, presses, seen, clock)


def bid_hand(intake: Intake, bidder: str = "E", bid: str = "3", trump: str = "H") -> None:
    """In bidding order: `bidder` bids, the rest pass, the bidder names `trump`."""
    for _ in range(4):
        seat = intake.record.state.turn
        assert seat is not None
        made = BidMade(seat, Bid.parse(bid if seat.value == bidder else "pass"))
        assert intake.submit(made)[0].kind is NoticeKind.ACCEPTED
    assert intake.submit(TrumpNamed(Seat(bidder), Suit(trump)))[0].kind is NoticeKind.ACCEPTED


def seen(parts: Parts, *plays: str) -> list[Notice]:
    """Camera sightings `"E AS"`, ...; the notices of the last."""
    notices: list[Notice] = []
    for text in plays:
        seat, card = text.split()
        notices = parts.seen.placed(Seat(seat), Card.parse(card))
    return notices


def playing(journal: Journal, *plays: str, prompt_s: float = 3.0) -> Parts:
    """The parts with the first hand bid (E bids, hearts trump, E leads) and `plays` seen."""
    parts = wire(journal, prompt_s=prompt_s)
    bid_hand(parts.intake)
    seen(parts, *plays)
    return parts
