"""MQTT against a real broker: every event once and in order, across broker restarts."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.config import AppConfig, MqttConfig, WebConfig
from app.controller import TableController
from app.journal import Journal
from app.mqtt import MqttPublisher
from app.mqtt_outbox import Outbox
from app.run import TableApp
from app.script import parse_script_line, script_from_events
from app.web.service import table_services
from table import Event, GameStarted
from table.events import event_to_json
from table.simulate import simulate_game
from tests.app.mqttrig import Broker, Gate, Subscriber

TABLE = "t1"


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    """Mosquitto where it is installed, else amqtt, on a free loopback port."""
    running = Broker(tmp_path).start()
    yield running
    running.stop()


class Game:
    """A simulated game played line by line into a table whose journal is in `folder`."""

    def __init__(self, folder: Path, seed: int) -> None:
        self.events: list[Event] = simulate_game(seed=seed).events
        start = self.events[0]
        assert isinstance(start, GameStarted)
        self.journal = Journal(folder / "journal.sqlite")
        self.controller = TableController(self.journal, start.rules, start.dealer)
        self.app = TableApp(AppConfig(state_dir=folder), self.controller)
        self.lines = script_from_events(self.events)
        self.played = 0

    def play(self, count: int) -> None:
        """Play the next `count` script lines."""
        for line in self.lines[self.played:self.played + count]:
            self.played += 1
            self.app.handle(parse_script_line(self.played, json.dumps(line)))

    @property
    def seq(self) -> int:
        """Events journaled so far."""
        return len(self.journal.events(self.controller.game_id))


def publisher_for(path: Path, port: int) -> MqttPublisher:
    """A publisher for table TABLE, reconnecting quickly."""
    return MqttPublisher(MqttConfig("127.0.0.1", port, table=TABLE), path, reconnect_s=(1, 2))


def messages_until_state(subscriber: Subscriber, seq: int) -> list[tuple[str, Any]]:
    """Every message until both the event numbered `seq` and a state showing it came."""
    seen = []
    event = state = False
    while not (event and state):
        name, payload = subscriber.next("")
        seen.append((name, payload))
        event = event or (name == f"cardtable/{TABLE}/events" and payload["seq"] == seq)
        state = state or (name == f"cardtable/{TABLE}/state" and payload["seq"] >= seq)
    return seen


def event_messages(seen: list[tuple[str, Any]]) -> list[dict[str, Any]]:
    """The payloads of the events topic, in arrival order."""
    return [payload for name, payload in seen if name == f"cardtable/{TABLE}/events"]


def journal_events(game: Game) -> list[dict[str, Any]]:
    """The journaled events of the game, as table log objects."""
    return [event_to_json(e) for e in game.journal.events(game.controller.game_id)]


def test_every_event_arrives_once_in_order_across_a_broker_restart(
    tmp_path: Path, broker: Broker
) -> None:
    game = Game(tmp_path, seed=51)
    gate = Gate(broker.port).open()
    subscriber = Subscriber(broker.port)
    publisher = publisher_for(game.journal.path, gate.port)
    game.app.listeners.append(publisher.notify)
    publisher.start()
    try:
        game.play(25)
        seen = messages_until_state(subscriber, game.seq)
        gate.cut()  # the network goes, then the broker stops mid-game
        broker.stop()
        # Only now: while it was stopping, the subscriber may have reconnected to it once.
        subscriber.subscribed.clear()
        game.play(30)  # journaled while nothing can be sent
        missed_from = game.seq
        broker.start()
        assert subscriber.subscribed.wait(60), "the subscriber did not come back"
        gate.open()  # the network is back: the table catches up by itself
        game.play(len(game.lines))
        seen += messages_until_state(subscriber, game.seq)
    finally:
        publisher.close()
        subscriber.close()
        gate.cut()
    events = event_messages(seen)
    assert [(e["game"], e["seq"]) for e in events] == [
        (game.controller.game_id, seq) for seq in range(1, game.seq + 1)]
    assert [e["event"] for e in events] == journal_events(game)
    assert missed_from < game.seq
    outbox = Outbox(game.journal.path)
    assert outbox.published(game.controller.game_id) == game.seq and outbox.pending() == []
    outbox.close()
    state = [payload for name, payload in seen if name.endswith("/state")][-1]
    assert state["score"] == {t.value: v for t, v in game.controller.state.scores.items()}
    games_topic = f"cardtable/{TABLE}/games/{game.controller.game_id}"
    finished = [payload for name, payload in seen if name == games_topic]
    winner = game.controller.state.winner
    assert winner is not None and finished[-1]["winner"] == winner.value
    assert finished[-1]["hands"] == len(game.controller.state.hands)


def test_a_restarted_table_sends_only_what_the_broker_has_not_had(
    tmp_path: Path, broker: Broker
) -> None:
    game = Game(tmp_path, seed=52)
    subscriber = Subscriber(broker.port)
    publisher = publisher_for(game.journal.path, broker.port)
    game.app.listeners.append(publisher.notify)
    publisher.start()
    game.play(20)
    seen = messages_until_state(subscriber, game.seq)
    publisher.close()
    game.app.listeners.clear()
    game.play(20)  # the table ran on with no publisher (a restart, the config changed...)
    again = publisher_for(game.journal.path, broker.port).start()
    try:
        seen += messages_until_state(subscriber, game.seq)
    finally:
        again.close()
        subscriber.close()
    events = event_messages(seen)
    assert [e["seq"] for e in events] == list(range(1, game.seq + 1))
    assert [e["event"] for e in events] == journal_events(game)
    statuses = [payload for name, payload in seen if name == f"cardtable/{TABLE}/status"]
    assert statuses[:3] == ["online", "offline", "online"]


def test_home_assistant_finds_the_scores_and_the_state_is_retained(
    tmp_path: Path, broker: Broker
) -> None:
    game = Game(tmp_path, seed=53)
    config = AppConfig(state_dir=tmp_path, web=WebConfig(enabled=False),
                       mqtt=MqttConfig("127.0.0.1", broker.port, table=TABLE))
    game.app = TableApp(config, game.controller)
    first = Subscriber(broker.port)  # before the play: events are not retained
    with table_services(game.app):
        game.play(30)
        messages_until_state(first, game.seq)
        first.close()
    prefix = f"homeassistant/sensor/cardtable_{TABLE}"
    expected = {f"{prefix}/{key}/config" for key in ("score_ns", "score_ew", "phase", "winner")}
    expected |= {f"cardtable/{TABLE}/{name}" for name in ("state", "status", "games/1")}
    late = Subscriber(broker.port)  # comes after everything: the retained topics remain
    retained: dict[str, tuple[str, bool]] = {}
    try:
        while not expected <= set(retained):
            name, payload, was_retained = late.messages.get(timeout=20)
            retained[name] = (payload, was_retained)
    finally:
        late.close()
    score_ns = json.loads(retained[f"{prefix}/score_ns/config"][0])
    assert score_ns["state_topic"] == f"cardtable/{TABLE}/state"
    assert score_ns["value_template"] == "{{ value_json.score.NS }}"
    assert score_ns["availability_topic"] == f"cardtable/{TABLE}/status"
    assert all(retained[name][1] for name in expected)
    state, was_retained = retained[f"cardtable/{TABLE}/state"]
    assert was_retained and json.loads(state)["seq"] == game.seq
    assert retained[f"cardtable/{TABLE}/status"] == ("offline", True)
    assert json.loads(retained[f"cardtable/{TABLE}/games/1"][0])["id"] == 1


def test_cardtable_web_publishes_the_journal_of_a_table_beside_it(
    tmp_path: Path, broker: Broker
) -> None:
    import signal
    import subprocess
    import sys

    from tests.app.mqttrig import free_port

    game = Game(tmp_path, seed=54)
    game.play(15)
    config = tmp_path / "table.toml"
    config.write_text(f'[mqtt]\nenabled = true\nhost = "127.0.0.1"\nport = {broker.port}\n'
                      f'table = "{TABLE}"\n[web]\npublic_url = "http://t1.club.example:8080/"\n')
    subscriber = Subscriber(broker.port)
    command = [sys.executable, "-m", "app", "web", "--config", str(config), "--state-dir",
               str(tmp_path), "--host", "127.0.0.1", "--port", str(free_port())]
    web = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           cwd=Path(__file__).parents[2])
    try:
        seen = messages_until_state(subscriber, game.seq)
        game.play(25)  # the table goes on in its own process; the web process follows it
        seen += messages_until_state(subscriber, game.seq)
    finally:
        web.send_signal(signal.SIGTERM)
        assert web.wait(30) == 0
        subscriber.close()
    events = event_messages(seen)
    assert [e["seq"] for e in events] == list(range(1, game.seq + 1))
    assert [e["event"] for e in events] == journal_events(game)
    states = [payload for name, payload in seen if name == f"cardtable/{TABLE}/state"]
    assert states and all(s["url"] == "http://t1.club.example:8080/" for s in states)


def test_the_state_and_the_events_agree_on_seq_after_undos(tmp_path: Path, broker: Broker) -> None:
    from drivers import inputs

    game = Game(tmp_path, seed=55)
    subscriber = Subscriber(broker.port)
    publisher = publisher_for(game.journal.path, broker.port)
    game.app.listeners.append(publisher.notify)
    publisher.start()
    try:
        game.play(12)
        for _ in range(2):
            game.app.handle(inputs.UndoPressed(None))
        seen = messages_until_state(subscriber, game.seq)
    finally:
        publisher.close()
        subscriber.close()
    assert game.seq == len(game.controller.state.log) + 4  # two undos, each with what it took
    events = event_messages(seen)
    states = [payload for name, payload in seen if name == f"cardtable/{TABLE}/state"]
    assert events[-1]["seq"] == states[-1]["seq"] == game.seq
    assert events[-1]["event"] == {"type": "undo"}


def test_a_first_publisher_starts_from_the_table_s_game_not_the_whole_journal(
    tmp_path: Path, broker: Broker
) -> None:
    from app.cli import main
    from table.log import dump_events

    old = Game(tmp_path, seed=56)
    old.play(len(old.lines))  # a whole game played before the table had a broker
    log = tmp_path / "imported.jsonl"
    log.write_text(dump_events(simulate_game(seed=57).events))
    old.journal.close()
    assert main(["import", str(log), "--state-dir", str(tmp_path)]) == 0
    with Journal(tmp_path / "journal.sqlite") as journal:  # the table's next game, after both
        journal.start_game(simulate_game(seed=58).events[0])
    game = Game(tmp_path, seed=58)
    assert game.controller.game_id == 3
    game.play(10)
    subscriber = Subscriber(broker.port)
    publisher = publisher_for(game.journal.path, broker.port).start()
    try:
        seen = messages_until_state(subscriber, game.seq)
    finally:
        publisher.close()
        subscriber.close()
    assert [(e["game"], e["seq"]) for e in event_messages(seen)] == [
        (3, seq) for seq in range(1, game.seq + 1)]
    summaries = {name for name, _ in seen if "/games/" in name}
    assert summaries == {f"cardtable/{TABLE}/games/1", f"cardtable/{TABLE}/games/3"}


def test_each_game_keeps_the_players_who_played_it(tmp_path: Path, broker: Broker) -> None:
    names = {"N": "Ann", "E": "Bob", "S": "Cy", "W": "Di"}
    game = Game(tmp_path, seed=59)
    game.app = TableApp(AppConfig(state_dir=tmp_path, seat_names=names), game.controller)
    game.play(8)
    assert game.journal.players(game.controller.game_id) == names
    later = TableApp(AppConfig(state_dir=tmp_path, seat_names={"N": "Zed"}), game.controller)
    game.app = later  # tonight's config names someone else: the game keeps its players
    game.play(4)
    assert game.journal.players(game.controller.game_id) == names
    subscriber = Subscriber(broker.port)
    publisher = MqttPublisher(MqttConfig("127.0.0.1", broker.port, table=TABLE),
                              game.journal.path, seat_names={"N": "Zed"}, reconnect_s=(1, 2))
    publisher.start()
    try:
        seen = messages_until_state(subscriber, game.seq)
    finally:
        publisher.close()
        subscriber.close()
    summary = [p for name, p in seen if name == f"cardtable/{TABLE}/games/1"][-1]
    assert summary["players"] == names
