"""The demo game's maker: seeded deals, legal play, the hands the demo wants."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.camera_demo import DEMO_GAME
from table import GameStarted, HandResult, Seat
from tools.make_demo_game import deal, main, play_hand


def test_it_writes_the_shipped_demo_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "game.jsonl"
    assert main(["--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == DEMO_GAME.read_text(encoding="utf-8")
    assert "winner: NS" in capsys.readouterr().out


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("renege", [False, True])
def test_a_dealt_hand_is_played_legally_with_at_most_one_renege(seed: int, renege: bool) -> None:
    start = GameStarted(dealer=Seat(("N", "E", "S", "W")[seed % 4]))
    _, state = play_hand([start], deal(f"test {seed}"), renege)
    hand = state.completed[0]
    if hand.result is HandResult.REDEAL:
        assert not hand.tricks
        return
    assert sum(len(trick.cards) for trick in hand.tricks) == 24 - 6 * hand.contract.bid.is_alone
    if renege:
        assert len(hand.reneges) <= 1 and all(r.trick >= 2 for r in hand.reneges)
    else:
        assert not hand.reneges


def test_a_bad_dealer_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--dealer", "X", "--out", "unused.jsonl"]) == 2
    assert capsys.readouterr().err.startswith("--dealer:")
    assert not Path("unused.jsonl").exists()
