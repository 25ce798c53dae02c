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
