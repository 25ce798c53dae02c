"""Bid Euchre rules engine: a pure fold over the table log."""

from table.bids import ASK, MOON, PASS, Bid, BidKind
from table.cards import JOKER, Card, Suit, effective_suit, trick_key
from table.errors import CardParseError, InvalidEvent, LogError, Refusal, RulesError, TableError
from table.events import (
    AceNoFaceClaimed,
    BidMade,
    CardCorrected,
    CardPlayed,
    DealerDiscarded,
    Event,
    ExchangeDone,
    GameStarted,
    TrumpNamed,
    Undone,
)
from table.hand import (
    Contract,
    Correction,
    Hand,
    HandResult,
    Play,
    Renege,
    Trick,
    follows_suit,
    winner,
)
from table.rules import Rules
from table.seats import SEATS, TEAMS, Seat, Team
from table.state import GameState, Outcome, Phase, legal_bids, replay

__all__ = [
    "ASK",
    "JOKER",
    "MOON",
    "PASS",
    "SEATS",
    "TEAMS",
    "AceNoFaceClaimed",
    "Bid",
    "BidKind",
    "BidMade",
    "Card",
    "CardCorrected",
    "CardParseError",
    "CardPlayed",
    "Contract",
    "Correction",
    "DealerDiscarded",
    "Event",
    "ExchangeDone",
    "GameStarted",
    "GameState",
    "Hand",
    "HandResult",
    "InvalidEvent",
    "LogError",
    "Outcome",
    "Phase",
    "Play",
    "Refusal",
    "Renege",
    "Rules",
    "RulesError",
    "Seat",
    "Suit",
    "TableError",
    "Team",
    "Trick",
    "TrumpNamed",
    "Undone",
    "effective_suit",
    "follows_suit",
    "legal_bids",
    "replay",
    "trick_key",
    "winner",
]
