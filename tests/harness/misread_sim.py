"""Simulated games through the real referee and journal, with a camera that fails now and then.

The fake camera reports each card as it is played: unreadable with probability
`p_unreadable`, as another card of the deck with probability `p_wrong`, else right. The players
answer the table as people would:

- an unreadable card: half the time the player lays it flat and the camera reads it on a later
  frame (no press); otherwise, once the table asks for it, the player taps it on the pick (1).
- "already played" pointing at an earlier play: if that earlier play is the misread, CORRECT IT,
  the true card, CONFIRM (3); if the earlier play is right, NO (the card lying here is the
  misread) and the true card on the pick (2).
- a renege alarm: a true renege is accepted with OK (1); a false one whose reneging card was
  misread is answered MISREAD?, the true card, CONFIRM (3); a false one whose evidence holds
  another misread card (the card led to that trick, or the proving card) is dismissed with OK
  and that card is corrected from the played picker (1 + 4).
- a misread that gives a trick to the wrong seat is seen at once (the wrong seat is shown to
  lead): CORRECT, the card on the played picker, the true card, CONFIRM (4).
- two cards misread into each other (a swap) cannot be put right one at a time (each card is
  then recorded twice): the players correct one of them to a card not played yet, then both.
- a card still not recorded after all that (a correction refused) is laid again and read.
- at a hand's end the players check the points shown; if they are not what was played, they
  correct the misread cards of that hand (4 each). A misread nobody can see (the card changes
  no winner, proves no renege and scores the same) is left as it is.
"""

from __future__ import annotations

import random
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from app.config import AppConfig
from app.controller import TableController
from app.journal import Journal
from app.notices import Notice, NoticeKind
from app.prompts import (
    Answer,
    CardNamed,
    CorrectionOpened,
    CorrectionPrompt,
    HandShown,
    MisreadPrompt,
    PickPrompt,
    PlayedChosen,
    PlayedPrompt,
    PromptAnswered,
    SuspectPrompt,
    TouchInput,
)
from app.run import TableApp
from app.sightings import Sighting, SightingKind
from drivers import inputs
from drivers.clock import ManualClock
from table import (
    AceNoFaceClaimed,
    BidMade,
    Card,
    CardPlayed,
    DealerDiscarded,
    ExchangeDone,
    GameStarted,
    GameState,
    Hand,
    Phase,
    Seat,
    TrumpNamed,
)
from table.cards import deck
from table.simulate import simulate_game

PROMPT_WAIT_S = 3.0
LAID_FLAT = 0.5  # the share of unreadable cards the camera reads once straightened


@dataclass
class GameResult:
    """How one simulated game ended at the table."""

    true_score: bool
    false_reneges: int
    presses: int
    unreadable: int = 0
    misread: int = 0


