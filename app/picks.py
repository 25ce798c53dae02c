"""The screen's questions: a card asked for by name, named, and the answers to prompts."""

from __future__ import annotations

from dataclasses import replace

from app.correcting import Correcting
from app.game_record import PERSON, GameRecord
from app.intake import Intake
from app.journal import UNREADABLE
from app.notices import Notice, NoticeKind
from app.prompts import (
    Answer,
    CorrectionPrompt,
    MisreadPrompt,
    PageInput,
    Pending,
    PickPrompt,
    PickReason,
    PlayedPrompt,
    SeatCardNamed,
    SuspectPrompt,
)
from app.questions import Questions
from table import JOKER, Card, Seat
from table.hand import Play


class Picks:
    """Asks for cards by name, takes the names given, and takes the answers to prompts."""

    def __init__(self, record: GameRecord, questions: Questions, intake: Intake,
                 correcting: Correcting) -> None:
        """Named cards go in through `intake`; corrections confirmed through `correcting`."""
        self.record = record
        self.questions = questions
        self.intake = intake
        self.correcting = correcting

    def ask_name(self, seat: Seat | None) -> list[Notice]:
        """Open the pick for `seat`, an unreadable seat's card, or the seat whose turn it is."""
        questions = self.questions
        if isinstance(questions.prompt, PickPrompt | CorrectionPrompt) and seat is None:
            return [Notice(NoticeKind.ENTRY, "name the card: rank key, then suit key")]
        unreadable = questions.problems.unreadable
        target = seat or min(unreadable, default=None) or self.record.turn_to_play()
        if target is None:
            questions.entry.clear()
            return [Notice(NoticeKind.REFUSED, "no card to name now")]
        questions.close(lambda p: isinstance(p, PickPrompt) and p.seat is target)
        reason = PickReason.UNREADABLE if target in unreadable else PickReason.ASKED
        questions.ask(PickPrompt(target, reason))
        return [Notice(NoticeKind.PROMPT, f"{target}: name the card", target)]

    def card_named(self, card: Card, seat: Seat | None) -> list[Notice]:
        """A person named `card`: the corrected card, or the card lying in a seat's zone."""
        questions = self.questions
        prompt = questions.prompt
        if isinstance(prompt, CorrectionPrompt):
            play = prompt.play
            questions.prompts[0] = replace(prompt, chosen=card, refused=None)
            return [
                Notice(
                    NoticeKind.PROMPT,
                    f"{play.seat}'s card of trick {play.trick} was {card}? OK to confirm",
                    play.seat,
                    card,
                )
            ]
        if seat is None and isinstance(prompt, PickPrompt):
            seat = prompt.seat
        target = seat or self.record.turn_to_play()
        if target is None:
            return [Notice(NoticeKind.REFUSED, f"no card to name now: {card} not recorded")]
        return self.name_at(card, target)

    def name_at(self, card: Card, target: Seat) -> list[Notice]:
        """A person named `card` as the card lying in `target`'s zone."""
        questions = self.questions
        camera_read: str | None = None
        if target in questions.problems.unreadable:
            camera_read = UNREADABLE
            questions.named.add(target)
        for asked in questions.prompts:
            if isinstance(asked, PickPrompt) and asked.seat is target and asked.camera_read:
                camera_read = asked.camera_read.code
        questions.problems.unreadable_since.pop(target, None)
        questions.close(lambda p: isinstance(p, PickPrompt) and p.seat is target)
        if (target, card) in self.record.trick_on_table():
            return [Notice(NoticeKind.ACCEPTED, f"{target}'s {card} is recorded already", target)]
        return self.intake.place(Pending(target, card, PERSON, camera_read))

    def from_page(self, asked: PageInput) -> list[Notice]:
        """What the pick or a correction at the table does, in one step; a refusal leaves the
        screen's questions as they were (and a half-keyed entry on the panel is kept)."""
        if asked.card == JOKER and not self.record.state.rules.joker:
            return [Notice(NoticeKind.REFUSED, "the joker is not in this deck")]
        if isinstance(asked, SeatCardNamed):
            return self.name_at(asked.card, asked.seat)
        return self.correcting.correct_from_page(asked)

    def answer(self, answer: Answer) -> list[Notice]:
        """One of the prompt's buttons: what it does depends on the prompt on the screen."""
        questions = self.questions
        prompt = questions.prompt
        if prompt is None:
            return [Notice(NoticeKind.REFUSED, "nothing is asked now")]
        questions.entry.clear()
        match prompt:
            case PickPrompt(seat) if answer in (Answer.OK, Answer.CANCEL):
                questions.prompts.pop(0)
                questions.problems.unreadable_since.pop(seat, None)
                return [Notice(NoticeKind.ACCEPTED, f"{seat}: no card named")]
            case PlayedPrompt() if answer in (Answer.OK, Answer.CANCEL):
                questions.prompts.pop(0)
                return [Notice(NoticeKind.ACCEPTED, "no correction")]
            case CorrectionPrompt(play, chosen) if answer in (Answer.OK, Answer.CONFIRM):
                if chosen is None:
                    return [Notice(NoticeKind.REFUSED, f"first name the card {play.seat} played")]
                return self.correcting.correct(prompt, chosen)
            case CorrectionPrompt() if answer is Answer.CANCEL:
                questions.prompts.pop(0)
                return [Notice(NoticeKind.ACCEPTED, "correction cancelled")]
            case SuspectPrompt(seat, card, earlier, pending) if answer is Answer.CORRECT:
                questions.prompts[0] = CorrectionPrompt(earlier, then=pending)
                return [
                    Notice(
                        NoticeKind.PROMPT,
                        f"what did {earlier.seat} play in trick {earlier.trick}?",
                        earlier.seat,
                    )
                ]
            case SuspectPrompt(seat, card) if answer in (Answer.OK, Answer.NO, Answer.CANCEL):
                questions.prompts[0] = PickPrompt(seat, PickReason.DISPUTED, camera_read=card)
                questions.problems.already_played.pop(seat, None)
                return [Notice(NoticeKind.PROMPT, f"{seat}: name the card, not {card}", seat)]
            case MisreadPrompt() if answer is Answer.OK:
                questions.prompts.pop(0)
                return [Notice(NoticeKind.ACCEPTED, "renege stands")]
            case MisreadPrompt(renege, hand) if answer is Answer.MISREAD:
                play = Play(hand, renege.trick, renege.seat, renege.card)
                questions.prompts[0] = CorrectionPrompt(play)
                return [
                    Notice(
                        NoticeKind.PROMPT,
                        f"what did {renege.seat} play in trick {renege.trick}?",
                        renege.seat,
                    )
                ]
        return [Notice(NoticeKind.REFUSED, f"{answer} does not answer this question")]
