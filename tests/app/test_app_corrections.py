"""Corrections at the table: a misread card put right by touch or panel, refused, undone."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from app.cli import main
from app.config import AppConfig
from app.controller import NoticeKind, TableController
from app.journal import Journal
from app.prompts import (
    Answer,
    CardNamed,
    CorrectionOpened,
    CorrectionPrompt,
    MisreadPrompt,
    PickPrompt,
    PickReason,
    PlayedChosen,
    PlayedPrompt,
    PromptAnswered,
    SuspectPrompt,
)
from app.run import TableApp
from app.screen_prompts import prompt_view
from app.script import parse_script_line, script_from_events
from display.prompts import CorrectionPick
from display.wording import correction_detail
from drivers import inputs
from table import (
    Bid,
    BidMade,
    Card,
    CardCorrected,
    CardPlayed,
    Event,
    ExchangeDone,
    GameState,
    Rules,
    Seat,
    Suit,
    TrumpNamed,
    effective_suit,
    replay,
)
from table.cards import deck
from table.errors import InvalidEvent
from table.hand import Play
from table.simulate import SimulatedGame, simulate_game
from table.state import Phase
from tests.app.tablerig import button_table


@dataclass(frozen=True)
class Misread:
    """A simulated game whose `line`-th script line (a card) the camera read as `read`."""

    events: list[Event]
    lines: list[dict[str, object]]
    line: int
    read: str

    @property
    def seat(self) -> Seat:
        return Seat(str(self.lines[self.line]["seat"]))

    @property
    def card(self) -> str:
        return str(self.lines[self.line]["card"])

    def script(self) -> list[dict[str, object]]:
        """The script with the misread in it."""
        lines = [dict(line) for line in self.lines]
        lines[self.line]["card"] = self.read
        return lines


def feed(app: TableApp, lines: list[dict[str, object]]) -> list[object]:
    """Each script line through the real parser and the app; the notices of all."""
    notices: list[object] = []
    for number, line in enumerate(lines, start=1):
        notices.extend(app.handle(parse_script_line(number, json.dumps(line))))
    return notices


def card_lines(lines: list[dict[str, object]]) -> list[int]:
    return [i for i, line in enumerate(lines) if "card" in line and not line.get("removed")]


def four_player_first_hand(seed: int) -> SimulatedGame:
    """The first simulated game from `seed` on whose first hand is played by all four."""
    for tried in range(seed, seed + 1000, 100):
        game = simulate_game(seed=tried, dealer=Seat.N)
        first = replay(game.events).completed[0]
        if first.tricks and first.players == 4:
            return game
    raise AssertionError(f"no game from seed {seed} begins with a four-player hand")


def first_trick_misread(seed: int) -> tuple[Misread, Seat, Seat]:
    """A game (from `seed` on) whose first trick's lead is misread so that the wrong seat wins
    it: the misread, the winner the camera's reading gives and the true winner."""
    for tried in range(seed, seed + 1000, 100):
        game = four_player_first_hand(tried)
        lines = script_from_events(game.events)
        plays = [i for i in card_lines(lines) if lines[i]["hand"] == 1][:4]
        true_winner = replay(game.events).completed[0].tricks[0].winner
        in_trick = {str(lines[i]["card"]) for i in plays}
        for card in deck():
            if card.code in in_trick:
                continue
            state = _state_of(game.events, card.code)
            winner = state.hand.tricks[0].winner if state else None
            if winner is not None and true_winner is not None and winner is not true_winner:
                return Misread(game.events, lines, plays[0], card.code), winner, true_winner
    raise AssertionError(f"from seed {seed}: no misread of the lead changes the first trick")


def _state_of(events: list[Event], read: str) -> GameState | None:
    """The engine after the first trick with the lead read as `read`."""
    state = GameState(events[0])  # type: ignore[arg-type]
    cards = 0
    for event in events[1:]:
        if isinstance(event, CardPlayed):
            if cards == 4:
                return state
            card = Card.parse(read) if cards == 0 else event.card
            event = CardPlayed(event.seat, card)
            cards += 1
        state.apply(event)
    return state if cards == 4 else None


def controller_app(journal: Journal) -> TableApp:
    return TableApp(AppConfig(), TableController(journal, Rules(), dealer=Seat.N))


@pytest.fixture
def journal(tmp_path: Path) -> Journal:
    with Journal(tmp_path / "state" / "journal.sqlite") as opened:
        yield opened


