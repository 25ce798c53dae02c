"""Errors raised by the rules engine; every one names the offending value."""

from __future__ import annotations


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


class InvalidEvent(TableError, ValueError):
    """An event the rules do not allow at this point; the state is left unchanged."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


class LogError(TableError, ValueError):
    """A table log line is malformed or invalid; names the 1-based line number."""

    def __init__(self, line: int, reason: str) -> None:
        self.line = line
        self.reason = reason
        super().__init__(f"line {line}: {reason}")
