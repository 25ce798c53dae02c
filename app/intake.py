"""Events and placed cards taken into the game: applied, journaled and reported."""

from __future__ import annotations

from app.game_record import CAMERA, GameRecord
from app.journal import Provenance
from app.notices import Notice, NoticeKind, describe
from app.prompts import MisreadPrompt, Pending, PickPrompt, SuspectPrompt
from app.questions import Questions
from table import (
    Bid,
    BidKind,
    BidMade,
    CardCorrected,
    CardPlayed,
    Event,
    InvalidEvent,
    Phase,
)
from table.hand import Play


class Intake:
    """Takes events and cards into the game; a card out of turn waits for its seat's turn."""

    def __init__(self, record: GameRecord, questions: Questions) -> None:
        """Events go into `record`; what is held or asked goes into `questions`."""
        self.record = record
        self.questions = questions

    def submit(self, event: Event, provenance: Provenance | None = None) -> list[Notice]:
        """Apply, journal, then report; held cards whose turn came are played after."""
        notices = self.apply(event, provenance)
        if notices and notices[0].kind is NoticeKind.REFUSED:
            return notices
        if isinstance(event, BidMade) and event.bid.kind is BidKind.MOON:
            notices.extend(self._forced_passes())
        notices.extend(self._play_held())
        return notices

    def apply(self, event: Event, provenance: Provenance | None = None) -> list[Notice]:
        """Apply and journal one event; a refusal, or what it did (reneges it proved too)."""
        try:
            self.record.apply(event, provenance)
        except InvalidEvent as error:
            return [Notice(NoticeKind.REFUSED, error.reason)]
        notices = [
            Notice(
                NoticeKind.ACCEPTED,
                describe(event),
                getattr(event, "seat", None),
                event.card if isinstance(event, CardPlayed | CardCorrected) else None,
            )
        ]
        questions = self.questions
        if isinstance(event, CardPlayed):
            questions.problems.clear(event.seat)
            questions.close(lambda p: isinstance(p, PickPrompt) and p.seat is event.seat)
        for renege in self.record.state.newly_proven:
            notices.append(
                Notice(NoticeKind.RENEGE, f"renege by {renege.seat}", renege.seat, renege.card,
                       renege)
            )
            questions.prompts.append(MisreadPrompt(renege, self.record.hand_of(renege)))
        return notices

    def place(self, named: Pending) -> list[Notice]:
        """A card lying in a seat's zone, read by the camera or named by a person."""
        seat, card = named.seat, named.card
        state = self.record.state
        hand = state.hand
        if hand.played[card] >= state.rules.copies:
            self.questions.problems.already_played[seat] = card
            where = hand.where_played(card)
            detail = ""
            if where is not None:
                earlier = Play(hand.number, where[0], where[1], card)
                self.questions.close(lambda p: isinstance(p, SuspectPrompt) and p.seat is seat)
                self.questions.ask(SuspectPrompt(seat, card, earlier, named))
                detail = f" (trick {where[0]} by {where[1]}: misread there?)"
            return [
                Notice(
                    NoticeKind.ALREADY_PLAYED,
                    f"{card} was already played this hand{detail}: not recorded",
                    seat,
                    card,
                )
            ]
        contract = hand.contract
        if contract is not None and seat is contract.sitting_out:
            self.questions.problems.out_of_turn[seat] = card
            return [Notice(NoticeKind.OUT_OF_TURN, f"{seat} sits out this hand", seat, card)]
        if state.phase is Phase.PLAY and state.turn is seat:
            return self.submit(CardPlayed(seat, card), self._provenance(named))
        replaced = self.questions.hold(named, hand.number)
        message = f"{seat}'s {card} waits for {seat}'s turn"
        if replaced is not None:
            message += f" (instead of {replaced})"
        return [Notice(NoticeKind.HELD, message, seat, card)]

    def new_game(self) -> list[Notice]:
        """Start a fresh game, the deal passing on; every open question is dropped."""
        dealer = self.record.state.dealer
        self.record.start(dealer)
        self.questions.forget()
        return [Notice(NoticeKind.NEW_GAME, f"new game, {dealer} deals")]

    def _provenance(self, named: Pending) -> Provenance:
        """Who named a card about to be played, and where it will lie."""
        hand = self.record.state.hand
        trick = hand.current_trick
        number = len(hand.tricks) + (0 if trick is not None and trick.winner is None else 1)
        return Provenance(named.source, named.camera_read, hand.number, number)

    def _forced_passes(self) -> list[Notice]:
        """After a moon the others can only pass: the table records it for them."""
        state = self.record.state
        notices: list[Notice] = []
        while state.phase is Phase.BIDDING and state.turn is not None:
            notices.extend(self.apply(BidMade(state.turn, Bid.parse("pass"))))
        return notices

    def _play_held(self) -> list[Notice]:
        """Play the held cards whose turn has come; one held over from a past hand is dropped."""
        questions, state = self.questions, self.record.state
        if questions.held and state.hand.number != questions.held_hand:
            questions.held.clear()  # a card held over from a finished hand means nothing now
            questions.held_from.clear()
        notices: list[Notice] = []
        while state.phase is Phase.PLAY and state.turn in questions.held:
            seat = state.turn
            assert seat is not None
            card = questions.held.pop(seat)
            named = questions.held_from.pop(seat, Pending(seat, card, CAMERA, card.code))
            result = self.apply(CardPlayed(seat, card), self._provenance(named))
            if result and result[0].kind is NoticeKind.REFUSED:
                questions.problems.out_of_turn[seat] = card
                result = [Notice(NoticeKind.OUT_OF_TURN, result[0].message, seat, card)]
            notices.extend(result)
        return notices
