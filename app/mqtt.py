"""The table on an MQTT broker: every journaled event, the live state, and Home Assistant.

Topics, under `cardtable/<table>/` (README, MQTT): `events` (each event once, in order,
QoS 1), `state` (the live view, retained; with `url`, the
table's page, when `[web] public_url` is set), `games/<id>` (each game's score and winner,
retained), `status` (`online`, or `offline` as the broker's last will, retained).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from app.config import MqttConfig
from app.mqtt_outbox import GameRow, Outbox, Pending
from app.web.live import live_snapshot
from table import replay
from table.events import event_from_json

QOS = 1
ACK_WAIT_S = 0.5
POLL_S = 0.5
DRAIN_S = 5.0
RECONNECT_S = (0.5, 10)
DISCOVERY_PREFIX = "homeassistant"


def topic(table: str, *parts: str) -> str:
    """`cardtable/<table>/<parts...>`."""
    return "/".join(("cardtable", table, *parts))


def discovery_configs(table: str) -> dict[str, dict[str, Any]]:
    """Home Assistant MQTT discovery: one sensor per score and for the game's state."""
    device = {"identifiers": [f"cardtable_{table}"], "name": f"Card table {table}",
              "manufacturer": "cardtable", "model": "Bid Euchre table"}
    sensors = {
        "score_ns": ("NS score", "{{ value_json.score.NS }}"),
        "score_ew": ("EW score", "{{ value_json.score.EW }}"),
        "phase": ("Game state", "{{ value_json.phase }}"),
        "winner": ("Winner", "{{ value_json.winner or 'none' }}"),
        "turn": ("Turn", "{{ value_json.turn or 'none' }}"),
        "hand": ("Hand", "{{ value_json.hand }}"),
    }
    configs = {}
    for key, (name, template) in sensors.items():
        config: dict[str, Any] = {
            "name": name,
            "unique_id": f"cardtable_{table}_{key}",
            "state_topic": topic(table, "state"),
            "value_template": template,
            "availability_topic": topic(table, "status"),
            "device": device,
        }
        if key.startswith("score"):
            config["state_class"] = "measurement"
            config["unit_of_measurement"] = "points"
        configs[f"{DISCOVERY_PREFIX}/sensor/cardtable_{table}/{key}/config"] = config
    return configs


def event_payload(pending: Pending) -> str:
    """An `events` message: the game, the event's sequence in it, when, and the event."""
    return json.dumps({"game": pending.game_id, "seq": pending.seq, "at": pending.at,
                       "event": pending.event})


def game_payload(row: GameRow, hands: int, players: dict[str, str]) -> str:
    """A `games/<id>` message: the game's times, score, winner, hands and the players."""
    return json.dumps({"id": row.id, "started_at": row.started_at,
                       "finished_at": row.finished_at, "winner": row.winner,
                       "score": {"NS": row.score_ns, "EW": row.score_ew}, "hands": hands,
                       "players": players})


