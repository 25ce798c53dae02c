"""Corrections from the phone page: the PIN, its limit, and the table's own referee deciding."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from app.config import AppConfig, WebConfig
from app.control import TableLink
from app.controller import NoticeKind, TableController
from app.journal import Journal
from app.prompts import CorrectionPrompt, PlayCorrected, SeatCardNamed
from app.run import TableApp
from app.web.pin import PinGate
from app.web.server import WebServer
from app.web.service import table_services
from app.web.sources import TableFeed
from drivers import inputs
from drivers.clock import ManualClock
from table import JOKER, Card, CardCorrected, CardPlayed, InvalidEvent, Rules, Seat, Undone, replay
from tests.app.tablerig import bid_hand, play
from tests.app.webrig import WAIT_S, EventStream, get_json, post_json, web_server

PIN = "2468"
TRICK_1 = ("E AS", "S KS", "W QS", "N 9S")  # E bid 3 in hearts; AS takes the trick, E leads


@dataclass
class Table:
    """A referee on a journal in the middle of hand 1, and its page with a PIN."""

    app: TableApp
    controller: TableController
    clock: ManualClock
    server: WebServer
    stream: EventStream

    @property
    def url(self) -> str:
        """The page's address."""
        return self.server.url

    def post(self, body: dict[str, Any]) -> tuple[int, dict[str, str], Any]:
        """A request the page answers without the table (refused before reaching it)."""
        return post_json(self.url, body)

    def post_to_table(self, body: dict[str, Any]) -> tuple[int, dict[str, str], Any]:
        """A request the table's loop must take: the loop's turn is played here."""
        answers: list[tuple[int, dict[str, str], Any]] = []
        sender = threading.Thread(target=lambda: answers.append(post_json(self.url, body)))
        sender.start()
        self.app.handle(self.app.items.get(timeout=WAIT_S))  # what the main loop does
        sender.join(WAIT_S)
        (answer,) = answers
        return answer


@contextmanager
def table_with_pin(tmp_path: Path, pin: str | None = PIN) -> Iterator[Table]:
    clock = ManualClock(1000.0)
    with Journal(tmp_path / "journal.sqlite") as journal:
        controller = TableController(journal, Rules(), Seat.N)
        bid_hand(controller, "E", 3, "H")
        play(controller, *TRICK_1)
        app = TableApp(AppConfig(state_dir=tmp_path), controller, clock=clock)
        context: dict[str, Any] = {}
        if pin is not None:
            context = {"pins": PinGate(pin, clock), "corrections": TableLink(app.items, app.stop)}
        with web_server(journal.path, **context) as server:
            app.listeners.append(TableFeed(app, server.context.hub))
            stream = EventStream(server)
            stream.next()
            yield Table(app, controller, clock, server, stream)
            stream.close()


def test_without_a_pin_the_page_refuses_every_correction(tmp_path: Path) -> None:
    with table_with_pin(tmp_path, pin=None) as table:
        before = list(table.controller.events)
        assert get_json(table.server, "/api/corrections") == {"enabled": False}
        for body in ({"action": "undo", "pin": PIN}, {"action": "undo"}, {}):
            status, _, answer = table.post(body)
            assert status == 403 and answer["accepted"] is False
            assert "[web] pin" in answer["message"]
        assert table.app.items.empty() and table.controller.events == before


def test_a_wrong_pin_is_refused_and_five_a_minute_lock_the_address_out(tmp_path: Path) -> None:
    with table_with_pin(tmp_path) as table:
        assert get_json(table.server, "/api/corrections") == {"enabled": True}
        for wrong, left in (("1357", 4), ("", 3), (2468, 2), (None, 1), ("24680", 0)):
            status, _, answer = table.post({"action": "undo", "pin": wrong})
            assert status == 401 and answer["message"].startswith("wrong PIN")
            assert f"({left} more tr" in answer["message"]
            table.clock.advance(10.0)
        status, headers, answer = table.post({"action": "undo", "pin": PIN})  # even the right one
        assert status == 429 and headers["Retry-After"] == "290"
        assert "too many wrong PINs: try again in 290 s" in answer["message"]
        assert table.app.items.empty()
        table.clock.advance(289.0)  # a minute has long passed, the lockout has not
        assert table.post({"action": "undo", "pin": PIN})[0] == 429
        table.clock.advance(1.0)  # the lockout is over: the right PIN is taken
        status, _, answer = table.post_to_table({"action": "undo", "pin": PIN})
        assert status == 200 and answer["accepted"] is True


