"""The `correct` event: a misread card put right, and everything that follows from it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from table import (
    BidMade,
    Card,
    CardCorrected,
    CardPlayed,
    Correction,
    Event,
    GameState,
    Hand,
    InvalidEvent,
    Phase,
    Play,
    Refusal,
    Renege,
    Rules,
    Seat,
    Suit,
    Team,
    Trick,
    effective_suit,
    replay,
    winner,
)
from table.bids import PASS
from table.cards import deck
from table.events import event_from_json, event_to_json
from table.report import describe_game
from table.simulate import simulate_game
from table.summary import summary
from tests.table.tablelog import events, state_after

# Hearts trump, E bids 3 and makes it, three tricks each:
# E JH KS 9S QC TD AH | S 9H TS AS AC KC 9D | W JD QS 9C JC KD TH | N QH JS TC AD QD KH
AUCTION = ("bid E 3", "bid S pass", "bid W pass", "bid N pass", "trump E H")
TRICKS = (
    "cards E JH S 9H W JD N QH",  # E, the right bower
    "cards E KS S TS W QS N JS",  # E, K♠
    "cards E 9S S AS W 9C N TC",  # S, A♠
    "cards S AC W JC N AD E QC",  # S, A♣
    "cards S KC W KD N QD E TD",  # S, K♣
    "cards S 9D W TH N KH E AH",  # E, A♥
)
# The same first three tricks with S's T♠ in trick 2 read as the 9♦: S's A♠ in trick 3
# then proves a renege that never happened.
MISREAD = (*AUCTION, TRICKS[0], "cards E KS S 9D W QS N JS", TRICKS[2])

# S bids moon in spades and takes every trick; N sits out.
MOON = (
    "bid E pass",
    "bid S moon",
    "bid W pass",
    "bid N pass",
    "trump S S",
    "cards S JS W TH E TS",
    "cards S JC W QH E 9H",
    "cards S AS W QD E 9D",
    "cards S AH W JH E TC",
    "cards S AD W JD E TD",
    "cards S KS W QC E 9C",
)
# The same moon with W's Q♠ beating S's 9♠ in the last trick: W failed the first three trump
# leads while holding it (three reneges) and the moon is set.
MOON_SET = (*MOON[:10], "cards S 9S W QS E 9C")


def card(code: str) -> Card:
    return Card.parse(code)


def correct(hand: int, trick: int, seat: str, code: str) -> CardCorrected:
    return CardCorrected(hand, trick, Seat(seat), card(code))


def refusal(state: GameState, event: CardCorrected) -> InvalidEvent:
    """Apply a correction that must be refused, and check the state did not change."""
    before, log, plays = summary(state), list(state.log), list(state.plays)
    proven = state.newly_proven
    with pytest.raises(InvalidEvent) as caught:
        state.apply(event)
    assert summary(state) == before
    assert state.log == log and state.plays == plays
    assert state.newly_proven == proven
    return caught.value


# ---- reneges ------------------------------------------------------------------------------


def test_correction_removes_a_false_renege_and_its_penalty() -> None:
    state = state_after(*MISREAD)
    assert [renege.seat for renege in state.hand.reneges] == [Seat.S]
    state.apply(correct(1, 2, "S", "TS"))
    assert state.hand.reneges == []
    assert [failure.seat for failure in state.hand.failures] == [Seat.W, Seat.N]
    assert state.hand.tricks[1].cards[1] == (Seat.S, card("TS"))
    for line in TRICKS[3:]:
        for play in events(line)[1:]:
            state.apply(play)
    hand = state.hands[0]
    assert hand.reneges == []
    assert hand.points == {Team.NS: 3, Team.EW: 3}
    assert hand.corrections == [Correction(1, 2, Seat.S, card("9D"), card("TS"))]


def test_without_the_correction_the_misread_card_cannot_be_played_again() -> None:
    state = state_after(*MISREAD, *TRICKS[3:5])
    with pytest.raises(InvalidEvent) as caught:
        state.apply(CardPlayed(Seat.S, card("9D")))
    assert caught.value.kind is Refusal.ALREADY_PLAYED
    assert state.where_played(card("9D")) == (Play(1, 2, Seat.S, card("9D")),)


def test_correction_creates_a_renege_proven_by_a_later_card() -> None:
    state = state_after(*AUCTION, *TRICKS[:3])
    assert state.hand.reneges == []
    state.apply(correct(1, 2, "S", "9D"))
    renege = Renege(Seat.S, 2, Suit.SPADES, card("9D"), 3, card("AS"))
    assert state.hand.reneges == [renege]
    assert state.newly_proven == (renege,)


def test_corrections_prove_reneges_and_set_a_made_moon() -> None:
    # W's Q♣ in the last trick was the Q♠: W held trump when failing to follow the first three
    # trump leads, and the Q♠ beats S's 9♠, so the moon is set.
    state = state_after(*MOON, "correct 1 6 S 9S", "correct 1 6 W QS")
    hand = state.hands[0]
    assert [(r.seat, r.trick, r.proved_by_trick) for r in hand.reneges] == [
        (Seat.W, 1, 6),
        (Seat.W, 2, 6),
        (Seat.W, 3, 6),
    ]
    assert hand.tricks[5].winner is Seat.W
    assert hand.points == {Team.NS: -24, Team.EW: 1 - 3 * 2}
    assert len(state.newly_proven) == 3


# ---- trick winners, turn, score and the game winner ----------------------------------------


def test_correction_changes_the_trick_winner_and_who_leads_next() -> None:
    state = state_after(*AUCTION, *TRICKS[:3])
    assert [state.turn] == [Seat.S]
    state.apply(correct(1, 3, "S", "9D"))
    assert state.hand.tricks[2].winner is Seat.E
    assert state.turn is Seat.E
    assert state.tricks_won == {Team.NS: 0, Team.EW: 3}
    with pytest.raises(InvalidEvent) as caught:
        state.apply(CardPlayed(Seat.S, card("AC")))
    assert caught.value.kind is Refusal.OUT_OF_TURN
    state.apply(CardPlayed(Seat.E, card("QC")))
    assert state.trick is not None and state.trick.leader is Seat.E


def test_correction_after_the_game_is_won_can_take_the_win_away() -> None:
    state = state_after(*MOON, rules=Rules(target=24))
    assert state.winner is Team.NS and state.phase is Phase.GAME_OVER
    with pytest.raises(InvalidEvent) as caught:
        state.apply(BidMade(Seat.S, PASS))
    assert caught.value.kind is Refusal.GAME_OVER
    assert "hand 2 has not begun" in refusal(state, correct(2, 1, "S", "9S")).reason
    state.apply(correct(1, 6, "S", "9S"))
    assert state.winner is Team.NS and state.scores == {Team.NS: 24, Team.EW: 0}
    state.apply(correct(1, 6, "W", "QS"))
    assert state.winner is None
    assert state.scores == {Team.NS: -24, Team.EW: -5}
    assert state.phase is Phase.BIDDING and state.turn is Seat.S
    assert [h.number for h in state.hands] == [1]
    state.apply(BidMade(Seat.S, PASS))
    assert [h.number for h in state.hands] == [1, 2]


def test_correction_can_hand_the_game_to_the_other_team() -> None:
    state = state_after(*MOON, rules=Rules(target=24, renege_penalty=0))
    state.apply(correct(1, 6, "S", "9S"))
    state.apply(correct(1, 6, "W", "QS"))
    assert state.scores == {Team.NS: -24, Team.EW: 1}
    assert state.winner is None
    rules = Rules(target=1, renege_penalty=0)
    low = state_after(*MOON, rules=rules)
    assert [low.winner] == [Team.NS]
    low.apply(correct(1, 6, "S", "9S"))
    low.apply(correct(1, 6, "W", "QS"))
    assert low.winner is Team.EW and low.scores == {Team.NS: -24, Team.EW: 1}


def test_score_follows_a_correction_of_an_earlier_hand() -> None:
    state = state_after(*MOON_SET, "bid S pass")
    assert state.scores == {Team.NS: -24, Team.EW: -5}
    state.apply(correct(1, 6, "W", "QC"))
    assert state.hands[0].reneges == []
    assert state.hands[0].points == {Team.NS: 24, Team.EW: 0}
    assert state.scores == {Team.NS: 24, Team.EW: 0}
    assert state.hand.number == 2 and state.turn is Seat.W


def test_correction_can_win_the_game_when_nothing_follows_the_hand() -> None:
    state = state_after(*MOON_SET, rules=Rules(target=24))
    assert state.winner is None
    state.apply(correct(1, 6, "W", "QC"))
    assert state.winner is Team.NS and state.phase is Phase.GAME_OVER


def test_correction_that_would_end_the_game_before_later_events_is_refused() -> None:
    state = state_after(*MOON_SET, "bid S pass", rules=Rules(target=24))
    error = refusal(state, correct(1, 6, "W", "QC"))
    assert error.cause is not None and error.cause.kind is Refusal.GAME_OVER
    assert "(S passes) invalid: the game is over" in error.reason


# ---- refusals -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("event", "words"),
    [
        (correct(2, 1, "E", "JH"), "hand 2 has not begun"),
        (correct(1, 4, "E", "JH"), "hand 1 has 3 tricks so far"),
        (correct(1, 3, "N", "JH"), "N has not played to trick 3 yet"),
    ],
)
def test_correction_of_a_play_that_is_not_there_is_refused(
    event: CardCorrected, words: str
) -> None:
    state = state_after(*AUCTION, *TRICKS[:2], "cards E 9S S AS W 9C")
    error = refusal(state, event)
    assert error.kind is Refusal.NO_SUCH_CARD
    assert words in error.reason


def test_correction_in_a_hand_without_cards_is_refused() -> None:
    state = state_after("bid E pass", "bid S pass", "bid W pass", "bid N pass", "bid S 3")
    for hand in (1, 2):
        error = refusal(state, correct(hand, 1, "S", "JH"))
        assert error.kind is Refusal.NO_SUCH_CARD
        assert f"no card was played in hand {hand}" in error.reason


def test_correction_of_the_seat_sitting_out_is_refused() -> None:
    error = refusal(state_after(*MOON[:8]), correct(1, 1, "N", "QS"))
    assert error.kind is Refusal.NO_SUCH_CARD
    assert "N sits out hand 1" in error.reason


def test_correction_to_the_card_already_recorded_is_refused() -> None:
    error = refusal(state_after(*AUCTION, *TRICKS[:3]), correct(1, 2, "S", "TS"))
    assert error.kind is Refusal.SAME_CARD
    assert "already TS" in error.reason


def test_correction_to_a_card_played_later_is_refused_naming_the_later_play() -> None:
    error = refusal(state_after(*AUCTION, *TRICKS[:4]), correct(1, 2, "S", "AC"))
    assert error.kind is Refusal.CORRECTION_BREAKS_LATER
    assert error.cause is not None and error.cause.kind is Refusal.ALREADY_PLAYED
    assert error.reason.startswith(
        "correcting S's card in trick 2 of hand 1 from TS to AC makes a later event "
        "(S plays AC) invalid: AC was already played this hand (trick 2 by S)"
    )


def test_correction_to_a_card_played_earlier_is_refused_at_the_corrected_play() -> None:
    error = refusal(state_after(*AUCTION, *TRICKS[:3]), correct(1, 3, "S", "JH"))
    assert error.cause is not None and error.cause.kind is Refusal.ALREADY_PLAYED
    assert "makes the corrected play itself (S plays JH) invalid" in error.reason


def test_correction_that_moves_the_next_lead_is_refused_once_the_lead_is_recorded() -> None:
    error = refusal(state_after(*AUCTION, *TRICKS[:3], "cards S AC"), correct(1, 3, "S", "9D"))
    assert error.cause is not None and error.cause.kind is Refusal.OUT_OF_TURN
    assert "(S plays AC) invalid: S played AC out of turn" in error.reason


def test_correction_to_the_joker_without_the_joker_variant_is_refused() -> None:
    error = refusal(state_after(*AUCTION, *TRICKS[:1]), correct(1, 1, "N", "JK"))
    assert error.cause is not None and error.cause.kind is Refusal.NOT_IN_DECK


# ---- undo ---------------------------------------------------------------------------------


def test_undo_takes_back_a_correction() -> None:
    state = state_after(*MISREAD)
    before = summary(state)
    state.apply(correct(1, 2, "S", "TS"))
    assert summary(state) != before
    state.apply(events("undo")[1])
    assert summary(state) == before
    assert state.hand.corrections == []
    assert [r.seat for r in state.hand.reneges] == [Seat.S]


def test_undo_takes_back_the_events_after_a_correction_then_the_correction() -> None:
    state = state_after(*MISREAD, "correct 1 2 S TS", "cards S AC W JC", "undo", "undo")
    assert state.hand.corrections == [Correction(1, 2, Seat.S, card("9D"), card("TS"))]
    assert len(state.hand.tricks) == 3
    state.apply(events("undo")[1])
    assert state.hand.corrections == []
    assert state.log == events(*MISREAD)


def test_undo_after_the_game_is_won_takes_back_the_winning_card() -> None:
    state = state_after(*MOON, rules=Rules(target=24))
    state.apply(events("undo")[1])
    assert state.winner is None
    assert state.turn is Seat.E and state.phase is Phase.PLAY
    state.apply(CardPlayed(Seat.E, card("9C")))
    assert state.winner is Team.NS


def test_corrections_stand_in_order_and_a_card_may_be_corrected_twice() -> None:
    state = state_after(*MISREAD, "correct 1 2 S QD", "correct 1 2 S TS", "correct 1 1 N KH")
    assert state.hand.corrections == [
        Correction(1, 2, Seat.S, card("9D"), card("QD")),
        Correction(1, 2, Seat.S, card("QD"), card("TS")),
        Correction(1, 1, Seat.N, card("QH"), card("KH")),
    ]
    assert state.played_at(1, 2, Seat.S) == card("TS")
    assert state.played_at(1, 1, Seat.N) == card("KH")
    assert state.played_at(1, 4, Seat.S) is None
    assert state.played_at(7, 1, Seat.S) is None
    assert state.corrections == state.hand.corrections


# ---- double deck --------------------------------------------------------------------------

DOUBLE_DECK = Rules(double_deck=True)
DOUBLE_AUCTION = ("bid E 6", "bid S pass", "bid W pass", "bid N pass", "trump E H")


def test_double_deck_correction_changes_only_the_copy_named() -> None:
    state = state_after(*DOUBLE_AUCTION, "cards E AH S QH W KH N QH", rules=DOUBLE_DECK)
    assert state.where_played(card("QH")) == (
        Play(1, 1, Seat.S, card("QH")),
        Play(1, 1, Seat.N, card("QH")),
    )
    state.apply(correct(1, 1, "N", "TH"))
    assert state.where_played(card("QH")) == (Play(1, 1, Seat.S, card("QH")),)
    assert state.hand.played[card("QH")] == 1
    assert state.hand.corrections == [Correction(1, 1, Seat.N, card("QH"), card("TH"))]


def test_double_deck_correction_to_a_second_copy_is_allowed_and_first_played_wins() -> None:
    state = state_after(*DOUBLE_AUCTION, "cards E AH S QH W KH N QH", rules=DOUBLE_DECK)
    state.apply(correct(1, 1, "W", "AH"))
    assert [state.hand.tricks[0].winner] == [Seat.E]
    state.apply(correct(1, 1, "E", "KH"))
    assert state.hand.tricks[0].winner is Seat.W


def test_double_deck_correction_to_a_third_copy_is_refused() -> None:
    state = state_after(*DOUBLE_AUCTION, "cards E AH S QH W KH N QH", rules=DOUBLE_DECK)
    error = refusal(state, correct(1, 1, "W", "QH"))
    assert error.cause is not None and error.cause.kind is Refusal.ALREADY_PLAYED
    assert "(N plays QH)" in error.reason


# ---- the log and the summary --------------------------------------------------------------


def test_correct_event_reads_and_writes_as_the_log_notation() -> None:
    line = {"type": "correct", "hand": 1, "trick": 2, "seat": "E", "card": "KC"}
    event = event_from_json(line)
    assert event == correct(1, 2, "E", "KC")
    assert event_to_json(event) == line


@pytest.mark.parametrize(
    "change",
    [{"hand": "1"}, {"hand": 0}, {"trick": True}, {"trick": 2.0}, {"seat": "X"}, {"card": "1C"}],
)
def test_correct_event_with_a_bad_field_is_malformed(change: dict[str, object]) -> None:
    line = {"type": "correct", "hand": 1, "trick": 2, "seat": "E", "card": "KC", **change}
    with pytest.raises(InvalidEvent):
        event_from_json(line)


def test_correct_event_without_a_field_is_malformed() -> None:
    with pytest.raises(InvalidEvent, match="'trick'"):
        event_from_json({"type": "correct", "hand": 1, "seat": "E", "card": "KC"})


def test_summary_lists_corrections_and_shows_corrected_cards() -> None:
    data = summary(state_after(*MISREAD, "correct 1 2 S TS"))
    hand = data["hands"][0]
    assert hand["corrections"] == [{"trick": 2, "seat": "S", "was": "9D", "card": "TS"}]
    assert hand["tricks"][1]["cards"][1] == ["S", "TS"]
    assert summary(state_after(*MISREAD))["hands"][0]["corrections"] == []


def test_report_tells_each_correction() -> None:
    text = describe_game(state_after(*MISREAD, "correct 1 2 S TS"))
    assert "CORRECTED: S's card in trick 2 was 10♠, not 9♦ as recorded" in text
    assert "CORRECTED" not in describe_game(state_after(*MISREAD))


def test_replay_of_a_log_with_corrections_equals_the_state_built_step_by_step() -> None:
    lines = (*MISREAD, "correct 1 2 S TS", *TRICKS[3:], "bid S pass")
    folded = replay(events(*lines))
    stepped = state_after(*lines)
    assert summary(folded) == summary(stepped)
    direct = replay(events(*AUCTION, *TRICKS, "bid S pass"))
    assert summary(direct)["hands"][0]["tricks"] == summary(folded)["hands"][0]["tricks"]
    assert summary(direct)["score"] == summary(folded)["score"]


# ---- properties over simulated games ------------------------------------------------------

RULE_SETS = st.sampled_from(
    [Rules(), Rules(joker=True, ace_no_face=True), Rules(double_deck=True, target=48)]
)
GAMES = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@dataclass(frozen=True)
class Cut:
    """A simulated game cut short, and one play of its last hand with cards."""

    events: list[Event]
    state: GameState
    hand: Hand
    trick: int
    seat: Seat
    was: Card
    index: int  # of the play in `events`


def cut_game(data: st.DataObject, rules: Rules) -> Cut:
    """A random game cut at a random event after the first card, and a random play of it."""
    game = simulate_game(seed=data.draw(st.integers(0, 10_000)), rules=rules, max_hands=6)
    card_events = [i for i, e in enumerate(game.events) if isinstance(e, CardPlayed)]
    end = data.draw(st.integers(card_events[0] + 1, len(game.events)))
    kept = game.events[:end]
    state = replay(kept)
    hand = [hand for hand in (*state.completed, state.hand) if hand.tricks][-1]
    plays = [
        (number, seat, played)
        for number, trick in enumerate(hand.tricks, start=1)
        for seat, played in trick.cards
    ]
    position = data.draw(st.integers(0, len(plays) - 1))
    trick, seat, was = plays[position]
    kept_cards = [i for i in card_events if i < end]
    index = kept_cards[len(kept_cards) - len(plays) + position]
    assert kept[index] == CardPlayed(seat, was)
    return Cut(kept, state, hand, trick, seat, was, index)


def without_corrections(data: dict[str, Any]) -> dict[str, Any]:
    """A summary with the corrections lists left out."""
    return {
        **data,
        "hands": [
            {key: value for key, value in hand.items() if key != "corrections"}
            for hand in data["hands"]
        ],
    }


@GAMES
@given(st.data(), RULE_SETS)
def test_correcting_a_card_to_itself_is_always_refused(data: st.DataObject, rules: Rules) -> None:
    cut = cut_game(data, rules)
    event = CardCorrected(cut.hand.number, cut.trick, cut.seat, cut.was)
    assert refusal(cut.state, event).kind is Refusal.SAME_CARD


@GAMES
@given(st.data(), RULE_SETS)
def test_a_correction_stands_exactly_when_the_log_with_the_card_put_in_replays(
    data: st.DataObject, rules: Rules
) -> None:
    cut = cut_game(data, rules)
    others = [c for c in deck(joker=True) if c != cut.was]
    new = data.draw(st.sampled_from(others))
    direct = [*cut.events]
    direct[cut.index] = CardPlayed(cut.seat, new)
    try:
        expected: GameState | None = replay(direct)
    except InvalidEvent:
        expected = None
    correction = CardCorrected(cut.hand.number, cut.trick, cut.seat, new)
    event("refused" if expected is None else "stands")
    if expected is None:
        assert refusal(cut.state, correction).kind is Refusal.CORRECTION_BREAKS_LATER
        return
    cut.state.apply(correction)
    assert without_corrections(summary(cut.state)) == without_corrections(summary(expected))
    assert cut.state.hand_numbered(cut.hand.number) is not None
    assert summary(cut.state)["hands"][cut.hand.number - 1]["corrections"] == [
        {"trick": cut.trick, "seat": cut.seat.value, "was": cut.was.code, "card": new.code}
    ]


@GAMES
@given(st.data(), RULE_SETS)
def test_a_correction_keeping_suit_and_winner_to_an_unplayed_card_stands(
    data: st.DataObject, rules: Rules
) -> None:
    cut = cut_game(data, rules)
    assume(cut.hand.contract is not None)
    assert cut.hand.contract is not None
    trump = cut.hand.contract.trump
    trick = cut.hand.tricks[cut.trick - 1]

    def keeps_the_trick(new: Card) -> bool:
        if effective_suit(new, trump) is not effective_suit(cut.was, trump):
            return False
        if trick.winner is None:
            return True
        cards = [(s, new if s is cut.seat else c) for s, c in trick.cards]
        return winner(Trick(trick.leader, cards), trump) is trick.winner

    candidates = [
        new
        for new in deck(joker=rules.joker)
        if new != cut.was and cut.hand.played[new] < rules.copies and keeps_the_trick(new)
    ]
    assume(candidates)
    new = data.draw(st.sampled_from(candidates))
    cut.state.apply(CardCorrected(cut.hand.number, cut.trick, cut.seat, new))
    assert cut.state.played_at(cut.hand.number, cut.trick, cut.seat) == new
    direct = [*cut.events]
    direct[cut.index] = CardPlayed(cut.seat, new)
    assert without_corrections(summary(cut.state)) == without_corrections(summary(replay(direct)))