def final_score(state: GameState) -> dict[str, int]:
    return {team.value: score for team, score in state.scores.items()}


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_card_three_plays_back_corrected_by_touch_gives_the_true_winner_and_score(
    journal: Journal, seed: int
) -> None:
    misread, wrong, right = first_trick_misread(seed)
    script = misread.script()
    app = controller_app(journal)
    table = app.controller
    fourth = card_lines(script)[3]
    feed(app, script[: fourth + 1])
    assert table.state.hand.tricks[0].winner is wrong
    assert isinstance(table.on_input(CorrectionOpened())[0].message, str)
    assert isinstance(table.prompt, PlayedPrompt)
    table.on_input(PlayedChosen(1, 1, misread.seat))
    assert table.prompt == CorrectionPrompt(Play(1, 1, misread.seat, Card.parse(misread.read)))
    table.on_input(CardNamed(misread.card))
    notices = table.on_input(PromptAnswered(Answer.CONFIRM))
    assert notices[0].kind is NoticeKind.ACCEPTED and table.prompt is None
    assert table.state.hand.tricks[0].winner is right
    feed(app, script[fourth + 1 :])
    truth = replay(misread.events)
    assert final_score(table.state) == final_score(truth)
    assert table.state.winner == truth.winner
    corrections = [e for e in journal.events(table.game_id) if isinstance(e, CardCorrected)]
    assert corrections == [CardCorrected(1, 1, misread.seat, Card.parse(misread.card))]


def test_the_panel_corrects_a_card_with_seat_trick_card_and_ok(tmp_path: Path) -> None:
    misread, wrong, right = first_trick_misread(5)
    script = misread.script()
    fourth = card_lines(script)[3]
    with button_table(tmp_path) as rig:
        feed(rig.app, script[: fourth + 1])
        table = rig.app.controller
        assert table.state.hand.tricks[0].winner is wrong
        seat_key = {"N": "3", "E": "4", "S": "5", "W": "6"}[misread.seat.value]
        rank_key = {"9": "3", "T": "4", "J": "5", "Q": "6", "K": "ASK", "A": "MOON"}
        suit_key = {"C": "CLUBS", "D": "DIAMONDS", "H": "HEARTS", "S": "SPADES"}
        rig.press("CORRECT", seat_key, "3")
        assert table.prompt == CorrectionPrompt(Play(1, 1, misread.seat, Card.parse(misread.read)))
        rig.press(rank_key[misread.card[0]], suit_key[misread.card[1]])
        prompt = table.prompt
        assert isinstance(prompt, CorrectionPrompt) and prompt.chosen == Card.parse(misread.card)
        notices = rig.press("OK")
        assert notices[0].kind is NoticeKind.ACCEPTED
        assert table.state.hand.tricks[0].winner is right
        feed(rig.app, script[fourth + 1 :])
        assert final_score(table.state) == final_score(replay(misread.events))


def test_a_refused_correction_gives_the_reason_and_changes_nothing(journal: Journal) -> None:
    misread, wrong, _ = first_trick_misread(1)
    script = misread.script()
    app = controller_app(journal)
    table = app.controller
    fourth = card_lines(script)[3]
    feed(app, script[: fourth + 1])
    events = journal.events(table.game_id)
    taken = str(script[card_lines(script)[1]]["card"])  # the second card of the trick
    table.on_input(CorrectionOpened())
    table.on_input(PlayedChosen(1, 1, misread.seat))
    table.on_input(CardNamed(taken))
    refused = table.on_input(PromptAnswered(Answer.CONFIRM))
    assert refused[0].kind is NoticeKind.REFUSED
    assert taken in refused[0].message and "already played" in refused[0].message
    assert journal.events(table.game_id) == events
    assert table.state.hand.tricks[0].winner is wrong
    prompt = table.prompt
    assert isinstance(prompt, CorrectionPrompt) and prompt.chosen is None  # pick again
    shown = prompt_view(table)
    assert isinstance(shown, CorrectionPick) and shown.refused == refused[0].message
    assert "already played" in correction_detail(shown)  # the screen says why
    table.on_input(CardNamed(str(misread.lines[misread.line]["card"])))  # chosen: reason goes
    assert (shown := prompt_view(table)) is not None and getattr(shown, "refused", 1) is None
    table.on_input(PromptAnswered(Answer.CANCEL))
    table.on_input(CorrectionOpened())
    nowhere = table.on_input(PlayedChosen(1, 4, misread.seat))
    assert nowhere[0].kind is NoticeKind.REFUSED


