"""Rule options as a frozen dataclass; every option of RULES.md with its default."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

from table.errors import RulesError, shown

SetPenalty = Literal["value", "tricks"]
BothOverTarget = Literal["higher_score", "bidding_team"]
_SET_PENALTIES: tuple[str, ...] = ("value", "tricks")
_BOTH_OVER_TARGET: tuple[str, ...] = ("higher_score", "bidding_team")


@dataclass(frozen=True, slots=True)
class Rules:
    """A house's rule set; anything not given takes its default."""

    target: int = 32
    plain_six: bool = True
    set_penalty: SetPenalty = "value"
    renege_penalty: int = 2
    both_over_target: BothOverTarget = "higher_score"
    stick_the_dealer: bool = False
    ace_no_face: bool = False
    joker: bool = False
    double_deck: bool = False

    def __post_init__(self) -> None:
        problems = _problems(self)
        if problems:
            raise RulesError("; ".join(problems))

    @classmethod
    def from_mapping(cls, options: Mapping[str, Any] | None) -> Rules:
        """Build rules from a log's `rules` object; unknown options and bad values raise."""
        if options is None:
            return cls()
        if not isinstance(options, Mapping):
            raise RulesError(f"rules must be an object of options, not {shown(options)}")
        known = {field.name for field in fields(cls)}
        unknown = sorted(str(name) for name in options if name not in known)
        if unknown:
            raise RulesError(
                f"unknown rule option {', '.join(map(shown, unknown))} "
                f"(known: {', '.join(sorted(known))})"
            )
        return cls(**dict(options))

    def to_mapping(self) -> dict[str, Any]:
        """The options that differ from the defaults, as a log's `rules` object."""
        defaults = asdict(Rules())
        return {name: value for name, value in asdict(self).items() if defaults[name] != value}

    @property
    def tricks_per_hand(self) -> int:
        """Tricks in a hand: 6, or 12 with the double deck."""
        return 12 if self.double_deck else 6

    @property
    def copies(self) -> int:
        """How many copies of each card the deck holds."""
        return 2 if self.double_deck else 1

    @property
    def lone_value(self) -> int:
        """Points for an `ask` made: 12, or 24 with the double deck; a `moon` is worth twice."""
        return 2 * self.tricks_per_hand


def _problems(rules: Rules) -> list[str]:
    """Every bad value in a rule set, each naming the option."""
    problems = []
    if not _is_int(rules.target) or rules.target <= 0:
        problems.append(f"target must be a positive whole number, not {shown(rules.target)}")
    if not _is_int(rules.renege_penalty) or rules.renege_penalty < 0:
        problems.append(
            f"renege_penalty must be a non-negative whole number, not {shown(rules.renege_penalty)}"
        )
    if rules.set_penalty not in _SET_PENALTIES:
        problems.append(f"set_penalty must be 'value' or 'tricks', not {shown(rules.set_penalty)}")
    if rules.both_over_target not in _BOTH_OVER_TARGET:
        problems.append(
            "both_over_target must be 'higher_score' or 'bidding_team', "
            f"not {shown(rules.both_over_target)}"
        )
    for name in ("plain_six", "stick_the_dealer", "ace_no_face", "joker", "double_deck"):
        value = getattr(rules, name)
        if not isinstance(value, bool):
            problems.append(f"{name} must be true or false, not {shown(value)}")
    return problems


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