@dataclass
class Players:
    """The people at the table: they know every true card and press what they must."""

    app: TableApp
    truth: dict[tuple[int, int, Seat], Card] = field(default_factory=dict)
    lying: dict[Seat, Card] = field(default_factory=dict)  # the true card in each zone now
    presses: int = 0

    @property
    def table(self) -> TableController:
        return self.app.controller

    def touch(self, touch: TouchInput) -> list[Notice]:
        """One press on the screen."""
        self.presses += 1
        return self.app.handle(touch)

    def correct(self, hand: int, trick: int, seat: Seat, from_picker: bool = True) -> bool:
        """Put the card at a place right: from the played picker, or the prompt already open."""
        true = self.truth[(hand, trick, seat)]
        if from_picker:
            return self._set(hand, trick, seat, true) or self._swap(hand, trick, seat)
        if not isinstance(self.table.prompt, CorrectionPrompt):
            return False
        return self._confirm(true)

    def _swap(self, hand: int, trick: int, seat: Seat) -> bool:
        """The true card is recorded at another misread place of the hand (two cards swapped):
        that place goes to a card not played yet, this one is put right, then that one."""
        recorded = self.table.hand(hand)
        if recorded is None:
            return False
        true = self.truth[(hand, trick, seat)]
        places = {
            (number, who): card
            for number, each in enumerate(recorded.tricks, start=1)
            for who, card in each.cards
        }
        other = next((place for place, card in places.items() if card == true), None)
        if other is None or self.truth.get((hand, *other)) in (None, true):
            return False
        spare = next((card for card in deck() if card not in places.values()), None)
        if spare is None or not self._set(hand, *other, spare):
            return False
        if not self._set(hand, trick, seat, true):
            return False
        return self._set(hand, *other, self.truth[(hand, *other)])

    def _set(self, hand: int, trick: int, seat: Seat, card: Card) -> bool:
        """One correction from the played picker to `card`."""
        self.touch(CorrectionOpened())
        played = self.table.prompt
        if isinstance(played, PlayedPrompt) and played.hand != hand:
            self.touch(HandShown(hand))
        self.touch(PlayedChosen(hand, trick, seat))
        return self._confirm(card)

    def _confirm(self, card: Card) -> bool:
        """Name `card` on the open correction and confirm; a refusal is cancelled."""
        self.touch(CardNamed(card.code))
        notices = self.touch(PromptAnswered(Answer.CONFIRM))
        if notices and notices[0].kind is NoticeKind.REFUSED:
            self.touch(PromptAnswered(Answer.CANCEL))
            return False
        return True

    def answer(self) -> None:
        """Answer whatever the screen asks until it asks nothing."""
        for _ in range(50):
            prompt = self.table.prompt
            if prompt is None:
                return
            self._answer(prompt)
        raise RuntimeError(f"the table keeps asking: {self.table.prompt}")

    def _answer(self, prompt: object) -> None:
        match prompt:
            case PickPrompt(seat):
                self.touch(CardNamed(self.lying[seat].code))
            case SuspectPrompt(earlier=earlier):
                place = (earlier.hand, earlier.trick, earlier.seat)
                if self.truth.get(place) != earlier.card:
                    self.touch(PromptAnswered(Answer.CORRECT))
                    if not self.correct(*place, from_picker=False):
                        self.correct(*place)  # a swap: see _swap
                else:
                    self.touch(PromptAnswered(Answer.NO))
            case MisreadPrompt(renege, hand):
                place = (hand, renege.trick, renege.seat)
                if self.truth.get(place) != renege.card:
                    self.touch(PromptAnswered(Answer.MISREAD))
                    if not self.correct(*place, from_picker=False):
                        self.correct(*place)  # a swap: see _swap
                else:
                    self.touch(PromptAnswered(Answer.OK))
                    self.check_evidence(hand, renege.trick, renege.proved_by_trick, renege.seat)
            case _:
                self.touch(PromptAnswered(Answer.CANCEL))

    def check_evidence(self, hand: int, trick: int, proof: int, seat: Seat) -> None:
        """A renege's evidence on the screen: the card led to its trick and the proving card;
        the players correct whichever of them is not what was played."""
        recorded = self.table.hand(hand)
        if recorded is None or len(recorded.tricks) < max(trick, proof):
            return
        leader, led = recorded.tricks[trick - 1].cards[0]
        if self.truth.get((hand, trick, leader)) != led:
            self.correct(hand, trick, leader)
        proving = recorded.tricks[proof - 1].card_of(seat)
        if proving is not None and self.truth.get((hand, proof, seat)) != proving:
            self.correct(hand, proof, seat)

    def check_trick(self, hand: int, number: int, winner: Seat | None) -> None:
        """A trick just completed: a wrong winner on the screen is seen and put right."""
        recorded = self.table.hand(hand)
        if recorded is None or len(recorded.tricks) < number:
            return
        shown = recorded.tricks[number - 1]
        if shown.winner is winner:
            return
        for seat, card in list(shown.cards):
            if self.truth.get((hand, number, seat)) != card:
                self.correct(hand, number, seat)

    def gather(self, hand: int, number: int) -> None:
        """The trick's winner takes the cards: the camera sees each leave its zone."""
        recorded = self.table.hand(hand)
        if recorded is None or len(recorded.tricks) < number:
            return
        clock = self.app.controller.clock
        for seat, card in list(recorded.tricks[number - 1].cards):
            self.app.handle(Sighting(SightingKind.REMOVED, clock(), seat, card, 0.9))
            self.lying.pop(seat, None)

    def check_hand(self, true_hand: Hand) -> None:
        """A hand ended: points not as played make the players correct its misread cards."""
        recorded = self.table.hand(true_hand.number)
        if recorded is None or recorded.points == true_hand.points:
            return
        self.reconcile(true_hand.number)

    def reconcile(self, number: int) -> None:
        """Correct every card of hand `number` that is not what was played, until none is."""
        for _ in range(6):
            recorded = self.table.hand(number)
            wrong = [
                (number, trick_number, seat)
                for trick_number, trick in enumerate(recorded.tricks if recorded else [], 1)
                for seat, card in trick.cards
                if self.truth.get((number, trick_number, seat)) not in (None, card)
            ]
            if not wrong or not any([self.correct(*place) for place in wrong]):
                return


