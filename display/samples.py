"""One view of every state the display knows, for screenshots, tests and benchmarks."""

from __future__ import annotations

from dataclasses import replace

from display.cards import Renege, Trick
from display.prompts import (
    CardPick,
    CorrectionPick,
    MisreadQuestion,
    PlayedPicker,
    Prompt,
    SuspectPrompt,
    card_choices,
)
from display.view import (
    BidMade,
    Contract,
    HandSummary,
    Phase,
    Problem,
    ProblemKind,
    SeatNames,
    TeamPair,
    View,
)

NAMES = SeatNames(n="Ann", e="Bob", s="Cat", w="Dan")
SCORES = TeamPair(ns=12, ew=9)
BIDS = (BidMade("N", 3), BidMade("E", 4), BidMade("S", "pass"), BidMade("W", "pass"))
RENEGE = Renege(seat="W", trick=2, led="C", card="9H", proved_by_trick=4, proved_by_card="KC")


def bidding() -> View:
    """W dealt; N bid 3, E bid 4, S passed; W to bid."""
    return View(phase=Phase.BIDDING, dealer="W", scores=SCORES, names=NAMES, hand_number=3,
                turn="W", bids=BIDS[:3], legal_bids=("pass", 5, 6, "ask", "moon"))


def bidding_dealer_stuck() -> View:
    """Stick the dealer: N, E and S passed, so W, who dealt, must bid and cannot pass."""
    passes = tuple(BidMade(seat, "pass") for seat in ("N", "E", "S"))
    return replace(bidding(), bids=passes, legal_bids=(3, 4, 5, 6, "ask", "moon"))


def naming_trump() -> View:
    """E won the bidding with 4 and names trump."""
    return View(phase=Phase.TRUMP, dealer="W", scores=SCORES, names=NAMES, hand_number=3,
                turn="E", bids=BIDS, contract=Contract("E", 4))


def contract(bid: int | str, trump: str) -> View:
    """E holds the contract `bid` in `trump`; play is about to start."""
    sitting_out = "W" if bid in ("ask", "moon") else None
    return View(phase=Phase.PLAY, dealer="W", scores=SCORES, names=NAMES, hand_number=3,
                turn="E", bids=(*BIDS[:1], BidMade("E", bid), *BIDS[2:]),
                contract=Contract("E", bid, trump, sitting_out), trick=Trick(1, "E"))


def exchange() -> View:
    """E bid ask in hearts: E and W exchange cards, then OK."""
    asked = contract("ask", "H")
    return replace(asked, phase=Phase.EXCHANGE, turn="E", trick=None)


def trick_in_progress() -> View:
    """Trick 3, hearts trump: E led J♥, S played 9♥, W to play."""
    return View(phase=Phase.PLAY, dealer="W", scores=SCORES, names=NAMES, hand_number=3,
                turn="W", bids=BIDS, contract=Contract("E", 4, "H"),
                trick=Trick(3, "E", (("E", "JH"), ("S", "9H"))), last_trick_winner="E",
                tricks_won=TeamPair(ns=1, ew=1))


def trick_complete() -> View:
    """Trick 3 complete: E's J♥ wins; W, out of hearts, plays A♦; N plays K♠."""
    cards = (("E", "JH"), ("S", "9H"), ("W", "AD"), ("N", "KS"))
    return replace(trick_in_progress(), turn="E", trick=Trick(3, "E", cards, winner="E"),
                   tricks_won=TeamPair(ns=1, ew=2), last_trick_winner="E")


def joker_discard() -> View:
    """Joker variant, hand 4: the dealer N discards a seventh card before the bidding."""
    return View(phase=Phase.DISCARD, dealer="N", scores=TeamPair(ns=14, ew=11), names=NAMES,
                hand_number=4, turn="N")


def joker_trick() -> View:
    """Joker variant, spades trump: W led the joker, the highest trump."""
    return View(phase=Phase.PLAY, dealer="N", scores=TeamPair(ns=14, ew=11), names=NAMES,
                hand_number=4, turn="E", bids=(BidMade("E", 5),),
                contract=Contract("E", 5, "S"), trick=Trick(2, "W", (("W", "JK"), ("N", "JC"))),
                last_trick_winner="W", tricks_won=TeamPair(ns=0, ew=1))


def renege_alarm() -> View:
    """Trick 4: W plays K♣, proving that W failed to follow clubs in trick 2."""
    cards = (("E", "QC"), ("S", "AC"), ("W", "KC"))
    return replace(trick_in_progress(), turn="N", trick=Trick(4, "E", cards),
                   tricks_won=TeamPair(ns=1, ew=2), reneges=(RENEGE,), alarm=RENEGE)


def with_problem(problem: Problem) -> View:
    """The trick in progress, with `problem` on top."""
    return replace(trick_in_progress(), problems=(problem,))