class MqttPublisher:
    """Sends the journal's unpublished events in order, then the state, from its own thread.

    `state` gives the live view's JSON when the running table has it (else the journal's
    latest game is replayed); `public_url`, the table's page, goes with it as `url`.
    `notify` (or a table listener) wakes it at once.
    """

    def __init__(self, settings: MqttConfig, journal_path: Path, *,
                 state: Callable[[], str] | None = None,
                 seat_names: dict[str, str] | None = None,
                 public_url: str | None = None,
                 reconnect_s: tuple[float, float] = RECONNECT_S) -> None:
        self.settings = settings
        self.table = settings.table
        self.journal_path = journal_path
        self._state = state
        self._seat_names = seat_names or {}
        self._public_url = public_url
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._connected = threading.Event()
        self._drained = threading.Event()
        self._announce = False
        self._last_state: str | None = None
        self._acked: set[int] = set()
        self._acks = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="mqtt", daemon=True)
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"cardtable-{self.table}",
                                  clean_session=False, protocol=mqtt.MQTTv311)
        if settings.user is not None:
            self.client.username_pw_set(settings.user, settings.password)
        if settings.tls:
            self.client.tls_set()
        self.client.will_set(topic(self.table, "status"), "offline", qos=QOS, retain=True)
        self.client.reconnect_delay_set(int(max(reconnect_s[0], 1)), int(reconnect_s[1]))
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish

    # ---- life ---------------------------------------------------------------------------

    def start(self) -> MqttPublisher:
        """Connect in the background (retrying while the broker is away) and start sending."""
        self.client.connect_async(self.settings.host, self.settings.port, keepalive=30)
        self.client.loop_start()
        self._thread.start()
        return self

    def close(self, drain_s: float = DRAIN_S) -> None:
        """Send what is left (for up to `drain_s` while connected), say offline, disconnect.

        Whatever could not be sent waits in the journal for the next start.
        """
        if self._connected.is_set() and self._thread.is_alive():
            self._drained.clear()
            self._wake.set()
            self._drained.wait(drain_s)
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join()
        if self._connected.is_set():
            info = self.client.publish(topic(self.table, "status"), "offline", QOS, retain=True)
            info.wait_for_publish(2.0)
        self.client.disconnect()
        self.client.loop_stop()

    def notify(self, *_: object) -> None:
        """Something was journaled: send it now (usable as a TableApp listener)."""
        self._wake.set()

    @property
    def connected(self) -> bool:
        """True while the broker connection is up."""
        return self._connected.is_set()

    def _on_connect(self, client: mqtt.Client, userdata: object, flags: object,
                    reason: Any, properties: object) -> None:
        if not getattr(reason, "is_failure", False):
            self._announce = True
            self._connected.set()
            self._wake.set()

    def _on_disconnect(self, client: mqtt.Client, userdata: object, flags: object,
                       reason: object, properties: object) -> None:
        self._connected.clear()

    def _on_publish(self, client: mqtt.Client, userdata: object, mid: int, reason: object,
                    properties: object) -> None:
        with self._acks:
            self._acked.add(mid)
            self._acks.notify_all()

    # ---- sending ------------------------------------------------------------------------

    def _run(self) -> None:
        outbox = Outbox(self.journal_path)
        try:
            while not self._stop.is_set():
                self._wake.wait(POLL_S)
                self._wake.clear()
                if self._connected.is_set() and self._send(outbox):
                    self._drained.set()
        finally:
            outbox.close()

    def _send(self, outbox: Outbox) -> bool:
        """Announce after a connect, send every pending event, then the state; True when all
        went (False when stopping midway)."""
        if self._announce:
            self._announce = False
            if not self._publish(topic(self.table, "status"), "online", retain=True):
                return False
            for name, config in discovery_configs(self.table).items():
                if not self._publish(name, json.dumps(config), retain=True):
                    return False
            self._last_state = None
            renew = outbox.games()  # the retained games, renewed once after a connect
        else:
            renew = []
        games: list[int] = []
        while not self._stop.is_set():
            batch = outbox.pending()
            if not batch:
                break
            for pending in batch:
                if not self._publish(topic(self.table, "events"), event_payload(pending)):
                    return False
                outbox.mark(pending.game_id, pending.seq)
                if pending.game_id not in games:
                    games.append(pending.game_id)
        for game_id in sorted(set(renew) | set(games)):  # each game's summary once
            if not self._publish_game(outbox, game_id):
                return False
        return self._publish_state(outbox)

    def _publish_game(self, outbox: Outbox, game_id: int) -> bool:
        row = outbox.game(game_id)
        if row is None:
            return True
        hands = len(replay([event_from_json(e) for e in outbox.events(game_id)]).hands)
        recorded = outbox.players(game_id)
        if not recorded and game_id == outbox.latest_game():  # the game at the table now
            recorded = self._seat_names
        players = {seat: recorded.get(seat, seat) for seat in "NESW"}
        payload = game_payload(row, hands, players)
        return self._publish(topic(self.table, "games", str(game_id)), payload, retain=True)

    def _publish_state(self, outbox: Outbox) -> bool:
        """The live state, never ahead of the events sent: a state showing events the broker
        has not had yet waits for the next round."""
        live = self._state() if self._state is not None else ""
        if live:
            shown = json.loads(live)
            game, seq = shown.get("game"), shown.get("seq")
            if isinstance(game, int) and isinstance(seq, int) and outbox.published(game) < seq:
                self._wake.set()
                return True
        else:
            game_id = outbox.latest_game()
            if game_id is None:
                return True
            published = outbox.events(game_id)[: outbox.published(game_id)]
            if not published:
                return True
            state = replay([event_from_json(e) for e in published])
            shown = live_snapshot(state, game_id, seq=len(published),
                                  seat_names=self._seat_names)
        if self._public_url is not None:
            shown["url"] = self._public_url
        text = json.dumps(shown, separators=(",", ":"))
        if text == self._last_state:
            return True
        if not self._publish(topic(self.table, "state"), text, retain=True):
            return False
        self._last_state = text
        return True

    def _publish(self, name: str, payload: str, retain: bool = False) -> bool:
        """Publish with QoS 1 and wait for the broker's acknowledgement; False when stopping.

        A message the connection dropped stays queued in the client, which sends it again
        when it reconnects: waiting here for its acknowledgement never sends it twice.
        """
        info = self.client.publish(name, payload, QOS, retain=retain)
        with self._acks:
            while info.mid not in self._acked:
                if self._stop.is_set():
                    return False
                self._acks.wait(ACK_WAIT_S)
            self._acked.discard(info.mid)
        return True