def play_game(
    seed: int,
    state_dir: Path,
    p_unreadable: float = 0.05,
    p_wrong: float = 0.01,
    renege_rate: float = 0.0,
) -> GameResult:
    """One simulated game at a table whose camera fails with the given chances."""
    rng = random.Random(seed * 7919 + 17)
    game = simulate_game(seed=seed, renege_rate=renege_rate)
    start = game.events[0]
    assert isinstance(start, GameStarted)
    clock = ManualClock()
    with Journal(state_dir / f"game{seed}.sqlite") as journal:
        controller = TableController(
            journal, start.rules, start.dealer, clock=clock, unreadable_prompt_s=PROMPT_WAIT_S
        )
        players = Players(TableApp(AppConfig(), controller, clock=clock))
        truth = GameState(start)
        result = GameResult(True, 0, 0)
        for event in game.events[1:]:
            if not isinstance(event, CardPlayed):
                pressed = _press(event, players.table)
                truth.apply(event)
                if pressed is not None:
                    players.app.handle(pressed)
                players.answer()
                continue
            hand = truth.hand
            trick_number = len(hand.tricks) + (
                0 if hand.tricks and hand.tricks[-1].winner is None else 1
            )
            truth.apply(event)
            players.truth[(hand.number, trick_number, event.seat)] = event.card
            players.lying[event.seat] = event.card
            _show(players, event.seat, event.card, rng, p_unreadable, p_wrong, result, clock,
                  start.rules.joker)
            players.answer()
            if _recorded_cards(players.table, hand.number) < _cards(hand):
                players.reconcile(hand.number)  # the card was not taken: show it again
                players.app.handle(
                    Sighting(SightingKind.PLACED, clock(), event.seat, event.card, 0.9)
                )
                players.answer()
            winner = hand.tricks[trick_number - 1].winner
            if winner is not None:
                players.check_trick(hand.number, trick_number, winner)
                players.answer()
                players.gather(hand.number, trick_number)
            if truth.hand is not hand:
                players.check_hand(hand)
                players.answer()
        recorded = players.table.state
        result.true_score = recorded.scores == truth.scores and recorded.winner == truth.winner
        result.false_reneges = _false_reneges(recorded, truth)
        result.presses = players.presses
    return result


def _show(
    players: Players,
    seat: Seat,
    card: Card,
    rng: random.Random,
    p_unreadable: float,
    p_wrong: float,
    result: GameResult,
    clock: ManualClock,
    joker: bool,
) -> None:
    """The camera's view of a card laid in `seat`'s zone."""
    app = players.app
    draw = rng.random()
    if draw < p_unreadable:
        result.unreadable += 1
        app.handle(Sighting(SightingKind.PLACED, clock(), seat, None, 0.0))
        if rng.random() < LAID_FLAT:
            clock.advance(rng.uniform(0.2, PROMPT_WAIT_S * 0.9))
            app.handle(Sighting(SightingKind.IDENTIFIED, clock(), seat, card, 0.9))
        else:
            clock.advance(PROMPT_WAIT_S + 0.5)
            app.drain()
        return
    if draw < p_unreadable + p_wrong:
        result.misread += 1
        card = rng.choice([other for other in deck(joker) if other != card])
    app.handle(Sighting(SightingKind.PLACED, clock(), seat, card, 0.9))


def _press(event: object, table: TableController) -> inputs.PlayerInput | None:
    """The press that makes a bid, trump or exchange happen; None for a pass the table made."""
    match event:
        case BidMade(seat, bid) if bid.is_pass:
            state = table.state
            if state.phase is not Phase.BIDDING or state.turn is not seat:
                return None  # after a moon the table records the passes itself
            return inputs.PassPressed(seat.value)
        case BidMade(seat, bid):
            value = bid.log_value
            return inputs.BidPressed(seat.value, value if isinstance(value, int) else _named(value))
        case TrumpNamed(seat, suit):
            return inputs.TrumpPressed(seat.value, suit.value)
        case ExchangeDone(seat) | DealerDiscarded(seat):
            return inputs.ConfirmPressed(seat.value)
        case AceNoFaceClaimed(seat):
            return inputs.AceNoFaceClaimed(seat.value)
    raise TypeError(f"not a table press: {event!r}")


def _named(value: str) -> inputs.BidValue:
    if value not in ("ask", "moon"):
        raise ValueError(f"not a bid a key makes: {value!r}")
    return "ask" if value == "ask" else "moon"


def _cards(hand: Hand) -> int:
    return sum(len(trick.cards) for trick in hand.tricks)


def _recorded_cards(table: TableController, number: int) -> int:
    hand = table.hand(number)
    return _cards(hand) if hand is not None else 0


def _false_reneges(recorded: GameState, truth: GameState) -> int:
    true = {(hand.number, r.seat, r.trick) for hand in truth.completed for r in hand.reneges}
    return sum(
        1
        for hand in recorded.completed
        for r in hand.reneges
        if (hand.number, r.seat, r.trick) not in true
    )


def run_games(
    games: int, p_unreadable: float, p_wrong: float, renege_rate: float = 0.0
) -> list[GameResult]:
    """`games` simulated games, each in its own journal in a temporary folder (in memory
    where /dev/shm exists: the same SQLite journal, without waiting for a disk's fsync)."""
    shm = Path("/dev/shm")
    where = str(shm) if shm.is_dir() else None
    with tempfile.TemporaryDirectory(prefix="cardtable-misreads-", dir=where) as folder:
        return [
            play_game(seed, Path(folder), p_unreadable, p_wrong, renege_rate)
            for seed in range(1, games + 1)
        ]


def summary_line(results: list[GameResult]) -> str:
    """`games: N, finished with the true score: N, false reneges left standing: 0, ...`."""
    true = sum(1 for result in results if result.true_score)
    false = sum(result.false_reneges for result in results)
    presses = sum(result.presses for result in results) / max(len(results), 1)
    return (
        f"games: {len(results)}, finished with the true score: {true}, "
        f"false reneges left standing: {false}, presses per game: {presses:.2f}"
    )


