"""The words on the screen, built from a view without pygame."""

from __future__ import annotations

from display.cards import Bid, Renege, check_card, check_suit, partner_of, team_of
from display.prompts import CardPick, CorrectionPick, MisreadQuestion, PlayedPicker, SuspectPrompt
from display.view import Contract, Phase, Problem, ProblemKind, SeatNames, View

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_TEXT = {"9": "9", "T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}


def suit_symbol(suit: str) -> str:
    """"H" -> "♥"."""
    return SUIT_SYMBOLS[check_suit(suit)]


def card_text(card: str) -> str:
    """"TH" -> "10♥"; the joker reads "Joker"."""
    if check_card(card) == "JK":
        return "Joker"
    return RANK_TEXT[card[0]] + SUIT_SYMBOLS[card[1]]


def card_rank_text(card: str) -> str:
    """The rank part of a card as printed on it: "TH" -> "10", joker -> "JKR"."""
    return "JKR" if check_card(card) == "JK" else RANK_TEXT[card[0]]


def bid_text(bid: Bid) -> str:
    """A bid as players call it: "4", "ASK", "MOON" or "pass"."""
    if isinstance(bid, int):
        return str(bid)
    return "pass" if bid == "pass" else bid.upper()


def contract_headline(contract: Contract, names: SeatNames) -> str:
    """"E Bob bid 4", "E Bob: ASK" or "E Bob: MOON"."""
    who = names.label(contract.seat)
    if isinstance(contract.bid, int):
        return f"{who} bid {contract.bid}"
    return f"{who}: {bid_text(contract.bid)}"


def contract_need(contract: Contract) -> str:
    """What the bid undertakes: "EW need 4", "EW need all 6, alone"."""
    team = contract.team
    if contract.bid in ("ask", "moon"):
        return f"{team} need all {contract.tricks_in_hand}"
    return f"{team} need {contract.tricks_needed}"


def exchange_steps(contract: Contract, names: SeatNames) -> list[str]:
    """The ask exchange as three short steps."""
    bidder = contract.seat
    partner = contract.sitting_out or partner_of(bidder)
    best = f"best {SUIT_SYMBOLS[contract.trump]}" if contract.trump else "best trump"
    return [
        f"{names.label(bidder)}: pass one card face down to {partner}",
        f"{names.label(partner)}: give {bidder} your {best}",
        "then press OK",
    ]


def status_line(view: View) -> str:
    """What the table is waiting for, in one line."""
    names = view.names
    turn = names.label(view.turn) if view.turn else ""
    match view.phase:
        case Phase.BIDDING:
            return f"{turn} to bid" if turn else "Bidding"
        case Phase.TRUMP:
            return f"{turn}: name trump" if turn else "Trump to be named"
        case Phase.EXCHANGE if view.contract is not None:
            partner = view.contract.sitting_out or partner_of(view.contract.seat)
            return f"Exchange: {names.label(view.contract.seat)} and {names.label(partner)}"
        case Phase.DISCARD:
            return f"{turn}: discard one card face down" if turn else "Dealer discards"
        case Phase.PLAY:
            return f"{turn} to play" if turn else "Play"
        case Phase.HAND_END:
            return f"Hand {view.hand_number} over: {names.label(view.dealer)} deals next"
        case Phase.GAME_OVER if view.winner is not None:
            return f"{names.team_label(view.winner)} win the game"
    return str(view.phase).replace("_", " ").capitalize()


def renege_headline(renege: Renege, names: SeatNames, count: int = 1) -> str:
    """"RENEGE: W Dan", or "2 RENEGES: W Dan"."""
    title = "RENEGE" if count == 1 else f"{count} RENEGES"
    return f"{title}: {names.label(renege.seat)}"


def renege_detail(renege: Renege, also: tuple[Renege, ...] = ()) -> str:
    """Where it happened and what proves it; `also` are more reneges the same card proves."""
    failures = "; ".join(
        f"trick {each.trick}: {SUIT_SYMBOLS[each.led]} led, {each.seat} played "
        f"{card_text(each.card)}"
        for each in (renege, *also)
    )
    proof = "proves it" if not also else f"proves all {len(also) + 1}"
    return (
        f"{failures[0].upper()}{failures[1:]}. "
        f"{card_text(renege.proved_by_card)} in trick {renege.proved_by_trick} {proof}."
    )


def proved_together(renege: Renege, reneges: tuple[Renege, ...]) -> tuple[Renege, ...]:
    """The other reneges in `reneges` proved by the same card as `renege`."""
    return tuple(
        other for other in reneges
        if other != renege and other.seat == renege.seat
        and other.proved_by_trick == renege.proved_by_trick
        and other.proved_by_card == renege.proved_by_card
    )


def renege_short(renege: Renege) -> str:
    """One list line: "W, trick 2: 9♥ on ♣"."""
    return (
        f"{renege.seat}, trick {renege.trick}: "
        f"{card_text(renege.card)} on {SUIT_SYMBOLS[renege.led]}"
    )


def problem_headline(problem: Problem, names: SeatNames) -> str:
    """The short, large line of a problem."""
    seat = names.label(problem.seat) if problem.seat else ""
    card = card_text(problem.card) if problem.card else "card"
    match problem.kind:
        case ProblemKind.UNREADABLE_CARD:
            return f"Card at {seat} unreadable" if seat else "Card unreadable"
        case ProblemKind.ALREADY_PLAYED:
            return f"{seat}: {card} was already played" if seat else f"{card} was already played"
        case ProblemKind.OUT_OF_TURN:
            return f"{seat} played {card} out of turn" if seat else f"{card} out of turn"
        case ProblemKind.DISCONNECTED:
            return f"{(problem.device or 'device').capitalize()} disconnected"
        case ProblemKind.FAULT:
            detail = problem.detail or f"{problem.device} failed"
            return detail[:1].upper() + detail[1:]
    return str(problem.kind)


def problem_advice(problem: Problem, turn: str | None, names: SeatNames | None = None) -> str:
    """What a player should do about it."""
    match problem.kind:
        case ProblemKind.UNREADABLE_CARD:
            return "Place it flat in your zone, or tap here to name it; OK hides this"
        case ProblemKind.ALREADY_PLAYED:
            return "Place it flat again, or press UNDO to fix an earlier card"
        case ProblemKind.OUT_OF_TURN:
            whose = (names or SeatNames()).label(turn) if turn else ""
            waiting = f"It is {whose}'s turn. " if turn else ""
            return waiting + "Take the card back"
        case ProblemKind.DISCONNECTED:
            return "Check its cable; the table waits until it is back"
        case ProblemKind.FAULT:
            if problem.device == "journal":
                return "Nothing is recorded until it can write; free space or fix the disk"
            return "The table restarts it by itself; call for help if this stays"
    return ""


BUTTON_TEXT = {"ok": "OK", "cancel": "CANCEL", "confirm": "CONFIRM", "misread": "MISREAD?",
               "correct": "CORRECT IT", "no": "NO"}
PICK_ADVICE = {
    "unreadable": "The camera cannot read it: tap the card it is",
    "asked": "Tap the card lying there",
    "correct": "Tap the card it really is",
}


NO_BREAK_SPACE = "\u00a0"


def unbroken(text: str) -> str:
    """`text` with its spaces made non-breaking, so that a name such as "N Ann" stays whole."""
    return text.replace(" ", NO_BREAK_SPACE)


def legal_calls_text(bids: tuple[Bid, ...]) -> str:
    """The calls open to the bidder: "calls: PASS 5 6 ASK MOON"."""
    return "calls: " + " ".join(bid_text(bid).upper() for bid in bids)


def pick_title(pick: CardPick, names: SeatNames) -> str:
    """"Name the card at W Dan"."""
    return f"Name the card at {names.label(pick.seat)}"


def correction_title(pick: CorrectionPick, names: SeatNames) -> str:
    """"Correct hand 3, trick 2: E Bob"."""
    return f"Correct hand {pick.hand}, trick {pick.trick}: {names.label(pick.seat)}"


def correction_detail(pick: CorrectionPick) -> str:
    """What was recorded, and the card chosen so far."""
    was = card_text(pick.was)
    if pick.refused is not None and pick.chosen is None:
        # A correction that breaks a later play says so at length; its last clause is the why.
        why = pick.refused.rsplit("invalid: ", 1)[-1]
        return f"Not taken: {why}. Tap another card"
    if pick.chosen is None:
        return f"Recorded {was}: tap the card it really was"
    return f"Recorded {was}, now {card_text(pick.chosen)}: press CONFIRM"


def picker_title(picker: PlayedPicker) -> str:
    """"Correct a card of hand 3"."""
    return f"Correct a card of hand {picker.hand}"


def picker_detail(picker: PlayedPicker) -> str:
    """What to tap."""
    if not picker.tricks:
        return "No card recorded in this hand yet"
    return "Tap the card that was misread"


def suspect_title(suspect: SuspectPrompt, names: SeatNames) -> str:
    """"J♥ seen again, at W Dan"."""
    return f"{card_text(suspect.card)} seen again, at {names.label(suspect.now_seat)}"


def suspect_detail(suspect: SuspectPrompt, names: SeatNames, hand_number: int) -> str:
    """"J♥ was already recorded for E Bob in trick 2. Misread there?"."""
    where = f"trick {suspect.earlier_trick}"
    if suspect.earlier_hand != hand_number:
        where = f"hand {suspect.earlier_hand}, {where}"
    return (f"{card_text(suspect.card)} was already recorded for "
            f"{unbroken(names.label(suspect.earlier_seat))} in {where}.\nMisread there?")


def misread_detail(question: MisreadQuestion, penalty: int) -> str:
    """The renege's evidence, its cost, then what MISREAD? is for."""
    return (f"{renege_detail(question.renege)}\n"
            f"{team_of(question.seat)} lose {penalty} points. A card misread? Tap MISREAD?")
