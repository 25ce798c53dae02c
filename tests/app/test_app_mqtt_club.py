"""`cardtable club`: the room's page from the broker alone, every table live, the standings."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from app.config import MqttConfig
from app.mqtt import MqttPublisher
from app.web.club import Club, ClubListener, club_routes, standings
from app.web.server import WebContext, WebServer
from tests.app.mqttrig import Broker
from tests.app.test_app_mqtt import Game
from tests.app.webrig import EventStream, get, get_json

NAMES = {"N": "Ann", "E": "Bob", "S": "Cy", "W": "Di"}


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    """Mosquitto where it is installed, else amqtt, on a free loopback port."""
    running = Broker(tmp_path).start()
    yield running
    running.stop()


def seq_of(room: dict[str, Any], table: str) -> int:
    """How many events of its game the club shows for a table."""
    state = room["tables"].get(table, {}).get("state") or {}
    return int(state.get("seq", 0))


def until(stream: EventStream, shown: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The first club snapshot on the stream for which `shown` holds."""
    while not shown(room := stream.next()):
        pass
    return room


def showing(table: str, seq: int) -> Callable[[dict[str, Any]], bool]:
    """True for a club snapshot showing exactly `seq` events of the table's game."""
    return lambda room: seq_of(room, table) == seq


def test_the_club_page_shows_every_table_and_the_standings(tmp_path: Path, broker: Broker) -> None:
    tables = {"t1": Game(tmp_path / "t1", seed=61), "t2": Game(tmp_path / "t2", seed=62)}
    publishers = {
        name: MqttPublisher(MqttConfig("127.0.0.1", broker.port, table=name),
                            game.journal.path, seat_names=NAMES if name == "t1" else {},
                            reconnect_s=(1, 2))
        for name, game in tables.items()
    }
    for name, game in tables.items():
        game.app.listeners.append(publishers[name].notify)
        publishers[name].start()
    context = WebContext(None)
    listener = ClubListener("127.0.0.1", broker.port, context.hub).start()
    try:
        with WebServer(context, "127.0.0.1", 0, club_routes) as server:
            stream = EventStream(server)
            tables["t1"].play(len(tables["t1"].lines))
            tables["t2"].play(30)
            room = until(stream, lambda room: all(
                seq_of(room, name) >= game.seq for name, game in tables.items())
                and bool(room["finished"]))
            assert room["tables"]["t1"]["status"] == "online"
            t1 = tables["t1"].controller.state
            assert room["tables"]["t1"]["state"]["score"] == {
                t.value: v for t, v in t1.scores.items()}
            assert t1.winner is not None
            (game,) = room["finished"]
            assert (game["table"], game["winner"]) == ("t1", t1.winner.value)
            assert game["players"] == NAMES
            pairs = {row["pair"]: row for row in room["standings"]}
            assert set(pairs) == {"Ann & Cy", "Bob & Di"}
            winners = "Ann & Cy" if t1.winner.value == "NS" else "Bob & Di"
            assert room["standings"][0]["pair"] == winners and pairs[winners]["won"] == 1
            before = tables["t2"].seq
            tables["t2"].play(1)
            room = until(stream, lambda room: seq_of(room, "t2") > before)
            assert room["tables"]["t2"]["state"]["seq"] == tables["t2"].seq
            assert get_json(server, "/api/club")["tables"].keys() == {"t1", "t2"}
            status, _, page = get(server, "/")
            assert status == 200 and b"/static/club.js" in page
            assert get(server, "/api/games")[0] == 404
            stream.close()
    finally:
        listener.close()
        for publisher in publishers.values():
            publisher.close()


def test_standings_rank_wins_then_point_difference() -> None:
    club = Club()
    games = [("t1", 1, "NS", 33, 20, NAMES), ("t1", 2, "EW", 10, 32, NAMES),
             ("t2", 1, "NS", 40, 5, {})]
    for table, number, winner, ns, ew, players in games:
        payload = {"id": number, "winner": winner, "score": {"NS": ns, "EW": ew}, "hands": 5,
                   "players": players}
        assert club.take(f"cardtable/{table}/games/{number}", json.dumps(payload).encode())
    assert not club.take("cardtable/t1/other/thing", b"{}")
    assert not club.take("elsewhere/t1/state", b"{}")
    rows = standings(club.snapshot()["finished"])
    assert [r["pair"] for r in rows] == ["t2 NS", "Bob & Di", "Ann & Cy", "t2 EW"]
    assert rows[1] == {"pair": "Bob & Di", "played": 2, "won": 1, "points_for": 52,
                       "points_against": 43}


def test_club_refuses_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["club", "--broker", "127.0.0.1", "--port", "70000"]) == 2
    assert "--port 70000" in capsys.readouterr().err