def test_undo_takes_a_correction_back(journal: Journal) -> None:
    misread, wrong, right = first_trick_misread(2)
    script = misread.script()
    app = controller_app(journal)
    table = app.controller
    feed(app, script[: card_lines(script)[3] + 1])
    table.on_input(PlayedChosen(1, 1, misread.seat))
    table.on_input(CardNamed(misread.card))
    table.on_input(PromptAnswered(Answer.CONFIRM))
    assert table.state.hand.tricks[0].winner is right
    assert table.on_input(inputs.UndoPressed(None))[0].message == "undone"
    assert table.state.hand.tricks[0].winner is wrong
    assert table.state.hand.tricks[0].cards[0] == (misread.seat, Card.parse(misread.read))
    assert not [r for r in journal.card_records(table.game_id)
                if isinstance(r.event, CardCorrected)]


def suspect_case(seed: int) -> Misread:
    """A lead misread as a card another seat plays later in the same trick."""
    game = four_player_first_hand(seed)
    lines = script_from_events(game.events)
    plays = [i for i in card_lines(lines) if lines[i]["hand"] == 1][:4]
    return Misread(game.events, lines, plays[0], str(lines[plays[3]]["card"]))


@pytest.mark.parametrize("seed", [1, 6, 7])
def test_already_played_points_at_the_earlier_misread_and_corrects_it(
    journal: Journal, seed: int
) -> None:
    misread = suspect_case(seed)
    script = misread.script()
    app = controller_app(journal)
    table = app.controller
    fourth = card_lines(script)[3]
    notices = feed(app, script[: fourth + 1])
    suspect = table.prompt
    assert isinstance(suspect, SuspectPrompt)
    assert suspect.earlier == Play(1, 1, misread.seat, Card.parse(misread.read))
    assert any(n.kind is NoticeKind.ALREADY_PLAYED for n in notices)  # type: ignore[attr-defined]
    assert len(table.state.hand.tricks[0].cards) == 3  # the fourth card waits
    table.on_input(PromptAnswered(Answer.CORRECT))
    assert isinstance(table.prompt, CorrectionPrompt)
    table.on_input(CardNamed(misread.card))
    notices = table.on_input(PromptAnswered(Answer.CONFIRM))
    assert [n.kind for n in notices][:2] == [NoticeKind.ACCEPTED, NoticeKind.ACCEPTED]
    assert len(table.state.hand.tricks[0].cards) == 4 and table.prompt is None
    feed(app, script[fourth + 1 :])
    assert final_score(table.state) == final_score(replay(misread.events))


def test_no_to_the_suspect_asks_for_the_card_lying_there(journal: Journal) -> None:
    misread = suspect_case(1)
    script = misread.script()
    app = controller_app(journal)
    feed(app, script[: card_lines(script)[3] + 1])
    table = app.controller
    suspect = table.prompt
    assert isinstance(suspect, SuspectPrompt)
    table.on_input(inputs.ConfirmPressed(None))  # OK on the panel: no, the earlier card stands
    assert table.prompt == PickPrompt(suspect.seat, PickReason.DISPUTED, suspect.card)


def false_renege_case() -> tuple[Misread, int]:
    """A follower's card misread as an off-suit card, so a later card of theirs proves a
    renege that never happened; and the script line of that proving card."""
    for seed in range(1, 60):
        game = simulate_game(seed=seed, dealer=Seat.N)
        lines = script_from_events(game.events)
        hand = [i for i in card_lines(lines) if lines[i]["hand"] == 1]
        truth = replay(game.events)
        played = truth.completed[0] if truth.completed else truth.hand
        if played.contract is None or len(hand) < 24:
            continue
        trump = played.contract.trump
        for index in range(1, len(hand)):
            trick, place = divmod(index, 4)
            if place == 0:
                continue
            seat = Seat(str(lines[hand[index]]["seat"]))
            card = Card.parse(str(lines[hand[index]]["card"]))
            led = effective_suit(Card.parse(str(lines[hand[trick * 4]]["card"])), trump)
            if effective_suit(card, trump) is not led:
                continue
            later = [j for j in range(index + 4, len(hand))
                     if lines[hand[j]]["seat"] == seat.value
                     and effective_suit(Card.parse(str(lines[hand[j]]["card"])), trump) is led]
            if not later:
                continue
            for other in deck():
                position = next(j for j in range(len(hand)) if lines[hand[j]]["card"] == other.code)
                if position <= later[0] or effective_suit(other, trump) in (led, trump):
                    continue
                case = Misread(game.events, lines, hand[index], other.code)
                try:
                    state = replay_script(case.script()[: hand[later[0]] + 1], game.events[0])
                except ValueError:
                    continue
                if state.hand.reneges:
                    return case, hand[later[0]]
    raise AssertionError("no false renege found in the simulated games")