def test_parallel_wrong_pins_are_counted_before_any_is_compared(tmp_path: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    with table_with_pin(tmp_path) as table:
        guesses = [f"{n:04d}" for n in range(200) if f"{n:04d}" != PIN]
        with ThreadPoolExecutor(max_workers=50) as pool:
            statuses = list(pool.map(
                lambda pin: table.post({"action": "undo", "pin": pin})[0], guesses))
        assert statuses.count(401) == 5  # the limit: every other guess was never compared
        assert statuses.count(429) == len(guesses) - 5
        assert table.post({"action": "undo", "pin": PIN})[0] == 429
        assert table.app.items.empty()


def test_wrong_pins_from_many_addresses_lock_the_whole_room_out() -> None:
    clock = ManualClock(0.0)
    gate = PinGate(PIN, clock, tries=5, room_tries=20, lockout_s=300.0)
    verdicts = [gate.attempt(f"10.0.0.{n}", "0000") for n in range(100)]
    assert sum(not v.locked for v in verdicts) == 20  # compared; the other 80 were not
    assert gate.attempt("10.0.1.1", PIN).locked  # not even a new address with the right PIN
    clock.advance(300.0)
    assert gate.attempt("10.0.1.1", PIN).right


def test_the_right_pin_corrects_a_card_journaled_then_streamed(tmp_path: Path) -> None:
    with table_with_pin(tmp_path) as table:
        controller = table.controller
        status, _, answer = table.post_to_table(
            {"action": "correct", "pin": PIN, "hand": 1, "trick": 1, "seat": "N", "card": "TS"})
        assert status == 200 and answer["accepted"] is True
        assert answer["message"] == f"N's card of trick 1 (hand 1) corrected to {Card.parse('TS')}"
        seq = len(controller.state.log)
        assert answer["seq"] == seq and answer["game"] == controller.game_id
        with Journal(controller.journal.path) as journal:  # committed before the answer
            assert journal.events(controller.game_id)[-1] == CardCorrected(
                1, 1, Seat.N, Card.parse("TS"))
        shown = table.stream.until(seq)
        assert shown["seq"] == seq and shown["trick"]["cards"][-1] == ["N", "TS"]

        status, _, answer = table.post_to_table(
            {"action": "name", "pin": PIN, "seat": "E", "card": "AH"})  # E leads trick 2
        assert status == 200 and answer["message"] == f"E plays {Card.parse('AH')}"
        assert controller.events[-1] == CardPlayed(Seat.E, Card.parse("AH"))
        assert table.stream.until(seq + 1)["trick"]["cards"] == [["E", "AH"]]

        status, _, answer = table.post_to_table({"action": "undo", "pin": PIN})
        assert status == 200 and answer["message"] == "undone"
        assert isinstance(controller.events[-1], Undone)
        after = table.stream.next()  # E's card taken back: trick 1 as corrected
        assert after["trick"]["cards"][-1] == ["N", "TS"]
        # seq counts the journal's events, the undo too, as the MQTT events do
        assert after["seq"] == answer["seq"] == len(controller.events) == seq + 2


def test_the_referee_refuses_from_the_page_as_at_the_table(tmp_path: Path) -> None:
    with table_with_pin(tmp_path) as table:
        controller = table.controller
        events = list(controller.events)
        expected = replay(events)
        with pytest.raises(InvalidEvent) as refused:
            expected.apply(CardCorrected(1, 1, Seat.S, Card.parse("AS")))  # E's card: twice
        status, _, answer = table.post_to_table(
            {"action": "correct", "pin": PIN, "hand": 1, "trick": 1, "seat": "S", "card": "AS"})
        assert status == 409 and answer["accepted"] is False
        assert answer["message"] == refused.value.reason
        assert answer["notices"] == [{"kind": "refused", "message": refused.value.reason}]
        status, _, answer = table.post_to_table(
            {"action": "correct", "pin": PIN, "hand": 1, "trick": 2, "seat": "S", "card": "AS"})
        assert status == 409 and answer["message"] == "S has no card in trick 2 of hand 1"
        status, _, answer = table.post_to_table(
            {"action": "name", "pin": PIN, "seat": "E", "card": "KS"})  # S played KS in trick 1
        assert status == 409 and answer["notices"][0]["kind"] == "already_played"
        assert "already played this hand (trick 1 by S" in answer["message"]
        assert controller.events == events
        assert not any(isinstance(p, CorrectionPrompt) for p in controller.prompts)


@pytest.mark.parametrize(("body", "named"), [
    ({"action": "fly"}, "action 'fly': expected one of name, correct, undo"),
    ({"action": "name", "seat": "X", "card": "JH"}, "seat"),
    ({"action": "name", "seat": "E", "card": "ZZ"}, "card"),
    ({"action": "name", "seat": "E"}, "card None"),
    ({"action": "correct", "seat": "E", "card": "JH", "hand": 1, "trick": "2"}, "trick '2'"),
    ({"action": "correct", "seat": "E", "card": "JH", "hand": 0, "trick": 1}, "hand 0"),
])
def test_a_bad_request_is_named_and_never_reaches_the_table(
    tmp_path: Path, body: dict[str, Any], named: str
) -> None:
    with table_with_pin(tmp_path) as table:
        status, _, answer = table.post({**body, "pin": PIN})
        assert status == 400 and named in answer["message"]
        assert table.app.items.empty()


def test_a_body_that_is_not_a_json_object_is_refused(tmp_path: Path) -> None:
    import urllib.error
    import urllib.request

    with table_with_pin(tmp_path) as table:
        for data, kind in ((b"[1, 2]", "application/json"), (b"{not json", "application/json"),
                           (b"\xff\xfe", "application/json"), (b"x" * 5000, "application/json"),
                           (b'{"action": "undo", "pin": "2468"}', "text/plain")):
            request = urllib.request.Request(table.url + "api/correct", data=data, method="POST",
                                             headers={"Content-Type": kind})
            with pytest.raises(urllib.error.HTTPError) as caught:
                urllib.request.urlopen(request, timeout=WAIT_S)
            assert caught.value.code in (400, 413, 415)
        assert table.app.items.empty()


def test_page_inputs_through_the_referee(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        controller = TableController(journal, Rules(), Seat.N)
        bid_hand(controller, "E", 3, "H")
        play(controller, *TRICK_1)
        notices = controller.on_input(SeatCardNamed(Seat.S, Card.parse("9H")))  # before E
        assert notices[0].kind is NoticeKind.HELD and controller.held == {Seat.S: Card.parse("9H")}
        assert controller.on_input(SeatCardNamed(Seat.E, JOKER))[0].message == (
            "the joker is not in this deck")
        notices = controller.on_input(SeatCardNamed(Seat.E, Card.parse("AH")))
        assert [n.message for n in notices] == [f"E plays {Card.parse('AH')}",
                                                f"S plays {Card.parse('9H')}"]
        assert controller.on_input(PlayCorrected(1, 2, Seat.E, Card.parse("KH")))[0].kind is (
            NoticeKind.ACCEPTED)
        refused = controller.on_input(PlayCorrected(3, 1, Seat.E, Card.parse("KH")))
        assert refused[0].message == "hand 3 cannot be corrected here (hands: 1)"
        assert controller.on_input(inputs.UndoPressed(None))[0].message == "undone"


def test_cardtable_run_hands_page_corrections_to_its_loop(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        controller = TableController(journal, Rules(), Seat.N)
        config = AppConfig(state_dir=tmp_path, web=WebConfig(host="127.0.0.1", port=0, pin=PIN))
        app = TableApp(config, controller)
        with table_services(app) as server:
            assert server is not None and get_json(server, "/api/corrections")["enabled"]
            answers: list[Any] = []
            sender = threading.Thread(target=lambda: answers.append(
                post_json(server.url, {"action": "undo", "pin": PIN})))
            sender.start()
            app.handle(app.items.get(timeout=WAIT_S))  # the main loop's turn
            sender.join(WAIT_S)
            ((status, _, answer),) = answers
            assert status == 409 and answer["message"] == controller.on_input(
                inputs.UndoPressed(None))[0].message  # nothing to undo, said as at the table
            app.stop.set()
            status, _, answer = post_json(server.url, {"action": "undo", "pin": PIN})
            assert status == 503 and "no table running" in answer["message"]
        assert controller.events == journal.events(controller.game_id)


def test_a_correction_the_journal_cannot_take_is_not_acknowledged(tmp_path: Path) -> None:
    with table_with_pin(tmp_path) as table:
        controller = table.controller
        before = list(controller.events)
        controller.journal._db.execute("PRAGMA query_only = ON")  # the journal cannot write
        body = {"action": "correct", "pin": PIN, "hand": 1, "trick": 1, "seat": "N", "card": "TS"}
        status, _, answer = table.post_to_table(body)
        assert status == 503 and answer["accepted"] is False and answer["paused"] is True
        assert "journal cannot write" in answer["message"]
        assert controller.events == before and controller.state.hand.tricks[0].card_of(
            Seat.N) == Card.parse("9S")
        status, _, answer = table.post_to_table(body)  # still paused: refused, not applied
        assert status == 503 and answer["paused"] is True
        controller.journal._db.execute("PRAGMA query_only = OFF")
        table.clock.advance(10.0)
        table.app.tick()  # the table tries the journal again and resumes
        status, _, answer = table.post_to_table(body)
        assert status == 200 and answer["accepted"] is True
        with Journal(controller.journal.path) as journal:
            assert journal.events(controller.game_id)[-1] == CardCorrected(
                1, 1, Seat.N, Card.parse("TS"))
