"""Button names and what a press of each one means."""

from __future__ import annotations

from drivers.inputs import (
    AceNoFaceClaimed,
    BidPressed,
    ConfirmPressed,
    PassPressed,
    PlayerInput,
    Seat,
    Suit,
    TrumpPressed,
    UndoPressed,
)

BID_KEYS: dict[str, int | str] = {str(n): n for n in range(3, 13)} | {"ASK": "ask", "MOON": "moon"}
SUIT_KEYS: dict[str, Suit] = {"CLUBS": "C", "DIAMONDS": "D", "HEARTS": "H", "SPADES": "S"}
OTHER_KEYS = ("PASS", "OK", "UNDO", "ACE_NO_FACE")
KEY_NAMES: frozenset[str] = frozenset(BID_KEYS) | frozenset(SUIT_KEYS) | frozenset(OTHER_KEYS)

SHARED_PANEL_KEYS = (
    "3", "4", "5", "6", "ASK", "MOON", "PASS",
    "CLUBS", "DIAMONDS", "HEARTS", "SPADES", "OK", "UNDO",
)  # fmt: skip


def is_key_name(name: str) -> bool:
    """Whether `name` is a button the table understands."""
    return name in KEY_NAMES


def press_event(name: str, seat: Seat | None) -> PlayerInput:
    """The input a short press of button `name` means; UNDO gives UndoPressed."""
    if name in BID_KEYS:
        value = BID_KEYS[name]
        return BidPressed(seat, value)  # type: ignore[arg-type]
    if name in SUIT_KEYS:
        return TrumpPressed(seat, SUIT_KEYS[name])
    if name == "PASS":
        return PassPressed(seat)
    if name == "OK":
        return ConfirmPressed(seat)
    if name == "UNDO":
        return UndoPressed(seat)
    if name == "ACE_NO_FACE":
        return AceNoFaceClaimed(seat)
    raise ValueError(f"unknown button {name!r}: expected one of {sorted(KEY_NAMES)}")