def played_tricks() -> tuple[Trick, ...]:
    """Hand 3 so far: E took tricks 1 and 2; trick 3 is being played."""
    return (Trick(1, "E", (("E", "AH"), ("S", "TH"), ("W", "KH"), ("N", "QS")), winner="E"),
            Trick(2, "E", (("E", "AC"), ("S", "9C"), ("W", "KD"), ("N", "TC")), winner="E"),
            trick_in_progress().trick or Trick(3, "E"))


def double_deck_tricks() -> tuple[Trick, ...]:
    """A double-deck hand of twelve tricks, all played."""
    order = ("N", "E", "S", "W")
    cards = card_choices()
    return tuple(
        Trick(number, order[number % 4],
              tuple((order[(number + i) % 4], cards[(number * 4 + i) % 24]) for i in range(4)),
              winner=order[number % 4])
        for number in range(1, 13))


def with_prompt(view: View, prompt: Prompt) -> View:
    """`view` with `prompt` shown over it."""
    return replace(view, prompt=prompt)


def prompt_views() -> dict[str, View]:
    """A view of every prompt: naming a card, correcting one, picking one, suspect, misread."""
    suspect = SuspectPrompt(card="QS", now_seat="W", earlier_hand=3, earlier_trick=1,
                            earlier_seat="N")
    correction = CorrectionPick(hand=3, trick=1, seat="N", was="QS")
    return {
        "pick-card": with_prompt(trick_in_progress(), CardPick("W", "unreadable")),
        "pick-card-joker": with_prompt(joker_trick(), CardPick("E", "asked", card_choices(True))),
        "correct-card": with_prompt(trick_in_progress(), correction),
        "correct-card-chosen": with_prompt(trick_in_progress(), replace(correction, chosen="QC")),
        "correct-card-refused": with_prompt(trick_in_progress(), replace(
            correction, refused="correcting N's card in trick 1 of hand 3 from QS to JH makes a "
            "later event (E plays JH) invalid: JH was already played this hand")),
        "played-picker": with_prompt(trick_in_progress(),
                                     PlayedPicker(3, played_tricks(), other_hand=2)),
        "played-picker-double-deck": with_prompt(trick_in_progress(),
                                                 PlayedPicker(3, double_deck_tricks())),
        "suspect": with_prompt(trick_in_progress(), suspect),
        "misread-question": with_prompt(renege_alarm(), MisreadQuestion.of(RENEGE)),
    }


def hand_end() -> View:
    """EW made 4 with 4 tricks; W's renege costs EW 2."""
    summary = HandSummary(number=3, result="played", contract=Contract("E", 4, "H"),
                          tricks=TeamPair(ns=2, ew=4), penalties=TeamPair(ns=0, ew=2),
                          points=TeamPair(ns=2, ew=2), scores=TeamPair(ns=14, ew=11))
    return View(phase=Phase.HAND_END, dealer="N", scores=summary.scores, names=NAMES,
                hand_number=3, contract=summary.contract, tricks_won=summary.tricks,
                reneges=(RENEGE,), hand_end=summary)


def redeal() -> View:
    """Hand 2: everyone passed; the deal passes to S."""
    summary = HandSummary(number=2, result="redeal", contract=None, tricks=TeamPair(),
                          penalties=TeamPair(), points=TeamPair(), scores=SCORES)
    return View(phase=Phase.HAND_END, dealer="S", scores=SCORES, names=NAMES, hand_number=2,
                hand_end=summary)


def game_over() -> View:
    """NS won 33 to 27."""
    return View(phase=Phase.GAME_OVER, dealer="N", scores=TeamPair(ns=33, ew=27), names=NAMES,
                hand_number=11, winner="NS")


def sample_views() -> dict[str, View]:
    """Every state, by a file-friendly name."""
    views = {
        "bidding": bidding(),
        "bidding-dealer-stuck": bidding_dealer_stuck(),
        "trump": naming_trump(),
        "contract-3": contract(3, "C"),
        "contract-4": contract(4, "H"),
        "contract-5": contract(5, "S"),
        "contract-6": contract(6, "D"),
        "contract-ask": contract("ask", "H"),
        "contract-moon": contract("moon", "S"),
        "exchange": exchange(),
        "trick": trick_in_progress(),
        "trick-complete": trick_complete(),
        "renege-alarm": renege_alarm(),
        "renege-listed": replace(renege_alarm(), alarm=None),
        "unreadable-card": with_problem(Problem(ProblemKind.UNREADABLE_CARD, seat="W")),
        "already-played": with_problem(Problem(ProblemKind.ALREADY_PLAYED, seat="W", card="JH")),
        "out-of-turn": with_problem(Problem(ProblemKind.OUT_OF_TURN, seat="N", card="AS")),
        "disconnected": with_problem(Problem(ProblemKind.DISCONNECTED, device="camera")),
        "joker-discard": joker_discard(),
        "joker-trick": joker_trick(),
        "hand-end": hand_end(),
        "hand-end-redeal": redeal(),
        "game-over": game_over(),
    }
    views.update(prompt_views())
    return views