def malformed(number: int) -> tuple[str, bytes]:
    """The `number`th of many bad messages: wrong types, huge, deep, unicode, markup."""
    kind = ("state", "games/1", "status", "games/2")[number % 4]
    payloads: list[bytes] = [
        json.dumps({"score": {"NS": "abc", "EW": number}}).encode(),
        b"[" * 5000 + b"]" * 5000,
        json.dumps({"id": f"<img src=x onerror=alert({number})>", "score": {"NS": 1, "EW": 2},
                    "hands": 3, "winner": "NS"}).encode(),
        ("\u202e\U0001f0cf" * 500).encode("utf-8"),
        b"x" * 200_000,
        str(number).encode(),
        json.dumps({"seq": [number], "game": {"$": 1}}).encode(),
        b"\xff\xfe\x00<script>alert(1)</script>",
    ]
    return f"cardtable/t{number % 3}/{kind}", payloads[number % len(payloads)]


def test_a_thousand_malformed_messages_leave_the_club_updating(broker: Broker) -> None:
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from tests.app.test_app_web_club_schema import a_state

    context = WebContext(None)
    listener = ClubListener("127.0.0.1", broker.port, context.hub).start()
    sender = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="malformed")
    sender.connect("127.0.0.1", broker.port)
    sender.loop_start()
    try:
        assert listener.subscribed.wait(10.0)
        with WebServer(context, "127.0.0.1", 0, club_routes) as server:
            stream = EventStream(server)
            for number in range(1000):
                sender.publish(*malformed(number), qos=1).wait_for_publish(10.0)
            good = a_state(events=25)
            sender.publish("cardtable/t1/state", json.dumps(good), qos=1).wait_for_publish(10.0)
            room = until(stream, lambda room: seq_of(room, "t1") == good["seq"])
            assert room["tables"]["t1"]["state"] == good
            assert listener.club.rejected == 1000
            assert listener.client._thread is not None and listener.client._thread.is_alive()
            assert get_json(server, "/api/club")["finished"] == []
            stream.close()
    finally:
        sender.loop_stop()
        sender.disconnect()
        listener.close()


def test_a_retained_bad_message_does_not_stop_a_club_starting_afresh(broker: Broker) -> None:
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from tests.app.test_app_web_club_schema import GOOD_GAME

    sender = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="retained")
    sender.connect("127.0.0.1", broker.port)
    sender.loop_start()
    try:
        bad_game = json.dumps({**GOOD_GAME, "score": {"NS": "abc", "EW": 1}})
        for topic, payload in (("cardtable/t1/games/1", bad_game), ("cardtable/t1/state", "42")):
            sender.publish(topic, payload, qos=1, retain=True).wait_for_publish(10.0)
        for _ in range(2):  # a club, then a restarted one: both take the retained bad messages
            context = WebContext(None)
            listener = ClubListener("127.0.0.1", broker.port, context.hub).start()
            try:
                assert listener.subscribed.wait(10.0)
                sender.publish("cardtable/t2/games/4", json.dumps({**GOOD_GAME, "id": 4}),
                               qos=1).wait_for_publish(10.0)
                while not context.hub.latest()[1] or not json.loads(
                        context.hub.latest()[1])["finished"]:
                    assert context.hub.wait_newer(context.hub.latest()[0], 10.0) is not None
                room = json.loads(context.hub.latest()[1])
                assert [(g["table"], g["id"]) for g in room["finished"]] == [("t2", 4)]
                assert "t1" not in room["tables"] and listener.club.rejected >= 2
            finally:
                listener.close()
    finally:
        sender.loop_stop()
        sender.disconnect()


def test_the_club_password_never_comes_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.cli import build_parser
    from app.web_cli import PASSWORD_ENV, club_password

    assert main(["club", "--broker", "127.0.0.1", "--user", "u", "--password", "hunter2"]) == 2
    error = capsys.readouterr().err
    assert "--password-file" in error and PASSWORD_ENV in error and "hunter2" not in error
    secret = tmp_path / "password"
    secret.write_text("s3cret\n")
    parser = build_parser()
    assert club_password(parser.parse_args(
        ["club", "--broker", "b", "--password-file", str(secret)])) == "s3cret"
    monkeypatch.setenv(PASSWORD_ENV, "from-env")
    assert club_password(parser.parse_args(["club", "--broker", "b"])) == "from-env"
    assert main(["club", "--broker", "b", "--password-file", str(tmp_path / "none")]) == 2
    assert "--password-file" in capsys.readouterr().err


