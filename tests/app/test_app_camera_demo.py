"""The camera demo: rendered frames through recognition, referee and screen, end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.camera_demo import (
    DEMO_GAME,
    ScriptedButtons,
    demo_faces,
    demo_start,
    presses_by_hand,
    run_demo,
    write_recording,
)
from app.cli import main
from app.config import AppConfig
from app.controller import NoticeKind, TableController
from app.journal import Journal
from app.prompts import CardNamed
from app.run import TableApp
from app.script import parse_script_line, script_from_events
from drivers.clock import ManualClock
from table import MOON, CardPlayed, Event, GameState
from table.log import parse_lines


@pytest.fixture(autouse=True)
def headless(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")


def demo_events() -> list[Event]:
    with DEMO_GAME.open() as handle:
        return [event for _, event in parse_lines(handle)]


def test_demo_deck_has_every_card_with_alpha() -> None:
    faces = demo_faces()
    assert len(faces) == 24 and all(face.shape[2] == 4 for face in faces.values())


def test_presses_are_grouped_by_hand_and_a_moon_needs_no_passes_after_it() -> None:
    presses = presses_by_hand(DEMO_GAME)
    state = GameState(demo_start())
    for event in demo_events()[1:]:
        state.apply(event)
    assert sorted(presses) == [hand.number for hand in state.completed]
    moons = 0
    for hand in state.completed:
        kinds = [type(p).__name__ for p in presses[hand.number]]
        bids = [bid for _, bid in hand.bids]
        if MOON in bids:  # the table records the passes after a moon by itself
            moons += 1
            bids = bids[: bids.index(MOON) + 1]
        assert kinds == [("PassPressed" if b.is_pass else "BidPressed") for b in bids] + [
            "TrumpPressed"
        ]
    assert moons == 1


@pytest.mark.parametrize("unreadable_every", [0, 5, 7])
def test_the_scripted_players_play_the_whole_game(tmp_path: Path, unreadable_every: int) -> None:
    """Each hand's presses come when the table asks, the renege alarm is answered, and a card
    the camera cannot read is named when the table asks for it."""
    start, events = demo_start(), demo_events()
    clock = ManualClock()
    with Journal(tmp_path / "journal.sqlite") as journal:
        controller = TableController(journal, start.rules, start.dealer, clock=clock)
        app = TableApp(AppConfig(rules=start.rules, dealer=start.dealer), controller)
        buttons = ScriptedButtons(controller)
        kinds: list[NoticeKind] = []
        named = 0

        def press_what_is_due() -> None:
            nonlocal named
            while due := buttons.due():
                named += sum(isinstance(item, CardNamed) for item in due)
                kinds.extend(notice.kind for item in due for notice in app.handle(item))

        cards = [line for line in script_from_events(events) if "card" in line]
        unread = set()  # the camera never reads these: it sees them come and go unreadable
        for number, line in enumerate(cards, start=1):
            press_what_is_due()
            laid = not line.get("removed")
            if laid and unreadable_every and number % unreadable_every == 0:
                unread.add(line["card"])
            if line["card"] in unread:
                line = {"unreadable": True, "seat": line["seat"], "removed": not laid}
            kinds += [n.kind for n in app.handle(parse_script_line(number, json.dumps(line)))]
            if line.get("unreadable") and laid:
                clock.advance(3.5)
                kinds += [notice.kind for notice in app.tick()]
        press_what_is_due()
        exported = list(parse_lines(journal.export(controller.game_id).splitlines()))
    assert [event for _, event in exported] == events
    assert controller.state.winner is not None and controller.prompt is None
    assert kinds.count(NoticeKind.RENEGE) == 1
    assert kinds.count(NoticeKind.REFUSED) == 0
    assert named == kinds.count(NoticeKind.UNREADABLE_CARD)
    assert bool(named) == bool(unreadable_every)


def test_the_shipped_game_is_short_and_replays_to_a_declared_winner(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["replay", str(DEMO_GAME), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    hands = summary["hands"]
    assert summary["winner"] in ("NS", "EW") and 3 <= len(hands) <= 5
    assert summary["score"][summary["winner"]] >= 32
    assert hands[0]["reneges"], "the first hand proves a renege"
    made = []
    for hand in hands:
        team = "NS" if hand["contract"]["seat"] in "NS" else "EW"
        bid = hand["contract"]["bid"]
        needed = 6 if bid in ("ask", "moon") else bid
        made.append((bid, hand["tricks_won"][team] >= needed))
    assert any(not ok for _, ok in made), "a hand is set"
    assert any(ok and isinstance(bid, int) for bid, ok in made), "a bid is made"
    assert any(ok and bid in ("ask", "moon") for bid, ok in made), "an ask or a moon is made"


def test_the_first_two_hands_are_read_by_the_camera_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every card of the demo's first two hands (a trick pile, a card laid over the last of a
    trick, a renege) is read by the camera; none is named by the players, no renege is
    flagged that the game does not hold, and the score is the recorded game's."""
    result = run_demo(tmp_path, max_tricks=12, say=lambda line: None)
    state = GameState(demo_start())
    for event in demo_events()[1:]:
        if len(state.completed) == 2:
            break
        state.apply(event)
    played = [card for hand in state.completed for trick in hand.tricks for card in trick.cards]
    with result.log.open() as handle:
        journaled = [(e.seat, e.card) for _, e in parse_lines(handle) if isinstance(e, CardPlayed)]
    assert journaled == played and len(played) == 48
    assert result.cards_named == 0 and result.cards_read >= 48
    assert result.reneges == sum(len(hand.reneges) for hand in state.completed) == 1
    assert result.shown_scores == {team.value: score for team, score in state.scores.items()}
    assert result.screens >= 48
    assert len(list((tmp_path / "screens").glob("*.png"))) == result.screens
    capsys.readouterr()
    assert main(["replay", str(result.log), "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["score"] == result.shown_scores
    assert replayed.get("winner") is None and result.winner is None
    assert 0 < len(result.latency_s) <= 48 and max(result.latency_s) < 1.5
    figures = result.figures()
    assert "hand 2: " in figures and "hand 3: " in figures  # hand 3's bids come after
    assert f"no winner yet: NS {replayed['score']['NS']}" in figures
    assert sum(result.hand_frames.values()) == result.frames


def test_cardtable_run_on_a_recorded_camera(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config, presses = write_recording(tmp_path / "rec", max_tricks=1, size=(1280, 720))
    state = tmp_path / "state"
    assert main(["run", "--config", str(config), "--script", str(presses), "--no-display",
                 "--state-dir", str(state)]) == 0
    log = tmp_path / "game.jsonl"
    assert main(["export", "1", "--state-dir", str(state), "--out", str(log)]) == 0
    expected = [e for e in demo_events() if isinstance(e, CardPlayed)][:4]
    with log.open() as handle:
        assert [e for _, e in parse_lines(handle) if isinstance(e, CardPlayed)] == expected
