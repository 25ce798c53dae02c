"""Views built from states the rules engine replays from small logs."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import json
from pathlib import Path

import pygame
import pytest

from display.cards import Renege
from display.from_state import pick_choices, played_picker, view_from_state
from display.prompts import PlayedPicker, card_choices
from display.render import render
from display.view import BidMade, Contract, Phase, Problem, ProblemKind, SeatNames, TeamPair
from table.log import parse_lines, replay_lines
from table.state import GameState

GAME = '{"type": "game", "dealer": "N", "rules": {}}'


def bid(seat: str, value: int | str) -> str:
    return json.dumps({"type": "bid", "seat": seat, "bid": value})


def card(seat: str, code: str) -> str:
    return json.dumps({"type": "card", "seat": seat, "card": code})


def trump(seat: str, suit: str) -> str:
    return json.dumps({"type": "trump", "seat": seat, "suit": suit})


# One hand, hearts trump, E bids 3. In trick 3 (spades led) N plays J♣; N's Q♠ in trick 4
# proves the renege. The hand ends NS 2 tricks, EW 4; NS score 2 - 2 for the renege.
AUCTION = [GAME, bid("E", 3), bid("S", "pass"), bid("W", "pass"), bid("N", "pass")]
PLAY = [
    card("E", "JH"), card("S", "QH"), card("W", "9H"), card("N", "TC"),
    card("E", "AH"), card("S", "JD"), card("W", "TH"), card("N", "QD"),
    card("S", "AS"), card("W", "TS"), card("N", "JC"), card("E", "9S"),
    card("S", "KS"), card("W", "QC"), card("N", "QS"), card("E", "KH"),
    card("E", "AC"), card("S", "9C"), card("W", "KC"), card("N", "JS"),
    card("E", "TD"), card("S", "9D"), card("W", "AD"), card("N", "KD"),
]
HAND = [*AUCTION, trump("E", "H"), *PLAY]
PROOF_AT = len(AUCTION) + 1 + 15  # the line of N's Q♠
N_RENEGE = Renege("N", 3, "S", "JC", 4, "QS")


def state_of(lines: list[str]) -> GameState:
    return replay_lines(lines)


def test_bidding_shows_turn_bids_and_high_bid() -> None:
    view = view_from_state(state_of([GAME, bid("E", 3), bid("S", "pass")]),
                           seat_names={"N": "Ann", "W": "Dan"})
    assert view.phase is Phase.BIDDING
    assert view.dealer == "N" and view.turn == "W" and view.hand_number == 1
    assert view.bids == (BidMade("E", 3), BidMade("S", "pass"))
    assert view.high_bid == BidMade("E", 3)
    assert view.contract is None and view.trick is None
    assert view.names == SeatNames(n="Ann", w="Dan")


def test_bidding_lists_only_the_calls_still_open() -> None:
    assert view_from_state(state_of([GAME])).legal_bids == ("pass", 3, 4, 5, 6, "ask", "moon")
    after_four = view_from_state(state_of([GAME, bid("E", 4)]))
    assert after_four.legal_bids == ("pass", 5, 6, "ask", "moon")
    after_ask = view_from_state(state_of([GAME, bid("E", "ask")]))
    assert after_ask.legal_bids == ("pass", "moon")
    assert view_from_state(state_of(AUCTION)).legal_bids == (), "no calls once bidding is over"


def test_a_stuck_dealer_is_not_offered_a_pass() -> None:
    game = '{"type": "game", "dealer": "N", "rules": {"stick_the_dealer": true}}'
    view = view_from_state(state_of([game, *(bid(seat, "pass") for seat in "ESW")]))
    assert view.turn == "N"
    assert "pass" not in view.legal_bids and 3 in view.legal_bids


def test_naming_trump_shows_the_winning_bid_without_trump() -> None:
    view = view_from_state(state_of(AUCTION))
    assert view.phase is Phase.TRUMP and view.turn == "E"
    assert view.contract == Contract("E", 3, None, None, 6)


def test_ask_exchange_names_the_partner_who_sits_out() -> None:
    lines = [GAME, bid("E", "ask"), bid("S", "pass"), bid("W", "pass"), bid("N", "pass"),
             trump("E", "S")]
    view = view_from_state(state_of(lines))
    assert view.phase is Phase.EXCHANGE and view.turn == "E"
    assert view.contract == Contract("E", "ask", "S", "W", 6)
    assert view.contract.tricks_needed == 6


def test_first_trick_is_led_by_the_bidder() -> None:
    view = view_from_state(state_of([*AUCTION, trump("E", "H")]))
    assert view.phase is Phase.PLAY and view.turn == "E"
    assert view.trick is not None and view.trick.number == 1 and view.trick.leader == "E"
    assert view.trick.cards == ()


def test_a_completed_trick_stays_shown_with_its_winner_until_the_next_card() -> None:
    lines = [*AUCTION, trump("E", "H"), *PLAY[:4]]
    view = view_from_state(state_of(lines))
    assert view.trick is not None and view.trick.number == 1
    assert view.trick.winner == "E" and len(view.trick.cards) == 4
    assert view.last_trick_winner == "E" and view.turn == "E"
    assert view.tricks_won == TeamPair(ns=0, ew=1)
    view = view_from_state(state_of([*lines, PLAY[4]]))
    assert view.trick is not None and view.trick.number == 2
    assert view.trick.cards == (("E", "AH"),) and view.trick.winner is None
    assert view.last_trick_winner == "E" and view.turn == "S"


def test_a_renege_raises_the_alarm_once_and_stays_listed() -> None:
    before = view_from_state(state_of(HAND[:PROOF_AT - 1]))
    assert before.alarm is None and before.reneges == ()
    proved = view_from_state(state_of(HAND[:PROOF_AT]))
    assert proved.alarm == N_RENEGE
    assert proved.reneges == (N_RENEGE,)
    after = view_from_state(state_of(HAND[:PROOF_AT + 1]))
    assert after.alarm is None and after.reneges == (N_RENEGE,)


def test_the_end_of_a_hand_shows_its_summary_until_the_next_bid() -> None:
    view = view_from_state(state_of(HAND))
    assert view.phase is Phase.HAND_END
    summary = view.hand_end
    assert summary is not None
    assert summary.number == 1 and summary.result == "played" and summary.made is True
    assert summary.tricks == TeamPair(ns=2, ew=4)
    assert summary.penalties == TeamPair(ns=2, ew=0)
    assert summary.points == TeamPair(ns=0, ew=4), "3 bid, 4 taken: a point a trick"
    assert summary.scores == view.scores == TeamPair(ns=0, ew=4)
    assert view.dealer == "E", "the next dealer"
    nxt = view_from_state(state_of([*HAND, bid("S", "pass")]))
    assert nxt.phase is Phase.BIDDING and nxt.hand_number == 2 and nxt.hand_end is None
    assert nxt.reneges == () and nxt.bids == (BidMade("S", "pass"),)


def test_a_redeal_is_a_hand_end_without_a_contract() -> None:
    lines = [GAME, *(bid(seat, "pass") for seat in "ESWN")]
    view = view_from_state(state_of(lines))
    assert view.phase is Phase.HAND_END
    assert view.hand_end is not None and view.hand_end.result == "redeal"
    assert view.hand_end.contract is None and view.dealer == "E"


def test_undo_takes_the_view_back() -> None:
    lines = [*AUCTION, trump("E", "H"), card("E", "JH")]
    undone = view_from_state(state_of([*lines, '{"type": "undo"}']))
    assert undone.trick is not None and undone.trick.cards == ()


def test_problems_and_names_are_passed_through() -> None:
    problem = Problem(ProblemKind.DISCONNECTED, device="camera")
    view = view_from_state(state_of(AUCTION), problems=[problem],
                           seat_names=SeatNames(n="Ann"))
    assert view.problems == (problem,)
    assert view.names.label("N") == "N Ann"


def test_rules_give_target_and_renege_penalty() -> None:
    game = '{"type": "game", "dealer": "W", "rules": {"target": 21, "renege_penalty": 3}}'
    view = view_from_state(state_of([game]))
    assert view.target == 21 and view.renege_penalty == 3 and view.turn == "N"


def conformance_logs(shared_dir: Path) -> list[Path]:
    logs = []
    for path in sorted((shared_dir / "conformance").rglob("*.jsonl")):
        expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
        if "error" not in expected and "hands" in expected:
            logs.append(path)
    return logs


def test_every_step_of_the_conformance_games_renders_within_its_boxes(shared_dir: Path) -> None:
    logs = conformance_logs(shared_dir)
    assert logs
    surface = pygame.Surface((800, 480))
    phases = set()
    for path in logs:
        lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        state = replay_lines(lines[:1])
        for _, event in parse_lines(lines[1:]):
            state.apply(event)
            view = view_from_state(state)
            phases.add(view.phase)
            for text in render(view, surface):
                assert text.box.contains(text.rect), f"{path.name}: {text.text!r} overflows"
    assert {Phase.BIDDING, Phase.PLAY, Phase.HAND_END, Phase.GAME_OVER} <= phases


@pytest.mark.parametrize("name", ["game_end_at_32", "moon_made_and_set"])
def test_conformance_game_ends_match_the_engine(shared_dir: Path, name: str) -> None:
    path = shared_dir / "conformance" / f"{name}.jsonl"
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    view = view_from_state(replay_lines(path.read_text(encoding="utf-8").splitlines()))
    assert view.scores == TeamPair(ns=expected["score"]["NS"], ew=expected["score"]["EW"])
    assert view.winner == expected["winner"]
    if expected["winner"] is not None:
        assert view.phase is Phase.GAME_OVER


def test_the_played_picker_lists_the_hand_trick_by_trick() -> None:
    lines = [*AUCTION, trump("E", "H"), *PLAY[:6]]
    picker = played_picker(state_of(lines))
    assert picker.hand == 1 and picker.other_hand is None
    assert [trick.number for trick in picker.tricks] == [1, 2]
    assert picker.tricks[0].cards == (("E", "JH"), ("S", "QH"), ("W", "9H"), ("N", "TC"))
    assert picker.tricks[0].winner == "E" and picker.tricks[1].winner is None
    assert picker.card_at(2, "S") == "JD" and picker.card_at(2, "W") is None


def test_the_played_picker_offers_the_last_hand_and_the_current_one() -> None:
    next_hand = [bid("S", 4), bid("W", "pass"), bid("N", "pass"), bid("E", "pass"),
                 trump("S", "S"), card("S", "AS")]
    state = state_of([*HAND, *next_hand])
    current = played_picker(state)
    assert current.hand == 2 and current.other_hand == 1
    assert current.tricks[0].cards == (("S", "AS"),)
    last = played_picker(state, hand_number=1)
    assert last.hand == 1 and last.other_hand == 2 and len(last.tricks) == 6
    assert played_picker(state_of(HAND)).hand == 1, "after the hand, before the next card"
    assert played_picker(state_of([GAME])) == PlayedPicker(hand=1)


def test_a_pick_offers_the_joker_only_when_it_is_in_play() -> None:
    assert pick_choices(state_of([GAME])) == card_choices()
    joker = '{"type": "game", "dealer": "N", "rules": {"joker": true}}'
    assert pick_choices(state_of([joker])) == card_choices(joker=True)