def test_games_are_grouped_into_club_nights_each_with_its_ranking() -> None:
    import csv
    import io
    from datetime import UTC

    from app.web.standings import club_csv, club_nights

    def game(table: str, number: int, finished: str, winner: str,
             players: dict[str, str]) -> dict[str, Any]:
        return {"table": table, "id": number, "started_at": None, "finished_at": finished,
                "winner": winner, "score": {"NS": 32, "EW": 20} if winner == "NS" else
                {"NS": 18, "EW": 31}, "hands": 8, "players": players}

    others = {"N": "=SUM(A1)", "E": "Eve", "S": "Sal", "W": "Wu"}
    finished = [game("t1", 1, "2026-12-01T21:00:00+00:00", "NS", NAMES),
                game("t2", 1, "2026-12-02T01:30:00+00:00", "EW", others),  # after midnight
                game("t1", 2, "2026-12-08T20:00:00+00:00", "EW", NAMES)]
    nights = club_nights(finished, UTC)
    assert [(n["night"], n["games"], n["tables"]) for n in nights] == [
        ("2026-12-08", 1, ["t1"]), ("2026-12-01", 2, ["t1", "t2"])]
    assert [r["pair"] for r in nights[0]["standings"]] == ["Bob & Di", "Ann & Cy"]
    first = {r["pair"]: r["won"] for r in nights[1]["standings"]}
    assert first == {"Ann & Cy": 1, "Bob & Di": 0, "=SUM(A1) & Sal": 0, "Eve & Wu": 1}
    lines = list(csv.DictReader(io.StringIO(club_csv(finished))))
    assert [(line["table"], line["game"]) for line in lines] == [("t1", "1"), ("t2", "1"),
                                                                ("t1", "2")]
    assert lines[1]["ns_pair"] == "'=SUM(A1) & Sal" and lines[1]["winner"] == "EW"


def test_the_club_serves_its_results_as_csv() -> None:
    import csv
    import io

    club = Club()
    payload = {"id": 3, "winner": "NS", "score": {"NS": 33, "EW": 20}, "hands": 5,
               "finished_at": "2026-12-01T21:00:00+00:00", "players": NAMES}
    assert club.take("cardtable/t1/games/3", json.dumps(payload).encode())
    context = WebContext(None)
    context.hub.publish(club.snapshot())
    with WebServer(context, "127.0.0.1", 0, club_routes) as server:
        status, headers, body = get(server, "/api/club.csv")
        room = get_json(server, "/api/club")
    assert status == 200 and headers["Content-Type"].startswith("text/csv")
    (line,) = csv.DictReader(io.StringIO(body.decode()))
    assert (line["table"], line["game"], line["ns_pair"], line["ns_score"]) == (
        "t1", "3", "Ann & Cy", "33")
    assert [n["games"] for n in room["nights"]] == [1]


PAGE = "http://t1.club.example:8080/"


def test_a_table_s_page_address_reaches_the_club_and_a_bad_one_never_does(
    tmp_path: Path, broker: Broker
) -> None:
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from app.config import AppConfig, WebConfig
    from app.run import TableApp
    from app.web.service import table_services
    from tests.app.test_app_web_club_schema import UNSAFE_URLS, a_state

    game = Game(tmp_path / "t1", seed=63)
    config = AppConfig(state_dir=tmp_path / "t1",
                       web=WebConfig(host="127.0.0.1", port=0, public_url=PAGE),
                       mqtt=MqttConfig("127.0.0.1", broker.port, table="t1"))
    game.app = TableApp(config, game.controller)  # as `cardtable run` serves and publishes
    context = WebContext(None)
    listener = ClubListener("127.0.0.1", broker.port, context.hub).start()
    sender = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="hostile-table")
    sender.connect("127.0.0.1", broker.port)
    sender.loop_start()
    try:
        with table_services(game.app), WebServer(context, "127.0.0.1", 0, club_routes) as club:
            stream = EventStream(club)
            game.play(12)
            room = until(stream, lambda room: seq_of(room, "t1") >= game.seq)
            assert room["tables"]["t1"]["state"]["url"] == PAGE
            for number, url in enumerate(UNSAFE_URLS, start=1):  # each taken, its url dropped
                hostile = {**a_state(events=number + 5), "url": url}
                sender.publish("cardtable/t2/state", json.dumps(hostile), qos=1
                               ).wait_for_publish(10.0)
                room = until(stream, showing("t2", hostile["seq"]))
                assert "url" not in room["tables"]["t2"]["state"], url
            assert "url" not in get_json(club, "/api/club")["tables"]["t2"]["state"]
            assert get_json(club, "/api/club")["tables"]["t1"]["state"]["url"] == PAGE
            stream.close()
    finally:
        sender.loop_stop()
        sender.disconnect()
        listener.close()
