"""Errors raised by the display package."""

from __future__ import annotations


class DisplayError(Exception):
    """Base error of the display package."""


class ViewError(DisplayError, ValueError):
    """A view holds a value outside the log's notation (a seat, team, suit, card or bid)."""


class FontMissingError(DisplayError, FileNotFoundError):
    """The shipped font file cannot be found."""
