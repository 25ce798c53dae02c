"""Errors raised by the rules engine; every one names the offending value."""

from __future__ import annotations

from enum import StrEnum


class TableError(Exception):
    """Base of every error the rules engine raises."""


class CardParseError(TableError, ValueError):
    """A text is not a card in the notation `RANK + SUIT` (or `JK`)."""

    def __init__(self, text: object, reason: str = "", what: str = "a card") -> None:
        self.text = text
        detail = f": {reason}" if reason else ""
        super().__init__(f"{text!r} is not {what}{detail}")


class RulesError(TableError, ValueError):
    """A rule option is unknown or has a bad value."""


class Refusal(StrEnum):
    """Why an event is refused: the kind beside the readable reason."""

    MALFORMED = "malformed"
    GAME_START = "game_start"
    WRONG_PHASE = "wrong_phase"
    OUT_OF_TURN = "out_of_turn"
    NOT_HIGHER = "not_higher"
    NO_SUCH_BID = "no_such_bid"
    DEALER_STUCK = "dealer_stuck"
    RULE_OFF = "rule_off"
    SITTING_OUT = "sitting_out"
    NOT_IN_DECK = "not_in_deck"
    ALREADY_PLAYED = "already_played"
    GAME_OVER = "game_over"
    NOTHING_TO_UNDO = "nothing_to_undo"
    NO_SUCH_CARD = "no_such_card"
    SAME_CARD = "same_card"
    CORRECTION_BREAKS_LATER = "correction_breaks_later"


class InvalidEvent(TableError, ValueError):
    """An event the rules do not allow at this point; the state is left unchanged."""

    def __init__(
        self,
        reason: str,
        kind: Refusal = Refusal.WRONG_PHASE,
        cause: InvalidEvent | None = None,
    ) -> None:
        self.reason = reason
        self.kind = kind
        self.cause = cause
        super().__init__(reason)


class LogError(TableError, ValueError):
    """A table log line is malformed or invalid; names the 1-based line number."""

    def __init__(self, line: int, reason: str) -> None:
        self.line = line
        self.reason = reason
        super().__init__(f"line {line}: {reason}")
