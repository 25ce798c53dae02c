"""Rule options: defaults, validation, bid heights and values."""

from __future__ import annotations

import pytest

from table import ASK, MOON, Bid, Rules, RulesError
from table.bids import BidError, all_bids


def test_defaults_match_the_rule_book() -> None:
    rules = Rules.from_mapping({})
    assert (rules.target, rules.plain_six, rules.set_penalty, rules.renege_penalty) == (
        32,
        True,
        "value",
        2,
    )
    assert rules.both_over_target == "higher_score"
    assert not (rules.stick_the_dealer or rules.ace_no_face or rules.joker or rules.double_deck)


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"targt": 32}, "targt"),
        ({"target": 0}, "target"),
        ({"target": "32"}, "target"),
        ({"target": True}, "target"),
        ({"renege_penalty": -1}, "renege_penalty"),
        ({"set_penalty": "double"}, "set_penalty"),
        ({"both_over_target": "first"}, "both_over_target"),
        ({"joker": "yes"}, "joker"),
        ({"double_deck": 1}, "double_deck"),
    ],
)
def test_bad_options_name_the_option(options: dict[str, object], named: str) -> None:
    with pytest.raises(RulesError, match=named):
        Rules.from_mapping(options)


def test_round_trip_to_mapping() -> None:
    rules = Rules(target=50, joker=True)
    assert rules.to_mapping() == {"target": 50, "joker": True}
    assert Rules.from_mapping(rules.to_mapping()) == rules


def test_bid_order_single_and_double_deck() -> None:
    single = [str(bid) for bid in all_bids(Rules())]
    assert single == ["3", "4", "5", "6", "ask", "moon"]
    assert [str(b) for b in all_bids(Rules(plain_six=False))] == ["3", "4", "5", "ask", "moon"]
    double = [str(bid) for bid in all_bids(Rules(double_deck=True))]
    assert double == [*map(str, range(3, 13)), "ask", "moon"]


@pytest.mark.parametrize(
    ("rules", "bid", "made", "set_loss"),
    [
        (Rules(), Bid.parse(4), 5, 4),
        (Rules(), ASK, 12, 12),
        (Rules(), MOON, 24, 24),
        (Rules(set_penalty="tricks"), ASK, 12, 6),
        (Rules(set_penalty="tricks"), MOON, 24, 6),
        (Rules(double_deck=True), ASK, 24, 24),
        (Rules(double_deck=True), MOON, 48, 48),
        (Rules(double_deck=True, set_penalty="tricks"), MOON, 48, 12),
    ],
)
def test_bid_values(rules: Rules, bid: Bid, made: int, set_loss: int) -> None:
    assert bid.made_points(rules, 5) == made
    assert bid.set_points(rules) == set_loss


@pytest.mark.parametrize("value", [2, 0, "seven", None, True, 3.5])
def test_bad_bids(value: object) -> None:
    with pytest.raises(BidError):
        Bid.parse(value)
