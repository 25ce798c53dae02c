"""What a press means: a button on a pad or the panel, or a touch on the screen."""

from __future__ import annotations

from dataclasses import replace

from app.correcting import Correcting
from app.entry import Keyed, Stage
from app.game_record import GameRecord
from app.intake import Intake
from app.notices import Notice, NoticeKind
from app.picks import Picks
from app.prompts import (
    PAGE_INPUTS,
    TOUCH_INPUTS,
    Answer,
    CardNamed,
    CorrectionOpened,
    CorrectionPrompt,
    HandShown,
    MisreadPrompt,
    NamingAsked,
    PageInput,
    PickPrompt,
    PlayedChosen,
    PlayedPrompt,
    PromptAnswered,
    SuspectPrompt,
    TouchInput,
)
from app.questions import Questions
from drivers import inputs
from drivers.keys import key_name_of
from table import (
    AceNoFaceClaimed,
    Bid,
    BidMade,
    Card,
    CardParseError,
    DealerDiscarded,
    ExchangeDone,
    Phase,
    Seat,
    Suit,
    TrumpNamed,
    Undone,
)


class Presses:
    """Turns each press or touch into an event, a named card, an answer or a key entry."""

    def __init__(self, record: GameRecord, questions: Questions, intake: Intake,
                 picks: Picks, correcting: Correcting, seat_confirms: bool = False) -> None:
        """`seat_confirms`: shared value keys only propose; the seat's own OK decides who."""
        self.record = record
        self.questions = questions
        self.intake = intake
        self.picks = picks
        self.correcting = correcting
        self.seat_confirms = seat_confirms

    def press(self, pressed: inputs.PlayerInput | TouchInput | PageInput) -> list[Notice]:
        """Handle one button press, a touch on the screen, or a correction from the page."""
        if isinstance(pressed, TOUCH_INPUTS):
            return self._on_touch(pressed)
        if isinstance(pressed, PAGE_INPUTS):
            return self.picks.from_page(pressed)
        keyed = self._on_key(pressed)
        if keyed is not None:
            return keyed
        questions = self.questions
        if (
            self.seat_confirms
            and isinstance(pressed, inputs.BidPressed | inputs.TrumpPressed)
            and pressed.seat is None
        ):
            questions.proposal = pressed
            if isinstance(pressed, inputs.BidPressed):
                what = f"bid {pressed.bid}"
            else:
                what = f"name trump {Suit(pressed.suit).symbol}"
            return [Notice(NoticeKind.HELD, f"to {what}, press OK on your own pad")]
        if isinstance(pressed, inputs.ConfirmPressed) and pressed.seat and questions.proposal:
            proposal, questions.proposal = questions.proposal, None
            return self.press(replace(proposal, seat=pressed.seat))
        submit = self.intake.submit
        match pressed:
            case inputs.BidPressed(seat, bid):
                return submit(BidMade(self._seat(seat), Bid.parse(bid)))
            case inputs.PassPressed(seat):
                return submit(BidMade(self._seat(seat), Bid.parse("pass")))
            case inputs.TrumpPressed(seat, suit):
                return submit(TrumpNamed(self._seat(seat), Suit(suit)))
            case inputs.ConfirmPressed(seat):
                return self._confirm()
            case inputs.UndoPressed():
                questions.forget()
                return submit(Undone())
            case inputs.NewGameConfirmed():
                return self.intake.new_game()
            case inputs.AceNoFaceClaimed(seat):
                if seat is None:
                    return [
                        Notice(
                            NoticeKind.REFUSED, "Ace No Face: press it on the claimant's own pad"
                        )
                    ]
                return submit(AceNoFaceClaimed(Seat(seat)))
        return [Notice(NoticeKind.REFUSED, f"unknown input {pressed!r}")]

    def _on_touch(self, touch: TouchInput) -> list[Notice]:
        """A touch on the screen: a card of the pick, a prompt's button, a played card."""
        entry = self.questions.entry
        match touch:
            case CardNamed(code, seat):
                try:
                    card = Card.parse(code)
                except CardParseError as error:
                    return [Notice(NoticeKind.REFUSED, str(error))]
                prompt = self.questions.prompt
                if seat is None and not isinstance(prompt, PickPrompt | CorrectionPrompt):
                    return [Notice(NoticeKind.REFUSED, f"no card is asked for: {card} ignored")]
                entry.clear()
                return self.picks.card_named(card, seat)
            case PromptAnswered(answer):
                return self.picks.answer(answer)
            case PlayedChosen(hand, trick, seat):
                entry.clear()
                return self.correcting.choose_played(hand, trick, seat)
            case CorrectionOpened():
                entry.clear()
                return self.correcting.open_played(message="touch the card to correct")
            case HandShown(number):
                return self.correcting.show_hand(number)
            case NamingAsked(seat):
                entry.clear()
                return self.picks.ask_name(seat)
        return [Notice(NoticeKind.REFUSED, f"unknown touch {touch!r}")]

    def _on_key(self, pressed: inputs.PlayerInput) -> list[Notice] | None:
        """A key that names a card, a seat or a trick, or answers the screen; None otherwise."""
        key = key_name_of(pressed)
        if key is None:
            return None
        questions = self.questions
        entry, prompt = questions.entry, questions.prompt
        if isinstance(pressed, inputs.CardKeyPressed):
            entry.clear()
            entry.stage = Stage.CARD
            questions.entry_seat = Seat(pressed.seat) if pressed.seat else None
            return self.picks.ask_name(questions.entry_seat)
        if isinstance(pressed, inputs.CorrectKeyPressed):
            if isinstance(prompt, SuspectPrompt):
                return self.picks.answer(Answer.CORRECT)
            if isinstance(prompt, MisreadPrompt):
                return self.picks.answer(Answer.MISREAD)
            entry.clear()
            entry.stage = Stage.SEAT
            return self.correcting.open_played(
                message="correct a card: the seat key (3 4 5 6 = N E S W)")
        if entry.stage in (Stage.SEAT, Stage.TRICK) and not isinstance(prompt, PlayedPrompt):
            entry.clear()  # the list of played cards was closed: the keys mean themselves
        if key == "UNDO" and entry.partial:
            entry.clear()
            return [Notice(NoticeKind.ENTRY, "entry dropped")]
        if entry.stage is Stage.SEAT:
            return self._keyed(entry.seat_key(key), "press a seat key: 3 4 5 6 = N E S W")
        if entry.stage is Stage.TRICK:
            return self._keyed(entry.trick_key(key), "press a trick key: 3 to MOON = 1 to 6")
        if not self._naming_card():
            return None
        keyed = entry.card_key(key, self.record.state.rules.joker)
        if keyed is None:
            if entry.rank is not None:
                return [Notice(NoticeKind.REFUSED, "press a suit key to finish the card, or UNDO")]
            return None
        return self._keyed(keyed, "")

    def _keyed(self, keyed: Keyed | None, wrong: str) -> list[Notice]:
        """What a key taken by the entry did: a card named, a seat or a trick chosen."""
        if keyed is None:
            return [Notice(NoticeKind.REFUSED, wrong)]
        questions = self.questions
        if keyed.card is not None:
            seat, questions.entry_seat = questions.entry_seat, None
            return self.picks.card_named(keyed.card, seat)
        if keyed.seat is not None:
            questions.entry_seat = keyed.seat
            played = questions.prompt
            if isinstance(played, PlayedPrompt):
                questions.prompts[0] = replace(played, seat=keyed.seat)
        if keyed.trick is not None:
            seat, questions.entry_seat = questions.entry_seat, None
            played = questions.prompt
            if seat is None or not isinstance(played, PlayedPrompt):
                return [Notice(NoticeKind.REFUSED, "no card chosen to correct")]
            return self.correcting.choose_played(played.hand, keyed.trick, seat)
        return [Notice(NoticeKind.ENTRY, keyed.message)]

    def _naming_card(self) -> bool:
        """Whether rank and suit keys name a card now."""
        prompt = self.questions.prompt
        if self.questions.entry.stage is Stage.CARD or isinstance(
            prompt, PickPrompt | CorrectionPrompt
        ):
            return True
        return prompt is None and self.record.state.phase is Phase.PLAY

    def _seat(self, seat: str | None) -> Seat:
        """The seat that pressed, or the seat whose turn it is for a shared panel."""
        if seat is not None:
            return Seat(seat)
        return self.record.state.turn or Seat.N

    def _confirm(self) -> list[Notice]:
        """OK: answers the prompt, dismisses the problems, or ends the exchange or discard."""
        state, questions = self.record.state, self.questions
        phase, turn = state.phase, state.turn
        if questions.prompt is not None:
            answer = Answer.NO if isinstance(questions.prompt, SuspectPrompt) else Answer.OK
            return self.picks.answer(answer)
        if questions.problems:
            questions.problems.clear()
            return [Notice(NoticeKind.ACCEPTED, "problems dismissed")]
        if phase is Phase.EXCHANGE and turn is not None:
            return self.intake.submit(ExchangeDone(turn))
        if phase is Phase.DISCARD and turn is not None:
            return self.intake.submit(DealerDiscarded(turn))
        return [Notice(NoticeKind.REFUSED, "nothing to confirm")]
