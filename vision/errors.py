"""Errors raised by the vision package."""

from __future__ import annotations


class VisionError(Exception):
    """Base of every error raised by vision."""


class ImageReadError(VisionError, OSError):
    """An image file could not be read or decoded."""


class CardNameError(VisionError, ValueError):
    """A card name such as 'JH' could not be parsed."""


class ProfileError(VisionError, ValueError):
    """A deck profile is missing, malformed or incomplete."""
