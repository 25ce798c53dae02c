"""Button names and what a press of each one means."""

from __future__ import annotations

from drivers.inputs import (
    AceNoFaceClaimed,
    BidPressed,
    CardKeyPressed,
    ConfirmPressed,
    CorrectKeyPressed,
    PassPressed,
    PlayerInput,
    Seat,
    Suit,
    TrumpPressed,
    UndoPressed,
)

BID_KEYS: dict[str, int | str] = {str(n): n for n in range(3, 13)} | {"ASK": "ask", "MOON": "moon"}
SUIT_KEYS: dict[str, Suit] = {"CLUBS": "C", "DIAMONDS": "D", "HEARTS": "H", "SPADES": "S"}
OTHER_KEYS = ("PASS", "OK", "UNDO", "ACE_NO_FACE", "CARD", "CORRECT")
KEY_NAMES: frozenset[str] = frozenset(BID_KEYS) | frozenset(SUIT_KEYS) | frozenset(OTHER_KEYS)

SHARED_PANEL_KEYS = (
    "3", "4", "5", "6", "ASK", "MOON", "PASS",
    "CLUBS", "DIAMONDS", "HEARTS", "SPADES", "OK", "UNDO", "CARD", "CORRECT",
)  # fmt: skip

# The second label printed on each key: what it means while a card, a seat or a trick is
# being entered (after CARD or CORRECT, or while the screen asks for a card).
RANK_KEYS: dict[str, str] = {"3": "9", "4": "T", "5": "J", "6": "Q", "ASK": "K", "MOON": "A"}
JOKER_KEY = "PASS"
SEAT_KEYS: dict[str, Seat] = {"3": "N", "4": "E", "5": "S", "6": "W"}
TRICK_KEYS: dict[str, int] = {"3": 1, "4": 2, "5": 3, "6": 4, "ASK": 5, "MOON": 6}
TRICK_SHIFT_KEY = "PASS"  # before a trick key: tricks 7 to 12 of a double-deck hand


def is_key_name(name: str) -> bool:
    """Whether `name` is a button the table understands."""
    return name in KEY_NAMES


def key_name_of(pressed: PlayerInput) -> str | None:
    """The key whose short press gives `pressed` (None for an input no key gives)."""
    match pressed:
        case BidPressed(_, bid):
            return next((name for name, value in BID_KEYS.items() if value == bid), None)
        case TrumpPressed(_, suit):
            return next(name for name, value in SUIT_KEYS.items() if value == suit)
        case PassPressed():
            return "PASS"
        case ConfirmPressed():
            return "OK"
        case UndoPressed():
            return "UNDO"
        case CardKeyPressed():
            return "CARD"
        case CorrectKeyPressed():
            return "CORRECT"
    return None


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
    if name == "CARD":
        return CardKeyPressed(seat)
    if name == "CORRECT":
        return CorrectKeyPressed(seat)
    raise ValueError(f"unknown button {name!r}: expected one of {sorted(KEY_NAMES)}")
