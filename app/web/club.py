"""`cardtable club`: one page for the room, from the broker alone: every table, every game."""

from __future__ import annotations

import json
import logging
import re
import threading
from dataclasses import dataclass, field
from typing import Any

import paho.mqtt.client as mqtt
from aiohttp import web
from paho.mqtt.enums import CallbackAPIVersion

from app.web.club_schema import TABLE_NAME, BadMessage, GameResult, TableState, checked, status
from app.web.hub import LiveHub
from app.web.replies import WebContext, event_stream, json_text, static_routes, text
from app.web.standings import club_csv, club_nights, pair_name, standings

__all__ = ["Club", "ClubListener", "club_routes", "pair_name", "standings"]

log = logging.getLogger("cardtable.club")
GAME_NUMBER = re.compile(r"[0-9]{1,9}")

SUBSCRIPTIONS = ("cardtable/+/state", "cardtable/+/status", "cardtable/+/games/+")


@dataclass
class Club:
    """What the broker told about every table: its state, whether it is online, its games."""

    tables: dict[str, dict[str, Any]] = field(default_factory=dict)
    games: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    rejected: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self, topic: str, payload: bytes | bytearray) -> bool:
        """Take one broker message; False when it is not one of the tables' topics or does not
        match its schema (then it is logged and dropped, and what was known stays)."""
        parts = topic.split("/")
        if len(parts) < 3 or parts[0] != "cardtable":
            return False
        table, kind = parts[1], parts[2]
        try:
            if not TABLE_NAME.fullmatch(table):
                raise BadMessage("the table's name is not lower-case letters, digits, - or _")
            if kind == "status" and len(parts) == 3:
                update: tuple[str, Any] = ("status", status(bytes(payload)))
            elif kind == "state" and len(parts) == 3:
                update = ("state", checked(TableState, bytes(payload)))
            elif kind == "games" and len(parts) == 4 and GAME_NUMBER.fullmatch(parts[3]):
                update = ("game", checked(GameResult, bytes(payload)))
            else:
                return False
        except BadMessage as error:
            with self._lock:
                self.rejected += 1
            log.warning("club: dropped a message on %.80s: %s", topic, error)
            return False
        with self._lock:
            entry = self.tables.setdefault(table, {"state": None, "status": "unknown"})
            if update[0] == "game":
                self.games[(table, int(parts[3]))] = update[1]
            else:
                entry[update[0]] = update[1]
        return True

    def snapshot(self) -> dict[str, Any]:
        """The room: each table's live view, the finished games and the standings."""
        with self._lock:
            tables = {name: dict(entry) for name, entry in sorted(self.tables.items())}
            games = [dict(game, table=table) for (table, _), game in sorted(self.games.items())]
        finished = [game for game in games if game.get("winner")]
        return {"tables": tables, "finished": finished, "standings": standings(finished),
                "nights": club_nights(finished)}


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
        try:
            if self.club.take(message.topic, message.payload):
                self.hub.publish(self.club.snapshot())
        except Exception:  # one message must never end the club's MQTT thread
            log.exception("club: a message on %.80s could not be taken", message.topic)


def club_routes(context: WebContext) -> list[web.RouteDef]:
    """The club's routes: its page, the room as JSON and as a live stream."""

    async def room(request: web.Request) -> web.Response:
        return json_text(context.hub.latest()[1] or "null")

    async def events(request: web.Request) -> web.StreamResponse:
        return await event_stream(request, context)

    async def results(request: web.Request) -> web.Response:
        room = json.loads(context.hub.latest()[1] or "{}")
        return web.Response(text=club_csv(room.get("finished", [])), content_type="text/csv",
                            charset="utf-8", headers={
                                "Content-Disposition": 'attachment; filename="club.csv"',
                                "Cache-Control": "no-store"})

    async def elsewhere(request: web.Request) -> web.Response:
        if request.method in ("GET", "HEAD"):
            return text(404, "no such page\n")
        return text(405, "read-only\n", {"Allow": "GET, HEAD"})

    return [
        *static_routes(("club.js", "style.css"), "club.html"),
        web.get("/api/club", room),
        web.get("/api/events", events),
        web.get("/api/club.csv", results),
        web.route("*", "/{tail:.*}", elsewhere),
    ]
