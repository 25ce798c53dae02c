"""`cardtable club`: one page for the room, from the broker alone: every table, every game."""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from app.web.hub import LiveHub
from app.web.server import WebHandler

SUBSCRIPTIONS = ("cardtable/+/state", "cardtable/+/status", "cardtable/+/games/+")


def pair_name(table: str, team: str, players: Mapping[str, str]) -> str:
    """A team as the standings name it: its players' names, else the table and the seats."""
    seats = ("N", "S") if team == "NS" else ("E", "W")
    names = [players.get(seat, seat) for seat in seats]
    if names == list(seats):
        return f"{table} {team}"
    return " & ".join(names)


@dataclass
class Club:
    """What the broker told about every table: its state, whether it is online, its games."""

    tables: dict[str, dict[str, Any]] = field(default_factory=dict)
    games: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self, topic: str, payload: bytes | bytearray) -> bool:
        """Take one broker message; False when it is not one of the tables' topics."""
        parts = topic.split("/")
        if len(parts) < 3 or parts[0] != "cardtable":
            return False
        table, kind = parts[1], parts[2]
        text = bytes(payload).decode("utf-8", "replace")
        with self._lock:
            entry = self.tables.setdefault(table, {"state": None, "status": "unknown"})
            if kind == "status" and len(parts) == 3:
                entry["status"] = text
            elif kind == "state" and len(parts) == 3:
                entry["state"] = _json(text)
            elif kind == "games" and len(parts) == 4 and parts[3].isdigit():
                game = _json(text)
                if isinstance(game, dict):
                    self.games[(table, int(parts[3]))] = game
            else:
                return False
        return True

    def snapshot(self) -> dict[str, Any]:
        """The room: each table's live view, the finished games and the standings."""
        with self._lock:
            tables = {name: dict(entry) for name, entry in sorted(self.tables.items())}
            games = [dict(game, table=table) for (table, _), game in sorted(self.games.items())]
        finished = [game for game in games if game.get("winner")]
        return {"tables": tables, "finished": finished, "standings": standings(finished)}


def standings(finished: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each pair over the finished games: played, won, points for and against; best first."""
    rows: dict[str, dict[str, Any]] = {}
    for game in finished:
        players = game.get("players") or {}
        score = game.get("score") or {}
        for team, other in (("NS", "EW"), ("EW", "NS")):
            name = pair_name(str(game["table"]), team, players)
            row = rows.setdefault(name, {"pair": name, "played": 0, "won": 0,
                                         "points_for": 0, "points_against": 0})
            row["played"] += 1
            row["won"] += int(game.get("winner") == team)
            row["points_for"] += int(score.get(team, 0))
            row["points_against"] += int(score.get(other, 0))
    return sorted(rows.values(), key=lambda r: (-r["won"], r["points_against"] - r["points_for"],
                                                r["pair"]))


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


class ClubListener:
    """Subscribes to every table on the broker; each message renews the club's snapshot."""

    def __init__(self, host: str, port: int, hub: LiveHub, *, tls: bool = False,
                 user: str | None = None, password: str | None = None) -> None:
        self.club = Club()
        self.hub = hub
        self.subscribed = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
        if user is not None:
            self.client.username_pw_set(user, password)
        if tls:
            self.client.tls_set()
        self.client.reconnect_delay_set(1, 10)
        self.client.on_connect = self._on_connect
        self.client.on_subscribe = lambda *_: self.subscribed.set()
        self.client.on_message = self._on_message
        self.host, self.port = host, port
        hub.publish(self.club.snapshot())

    def start(self) -> ClubListener:
        """Connect in the background, retrying while the broker is away."""
        self.client.connect_async(self.host, self.port, keepalive=30)
        self.client.loop_start()
        return self

    def close(self) -> None:
        """Disconnect."""
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(self, client: mqtt.Client, *_: object) -> None:
        client.subscribe([(name, 1) for name in SUBSCRIPTIONS])

    def _on_message(self, client: mqtt.Client, userdata: object,
                    message: mqtt.MQTTMessage) -> None:
        if self.club.take(message.topic, message.payload):
            self.hub.publish(self.club.snapshot())


class ClubHandler(WebHandler):
    """The club's routes: its page, the room as JSON and as a live stream."""

    def do_GET(self) -> None:
        """Route a request."""
        path = self.path.split("?", 1)[0]
        context = self.server.context
        if path == "/":
            self._static("club.html")
        elif path in ("/static/club.js", "/static/style.css"):
            self._static(path[len("/static/"):])
        elif path == "/api/club":
            self._send(HTTPStatus.OK, "application/json", context.hub.latest()[1] or "null")
        elif path == "/api/events":
            self._stream(context)
        else:
            self._send(HTTPStatus.NOT_FOUND, "text/plain", f"no page {path}\n")
