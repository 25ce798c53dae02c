"""For the web tests: a real server on a free port, HTTP requests and an SSE reader."""

from __future__ import annotations

import http.client
import json
import queue
import socket
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, Protocol

from app.web.server import WebContext, WebServer

WAIT_S = 10.0


class Addressed(Protocol):
    """A page at an address: a WebServer here, or one in another process."""

    @property
    def url(self) -> str:
        """The page's address, ending in /."""
        ...


@contextmanager
def web_server(journal_path: Path, **context: Any) -> Iterator[WebServer]:
    """The web server on 127.0.0.1 and a free port, stopped afterwards."""
    with WebServer(WebContext(journal_path, **context), "127.0.0.1", 0) as server:
        yield server


def get(server: Addressed, path: str, method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    """One request: the status, the headers and the body (error statuses too)."""
    request = urllib.request.Request(server.url.rstrip("/") + path, method=method)
    try:
        with urllib.request.urlopen(request, timeout=WAIT_S) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def get_json(server: Addressed, path: str) -> Any:
    """A JSON answer that must be 200."""
    status, _, body = get(server, path)
    assert status == 200, body
    return json.loads(body)


class EventStream:
    """Reads `/api/events` in a thread; each `state` event's data lands in `events`."""

    def __init__(self, server: Addressed) -> None:
        address = urllib.parse.urlsplit(server.url)
        self.connection = http.client.HTTPConnection(address.hostname or "127.0.0.1",
                                                     address.port, timeout=WAIT_S)
        self.connection.request("GET", address.path + "api/events")
        self.sock = self.connection.sock
        """Kept: the connection lets go of it once the endless answer begins."""
        self.answer = self.connection.getresponse()
        assert self.answer.status == 200, self.answer.status
        assert self.answer.headers["Content-Type"] == "text/event-stream"
        self.events: queue.Queue[dict[str, Any]] = queue.Queue()
        self.ids: list[int] = []
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        name, data, ident = "message", "", None
        try:
            for raw in self.answer:
                line = raw.decode("utf-8").rstrip("\n")
                if not line:
                    if data and name == "state":
                        if ident is not None:
                            self.ids.append(int(ident))
                        self.events.put(json.loads(data))
                    name, data, ident = "message", "", None
                elif line.startswith("event: "):
                    name = line[len("event: "):]
                elif line.startswith("data: "):
                    data += line[len("data: "):]
                elif line.startswith("id: "):
                    ident = line[len("id: "):]
        except (OSError, ValueError):
            return

    def next(self) -> dict[str, Any]:
        """The next snapshot the stream brought (waits for it)."""
        return self.events.get(timeout=WAIT_S)

    def until(self, seq: int) -> dict[str, Any]:
        """Snapshots up to the one showing `seq` events; that one."""
        while True:
            snapshot = self.next()
            if snapshot["seq"] >= seq:
                return snapshot

    def close(self) -> None:
        """Hang up: the socket is shut first, so the reading thread's wait ends at once."""
        if self.sock is not None:
            with suppress(OSError):
                self.sock.shutdown(socket.SHUT_RDWR)
        self._thread.join(timeout=WAIT_S)
        self.answer.close()
        self.connection.close()


def post_json(url: str, body: object, path: str = "/api/correct"
              ) -> tuple[int, dict[str, str], Any]:
    """POST a JSON body to the page at `url`: the status, the headers and the JSON answer."""
    data = json.dumps(body).encode("utf-8")
    request = urllib.request.Request(url.rstrip("/") + path, data=data, method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=WAIT_S) as answer:
            return answer.status, dict(answer.headers), json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read())
