"""Correcting a played card: choosing it among the tricks, naming the real card, confirming."""

from __future__ import annotations

from dataclasses import replace

from app.game_record import PERSON, GameRecord
from app.intake import Intake
from app.journal import Provenance
from app.notices import Notice, NoticeKind
from app.prompts import (
    CorrectionPrompt,
    MisreadPrompt,
    PlayCorrected,
    PlayedPrompt,
    SuspectPrompt,
)
from app.questions import Questions
from table import Card, CardCorrected, Seat
from table.hand import Play


class Correcting:
    """The way to a correction: the played cards shown, one chosen, the real card confirmed."""

    def __init__(self, record: GameRecord, questions: Questions, intake: Intake) -> None:
        """Corrections are checked against `record` and go in through `intake`."""
        self.record = record
        self.questions = questions
        self.intake = intake

    def correctable_hands(self) -> list[int]:
        """The hands whose cards the players may correct: the current and the last."""
        return [hand.number for hand in self.record.correctable()]

    def open_played(self, message: str) -> list[Notice]:
        """Show the played cards of the latest hand with cards played, to choose one."""
        hands = self.record.correctable()
        if not hands:
            self.questions.entry.clear()
            return [Notice(NoticeKind.REFUSED, "no card has been played yet")]
        self.questions.close(lambda p: isinstance(p, PlayedPrompt))
        self.questions.ask(PlayedPrompt(hands[-1].number))
        return [Notice(NoticeKind.PROMPT, message)]

    def show_hand(self, number: int) -> list[Notice]:
        """Show the played cards of hand `number` instead, if it may be corrected."""
        if isinstance(self.questions.prompt, PlayedPrompt) and number in self.correctable_hands():
            self.questions.prompts[0] = PlayedPrompt(number)
            return [Notice(NoticeKind.PROMPT, f"the cards of hand {number}")]
        return [Notice(NoticeKind.REFUSED, f"hand {number} cannot be corrected here")]

    def choose_played(self, number: int, trick: int, seat: Seat) -> list[Notice]:
        """`seat`'s card in `trick` of hand `number` is the one to correct."""
        card = self.record.played_card(number, trick, seat)
        if card is None:
            self.questions.entry.clear()
            return [
                Notice(NoticeKind.REFUSED, f"{seat} has no card in trick {trick} of hand {number}")
            ]
        self.questions.close(lambda p: isinstance(p, PlayedPrompt))
        self.questions.ask(CorrectionPrompt(Play(number, trick, seat, card)))
        return [
            Notice(NoticeKind.PROMPT, f"{seat}'s {card} of trick {trick}: name the real card", seat)
        ]

    def correct(self, prompt: CorrectionPrompt, card: Card) -> list[Notice]:
        """The card played at `prompt`'s play was `card`; a card waiting on it is placed after."""
        play = prompt.play
        event = CardCorrected(play.hand, play.trick, play.seat, card)
        read = self.record.camera_reading(play)
        notices = self.intake.submit(event, Provenance(PERSON, read, play.hand, play.trick))
        if notices[0].kind is NoticeKind.REFUSED:
            self.questions.prompts[0] = replace(prompt, chosen=None, refused=notices[0].message)
            return notices
        self.questions.close(
            lambda p: p is prompt or isinstance(p, MisreadPrompt | SuspectPrompt)
        )
        if prompt.then is not None:
            self.questions.problems.already_played.pop(prompt.then.seat, None)
            notices.extend(self.intake.place(prompt.then))
        return notices

    def correct_from_page(self, asked: PlayCorrected) -> list[Notice]:
        """The phone page's correction in one step; refused, it leaves the screen as it was."""
        if asked.hand not in self.correctable_hands():
            hands = " or ".join(map(str, self.correctable_hands())) or "none yet"
            return [Notice(NoticeKind.REFUSED,
                           f"hand {asked.hand} cannot be corrected here (hands: {hands})")]
        card = self.record.played_card(asked.hand, asked.trick, asked.seat)
        if card is None:
            return [Notice(NoticeKind.REFUSED,
                           f"{asked.seat} has no card in trick {asked.trick} of hand {asked.hand}")]
        prompt = CorrectionPrompt(Play(asked.hand, asked.trick, asked.seat, card))
        self.questions.ask(prompt)
        notices = self.correct(prompt, asked.card)
        if notices[0].kind is NoticeKind.REFUSED:
            self.questions.prompts.pop(0)  # the refused correction is not left on the screen
        return notices
