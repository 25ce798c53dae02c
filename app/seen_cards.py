"""What the camera reports: a card come to rest, read late, or taken away; and the time
after which an unreadable card is asked for by name."""

from __future__ import annotations

from collections.abc import Callable

from app.game_record import CAMERA, GameRecord
from app.intake import Intake
from app.notices import Notice, NoticeKind
from app.prompts import Pending, PickPrompt, PickReason, SuspectPrompt
from app.questions import Questions
from table import JOKER, Card, Seat


class SeenCards:
    """Takes the camera's sightings in; asks for a card unreadable for too long."""

    def __init__(self, record: GameRecord, questions: Questions, intake: Intake,
                 clock: Callable[[], float], unreadable_prompt_s: float) -> None:
        """A card unreadable for `unreadable_prompt_s` (by `clock`) is asked for."""
        self.record = record
        self.questions = questions
        self.intake = intake
        self.clock = clock
        self.unreadable_prompt_s = unreadable_prompt_s

    def placed(self, seat: Seat, card: Card | None, identified: bool = False) -> list[Notice]:
        """A card came to rest in `seat`'s zone; None when unreadable.

        `identified`: the camera now reads a card it first reported unreadable, where it lies.
        A joker read where the deck has none is a misreading: the card counts as unreadable.
        """
        questions = self.questions
        if card == JOKER and not self.record.state.rules.joker:
            card = None
        if card is None:
            questions.problems.unreadable_since.setdefault(seat, self.clock())
            return [
                Notice(
                    NoticeKind.UNREADABLE_CARD,
                    f"{seat}: card unreadable, place it flat in your zone",
                    seat,
                )
            ]
        if identified and seat in questions.named:
            questions.named.discard(seat)
            return []  # a person named this card already: their word stands
        questions.problems.unreadable_since.pop(seat, None)
        questions.close(lambda p: isinstance(p, PickPrompt) and p.seat is seat)
        on_table = self.record.on_table
        if (seat, card) in on_table and (seat, card) in self.record.trick_on_table():
            return []  # the same card seen again where it lies, e.g. after a restart
        return self.intake.place(Pending(seat, card, CAMERA, card.code))

    def removed(self, seat: Seat, card: Card | None) -> list[Notice]:
        """A card left `seat`'s zone: gathered with its trick, or a held card taken back."""
        questions = self.questions
        if card is None:
            questions.problems.unreadable_since.pop(seat, None)
            questions.named.discard(seat)
            questions.close(
                lambda p: isinstance(p, PickPrompt)
                and p.seat is seat
                and p.reason is PickReason.UNREADABLE
            )
            return []
        self.record.taken_away(seat, card)
        if questions.held.get(seat) == card:
            questions.let_go(seat)
        if questions.problems.already_played.get(seat) == card:
            del questions.problems.already_played[seat]
            questions.close(lambda p: isinstance(p, SuspectPrompt) and p.seat is seat)
        return []

    def tick(self) -> list[Notice]:
        """Let time pass: a card unreadable for long enough is asked for by name."""
        questions = self.questions
        now = self.clock()
        notices: list[Notice] = []
        for seat, since in sorted(questions.problems.unreadable_since.items()):
            if now - since < self.unreadable_prompt_s or seat in questions.named:
                continue
            if any(isinstance(p, PickPrompt) and p.seat is seat for p in questions.prompts):
                continue
            questions.prompts.append(PickPrompt(seat, PickReason.UNREADABLE))
            message = f"{seat}: the camera cannot read your card: name it"
            notices.append(Notice(NoticeKind.PROMPT, message, seat))
        return notices
