"""A compact way to write table logs in tests: `"bid E 3"`, `"trump E H"`, `"cards E JH S 9H"`.

`"correct 1 3 N JS"` corrects N's card in trick 3 of hand 1 to J♠.
"""

from __future__ import annotations

from table import (
    AceNoFaceClaimed,
    Bid,
    BidMade,
    Card,
    CardCorrected,
    CardPlayed,
    DealerDiscarded,
    Event,
    ExchangeDone,
    GameStarted,
    GameState,
    Rules,
    Seat,
    Suit,
    TrumpNamed,
    Undone,
)


def events(*lines: str, dealer: str = "N", rules: Rules | None = None) -> list[Event]:
    """Events from compact lines, after a GameStarted with `dealer` and `rules`."""
    result: list[Event] = [GameStarted(Seat(dealer), rules or Rules())]
    for line in lines:
        word, *rest = line.split()
        if word == "bid":
            result.append(BidMade(Seat(rest[0]), Bid.parse(rest[1])))
        elif word == "trump":
            result.append(TrumpNamed(Seat(rest[0]), Suit(rest[1])))
        elif word == "exchange":
            result.append(ExchangeDone(Seat(rest[0])))
        elif word == "discard":
            result.append(DealerDiscarded(Seat(rest[0])))
        elif word == "anf":
            result.append(AceNoFaceClaimed(Seat(rest[0])))
        elif word == "correct":
            hand, trick, seat, card = rest
            result.append(CardCorrected(int(hand), int(trick), Seat(seat), Card.parse(card)))
        elif word == "undo":
            result.append(Undone())
        elif word == "cards":
            pairs = zip(rest[::2], rest[1::2], strict=True)
            result.extend(CardPlayed(Seat(seat), Card.parse(card)) for seat, card in pairs)
        else:
            raise ValueError(f"unknown test line {line!r}")
    return result


def state_after(*lines: str, dealer: str = "N", rules: Rules | None = None) -> GameState:
    """The state after the given lines."""
    state = GameState(None)
    all_events = events(*lines, dealer=dealer, rules=rules)
    state = GameState(all_events[0])  # type: ignore[arg-type]
    for event in all_events[1:]:
        state.apply(event)
    return state


# A full hand, hearts trump: E bids 3 and EW take three tricks, NS three; no renege.
# Deal: E JH AH KS QC TD 9S | S 9H AS AC 9D TS KC | W JD TH QS KD JC 9C | N AD QH KH JS QD TC
HAND_E3 = (
    "bid E 3",
    "bid S pass",
    "bid W pass",
    "bid N pass",
    "trump E H",
    "cards E JH S 9H W JD N QH",  # E wins with the right bower
    "cards E AH S AS W TH N KH",  # A♥ wins (S and W... W follows with T♥)
    "cards E KS S TS W QS N JS",  # K♠ wins
    "cards E QC S AC W JC N TC",  # A♣ wins: S
    "cards S 9D W KD N AD E TD",  # A♦ wins: N
    "cards N QD E 9S S KC W 9C",  # Q♦ wins: N
)
