"""Errors raised by the rules engine; every one names the offending value."""

from __future__ import annotations

from enum import StrEnum

SHOWN_LENGTH = 40


def shown(value: object) -> str:
    """A short echo of a value for an error message: a repr cut to about 40 characters."""
    if isinstance(value, str):
        if len(value) <= SHOWN_LENGTH:
            return repr(value)
        return f"{value[:SHOWN_LENGTH]!r}... ({len(value)} characters)"
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        if value.bit_length() <= 128:
            return repr(value)
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
    if isinstance(value, list | tuple):
        return f"a list of {len(value)} items"
    if isinstance(value, dict):
        return f"an object with {len(value)} keys"
    if isinstance(value, type):
        return f"the class {value.__name__}"
    return f"a {type(value).__name__}"


class TableError(Exception):
    """Base of every error the rules engine raises."""


class CardParseError(TableError, ValueError):
    """A text is not a card in the notation `RANK + SUIT` (or `JK`)."""

    def __init__(self, text: object, reason: str = "", what: str = "a card") -> None:
        self.text = text
        detail = f": {reason}" if reason else ""
        super().__init__(f"{shown(text)} is not {what}{detail}")


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
        kind: Refusal = Refusal.MALFORMED,
        cause: InvalidEvent | None = None,
    ) -> None:
        self.reason = reason
        self.kind = kind
        self.cause = cause
        super().__init__(reason)


class LogError(TableError, ValueError):
    """A table log line is malformed or invalid; names the 1-based line number."""

    def __init__(self, line: int, reason: str, kind: Refusal = Refusal.MALFORMED) -> None:
        self.line = line
        self.reason = reason
        self.kind = kind
        super().__init__(f"line {line}: {reason}")