def replay_script(lines: list[dict[str, object]], start: Event) -> GameState:
    """The engine state a script's card and press lines make (no table), ValueError if invalid."""

    with_table = GameState(start)  # type: ignore[arg-type]

    for line in lines:
        try:
            if "card" in line and not line.get("removed"):
                with_table.apply(CardPlayed(Seat(str(line["seat"])), Card.parse(str(line["card"]))))
            elif line.get("press") == "bid":
                with_table.apply(BidMade(Seat(str(line["seat"])), Bid.parse(line["bid"])))
            elif line.get("press") == "pass":
                with_table.apply(BidMade(Seat(str(line["seat"])), Bid.parse("pass")))
            elif line.get("press") == "trump":
                with_table.apply(TrumpNamed(Seat(str(line["seat"])), Suit(str(line["suit"]))))
            elif line.get("press") == "ok":
                with_table.apply(ExchangeDone(Seat(str(line["seat"]))))
        except InvalidEvent as error:
            raise ValueError(error.reason) from None
    return with_table


def test_misread_answered_to_a_renege_alarm_removes_the_false_renege(journal: Journal) -> None:
    misread, proof = false_renege_case()
    script = misread.script()
    app = controller_app(journal)
    table = app.controller
    notices = feed(app, script[: proof + 1])
    assert any(n.kind is NoticeKind.RENEGE for n in notices)  # type: ignore[attr-defined]
    question = table.prompt
    assert isinstance(question, MisreadPrompt) and question.renege.seat is misread.seat
    assert table.state.hand.reneges
    table.on_input(PromptAnswered(Answer.MISREAD))
    prompt = table.prompt
    assert isinstance(prompt, CorrectionPrompt) and prompt.play.seat is misread.seat
    assert prompt.play.card == Card.parse(misread.read)
    table.on_input(CardNamed(misread.card))
    table.on_input(PromptAnswered(Answer.CONFIRM))
    assert table.state.hand.reneges == [] and table.prompt is None
    feed(app, script[proof + 1 :])
    truth = replay(misread.events)
    assert final_score(table.state) == final_score(truth)


def test_ok_to_a_renege_alarm_lets_it_stand(journal: Journal) -> None:
    misread, proof = false_renege_case()
    app = controller_app(journal)
    feed(app, misread.script()[: proof + 1])
    app.controller.on_input(inputs.ConfirmPressed(None))
    assert app.controller.prompt is None and app.controller.state.hand.reneges


def test_undo_after_the_game_is_won_at_the_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = simulate_game(seed=3, dealer=Seat.N)
    with Journal(tmp_path / "journal.sqlite") as journal:
        app = controller_app(journal)
        lines = script_from_events(game.events)
        feed(app, lines)
        table = app.controller
        assert table.state.winner is not None and table.state.phase is Phase.GAME_OVER
        assert table.on_input(inputs.UndoPressed(None))[0].message == "undone"
        assert table.state.winner is None and journal.unfinished_game() == table.game_id
        last = [line for line in lines if "card" in line and not line.get("removed")][-1]
        feed(app, [last])
        assert table.state.winner == game.state.winner
    assert main(["games", "--state-dir", str(tmp_path)]) == 0
    assert f"{game.state.winner} won" in capsys.readouterr().out


def test_the_panel_answers_the_suspect_with_correct_then_the_card_then_ok(tmp_path: Path) -> None:
    misread = suspect_case(6)
    script = misread.script()
    fourth = card_lines(script)[3]
    rank_key = {"9": "3", "T": "4", "J": "5", "Q": "6", "K": "ASK", "A": "MOON"}
    suit_key = {"C": "CLUBS", "D": "DIAMONDS", "H": "HEARTS", "S": "SPADES"}
    with button_table(tmp_path) as rig:
        feed(rig.app, script[: fourth + 1])
        table = rig.app.controller
        assert isinstance(table.prompt, SuspectPrompt)
        rig.press("CORRECT")
        assert isinstance(table.prompt, CorrectionPrompt)
        rig.press(rank_key[misread.card[0]], suit_key[misread.card[1]], "OK")
        assert table.prompt is None and len(table.state.hand.tricks[0].cards) == 4
        feed(rig.app, script[fourth + 1 :])
        assert final_score(table.state) == final_score(replay(misread.events))
