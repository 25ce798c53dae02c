"""For the MQTT tests: a real broker (Mosquitto, else amqtt), a network gate, a subscriber."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

# CARDTABLE_TEST_BROKER=amqtt runs the pure-Python broker even where Mosquitto is installed.
MOSQUITTO = None if os.environ.get("CARDTABLE_TEST_BROKER") == "amqtt" else (
    shutil.which("mosquitto")
    or ("/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None))
WAIT_S = 60.0  # generous: the machines running the tests are shared and may be loaded


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Broker:
    """A broker on 127.0.0.1 that can be stopped and started again on the same port."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.kind = "mosquitto" if MOSQUITTO else "amqtt"
        self._process: subprocess.Popen[str] | None = None

    def start(self) -> Broker:
        """Start it in its own process and return once it listens."""
        if MOSQUITTO:
            config = self.folder / "mosquitto.conf"
            config.write_text(f"listener {self.port} 127.0.0.1\nallow_anonymous true\n"
                              "log_dest stderr\nlog_type all\n")
            command, ready = [MOSQUITTO, "-c", str(config)], " running"
        else:
            config = self.folder / "amqtt.yaml"
            config.write_text(
                f"listeners:\n  default:\n    type: tcp\n    bind: 127.0.0.1:{self.port}\n"
                "plugins:\n  amqtt.plugins.authentication.AnonymousAuthPlugin:\n"
                "    allow_anonymous: true\n")
            command = [sys.executable, "-m", "amqtt.scripts.broker_script", "-c", str(config)]
            ready = "session expiration monitor"
        self._process = subprocess.Popen(command, text=True, stderr=subprocess.PIPE,
                                         stdout=subprocess.DEVNULL)
        assert self._process.stderr is not None
        for line in self._process.stderr:
            if ready in line:
                break
        else:
            raise RuntimeError(f"{self.kind} stopped before it listened")
        threading.Thread(target=self._process.stderr.read, daemon=True).start()
        return self

    def stop(self) -> None:
        """Stop it; clients see their connection drop."""
        if self._process is None:
            return
        self._process.terminate()
        try:
            self._process.wait(WAIT_S)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait(WAIT_S)
        self._process = None


class Gate:
    """A TCP relay between a client and the broker whose link can be cut and restored."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = free_port()
        self._server: socket.socket | None = None
        self._links: list[socket.socket] = []
        self._lock = threading.Lock()

    def open(self) -> Gate:
        """Accept connections and relay them."""
        server = socket.create_server(("127.0.0.1", self.port))
        self._server = server
        threading.Thread(target=self._accept, args=(server,), daemon=True).start()
        return self

    def cut(self) -> None:
        """Refuse new connections and drop the open ones: the network is gone."""
        if self._server is not None:
            # shutdown first: close alone leaves a thread blocked in accept() able to take
            # one more connection, which would reach the broker behind the cut
            with contextlib.suppress(OSError):
                self._server.shutdown(socket.SHUT_RDWR)
            self._server.close()
            self._server = None
        with self._lock:
            for link in self._links:
                with contextlib.suppress(OSError):
                    link.shutdown(socket.SHUT_RDWR)
                link.close()
            self._links.clear()

    def _accept(self, server: socket.socket) -> None:
        while True:
            try:
                client, _ = server.accept()
            except OSError:
                return
            if self._server is not server:  # taken in the moment of a cut: refused
                client.close()
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port))
            except OSError:
                client.close()
                continue
            with self._lock:
                self._links += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)


class Subscriber:
    """Listens to `cardtable/#` and Home Assistant discovery; every message lands in a queue."""

    def __init__(self, port: int, topics: tuple[str, ...] = ("cardtable/#", "homeassistant/#")
                 ) -> None:
        self.messages: queue.Queue[tuple[str, str, bool]] = queue.Queue()
        self.subscribed = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"test-{port}")
        self.topics = topics
        self.client.on_connect = self._on_connect
        self.client.on_subscribe = lambda *_: self.subscribed.set()
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        assert self.subscribed.wait(WAIT_S), "the subscriber could not subscribe"

    def _on_connect(self, client: mqtt.Client, *_: object) -> None:
        client.subscribe([(name, 1) for name in self.topics])

    def _on_message(self, client: mqtt.Client, userdata: object,
                    message: mqtt.MQTTMessage) -> None:
        self.messages.put((message.topic, message.payload.decode(), bool(message.retain)))

    def next(self, prefix: str) -> tuple[str, Any]:
        """The next message whose topic starts with `prefix`, its payload parsed."""
        while True:
            name, payload, _ = self.messages.get(timeout=WAIT_S)
            if name.startswith(prefix):
                try:
                    return name, json.loads(payload)
                except ValueError:
                    return name, payload

    def events(self, table: str, count: int) -> list[dict[str, Any]]:
        """The next `count` messages on the table's events topic."""
        return [self.next(f"cardtable/{table}/events")[1] for _ in range(count)]

    def close(self) -> None:
        """Disconnect."""
        self.client.disconnect()
        self.client.loop_stop()
