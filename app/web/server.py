"""The table's web server: the phone page, the journal's games as JSON, and the live stream."""

from __future__ import annotations

import json
import math
import re
import socket
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from app.control import Link, Reply, RequestError, TableUnavailable
from app.journal import JournalError
from app.web.history import chart_svg, game_detail, games_list, read_only, seat_statistics
from app.web.hub import LiveHub
from app.web.pin import PinGate

STATIC = Path(__file__).with_name("static")
STATIC_TYPES = {
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
    "club.html": "text/html; charset=utf-8",
    "club.js": "text/javascript; charset=utf-8",
}
KEEPALIVE_S = 15.0
STREAM_S = 300.0  # a stream ends after this long; the page reconnects at once and carries on
RETRY_MS = 1000
GAME_PATH = re.compile(r"^/api/games/(\d{1,9})(/chart\.svg|/log)?$")
MAX_BODY = 4096
READ_ONLY = "corrections from this page are off: the table's config sets no [web] pin"


@dataclass
class WebContext:
    """What the handlers read: the journal's path and the live hub; with a PIN gate and a
    link to the table, corrections too (without both the page is read-only)."""

    journal_path: Path | None
    hub: LiveHub = field(default_factory=LiveHub)
    keepalive_s: float = KEEPALIVE_S
    stream_s: float = STREAM_S
    retry_ms: int = RETRY_MS
    pins: PinGate | None = None
    corrections: Link | None = None

    @property
    def correctable(self) -> bool:
        """True when the page may send corrections (a PIN is set and a table is linked)."""
        return self.pins is not None and self.corrections is not None


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], context: WebContext,
                 handler: type[BaseHTTPRequestHandler]) -> None:
        self.context = context
        super().__init__(address, handler)


class WebHandler(BaseHTTPRequestHandler):
    """Read-only routes: the page, its script and styles, the API and the event stream."""

    server: _Server
    server_version = "cardtable"

    def setup(self) -> None:
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the table's log is for the table."""

    def do_GET(self) -> None:
        """Route a request."""
        path = self.path.split("?", 1)[0]
        context = self.server.context
        if path == "/":
            self._static("index.html")
        elif path.startswith("/static/") and path[len("/static/"):] in STATIC_TYPES:
            self._static(path[len("/static/"):])
        elif path == "/api/corrections":
            self._json({"enabled": context.correctable})
        elif path == "/api/live":
            self._send(HTTPStatus.OK, "application/json", context.hub.latest()[1] or "null")
        elif path == "/api/events":
            self._stream(context)
        elif path == "/api/games":
            self._from_journal(lambda journal: self._json(games_list(journal)))
        elif path == "/api/stats":
            self._from_journal(lambda journal: self._json(seat_statistics(journal)))
        elif match := GAME_PATH.match(path):
            self._game(int(match.group(1)), match.group(2))
        else:
            self._send(HTTPStatus.NOT_FOUND, "text/plain", f"no page {path}\n")

    def do_POST(self) -> None:
        """Corrections with the PIN at `/api/correct`; everything else is read-only."""
        if self.path.split("?", 1)[0] == "/api/correct":
            self._correct()
            return
        self._refuse_writing()

    def _refuse_writing(self) -> None:
        self._send(HTTPStatus.METHOD_NOT_ALLOWED, "text/plain",
                   "read-only: corrections are made at the table\n")

    do_PUT = do_DELETE = do_PATCH = _refuse_writing

    def _correct(self) -> None:
        """A correction from the page: the PIN checked, then handed to the table to decide."""
        context = self.server.context
        pins, link = context.pins, context.corrections
        if pins is None or link is None:
            self._answer(HTTPStatus.FORBIDDEN, READ_ONLY)
            return
        client = str(self.client_address[0])
        wait = pins.wait_s(client)
        if wait > 0:
            seconds = max(math.ceil(wait), 1)
            self._answer(HTTPStatus.TOO_MANY_REQUESTS,
                         f"too many wrong PINs from this address: try again in {seconds} s",
                         {"Retry-After": str(seconds)})
            return
        data = self._body()
        if data is None:
            return
        if not pins.check(client, data.pop("pin", None)):
            left = pins.tries_left(client)
            self._answer(HTTPStatus.UNAUTHORIZED,
                         f"wrong PIN ({left} more tr{'y' if left == 1 else 'ies'} this minute)")
            return
        try:
            reply = link.submit(data)
        except RequestError as error:
            self._answer(HTTPStatus.BAD_REQUEST, str(error))
            return
        except TableUnavailable as error:
            self._answer(HTTPStatus.SERVICE_UNAVAILABLE, str(error))
            return
        status = (HTTPStatus.OK if reply.accepted
                  else HTTPStatus.SERVICE_UNAVAILABLE if reply.paused else HTTPStatus.CONFLICT)
        self._json(reply.to_json(), status)

    def _body(self) -> dict[str, Any] | None:
        """The request's JSON object; None once a refusal has been sent."""
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            self._answer(HTTPStatus.LENGTH_REQUIRED, "a JSON body with its Content-Length")
            return None
        if not 0 < length <= MAX_BODY:
            self._answer(HTTPStatus.REQUEST_ENTITY_TOO_LARGE if length > MAX_BODY
                         else HTTPStatus.BAD_REQUEST,
                         f"a JSON body of 1 to {MAX_BODY} bytes is needed")
            return None
        try:
            data = json.loads(self.rfile.read(length).decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            self._answer(HTTPStatus.BAD_REQUEST, "the body is not JSON")
            return None
        if not isinstance(data, dict):
            self._answer(HTTPStatus.BAD_REQUEST, 'expected a JSON object such as {"action": '
                         '"undo", "pin": "..."}')
            return None
        return data

    def _answer(self, status: HTTPStatus, message: str,
                headers: dict[str, str] | None = None) -> None:
        """A correction not taken, and why, as the page shows it."""
        body = Reply(False, message).to_json()
        self._send(status, "application/json", json.dumps(body), headers)

    def _game(self, game_id: int, part: str | None) -> None:
        def answer(journal: Any) -> None:
            if part == "/log":
                name = f"game-{game_id}.jsonl"
                self._send(HTTPStatus.OK, "application/x-ndjson", journal.export(game_id),
                           {"Content-Disposition": f'attachment; filename="{name}"'})
                return
            detail = game_detail(journal, game_id)
            if part == "/chart.svg":
                self._send(HTTPStatus.OK, "image/svg+xml",
                           chart_svg(detail["running"], detail["target"]))
                return
            detail["chart_svg"] = chart_svg(detail["running"], detail["target"])
            self._json(detail)

        self._from_journal(answer)

    def _from_journal(self, answer: Any) -> None:
        path = self.server.context.journal_path
        if path is None:
            self._send(HTTPStatus.NOT_FOUND, "text/plain", "this page has no journal\n")
            return
        try:
            with read_only(path) as journal:
                answer(journal)
        except JournalError as error:
            self._send(HTTPStatus.NOT_FOUND, "text/plain", f"{error}\n")
        except sqlite3.DatabaseError as error:
            self._send(HTTPStatus.SERVICE_UNAVAILABLE, "text/plain", f"journal: {error}\n")

    def _stream(self, context: WebContext) -> None:
        """Server-Sent Events: the current view at once, then each new one as it comes."""
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        version, data = context.hub.latest()
        context.hub.listening()
        ends = time.monotonic() + context.stream_s
        try:
            self.wfile.write(f"retry: {context.retry_ms}\n\n".encode())
            if version:
                self._event(version, data)
            while not context.hub.closed and (left := ends - time.monotonic()) > 0:
                newer = context.hub.wait_newer(version, min(context.keepalive_s, left))
                if newer is None:
                    if ends - time.monotonic() > 0:
                        self.wfile.write(b": keepalive\n\n")
                    continue
                version, data = newer
                self._event(version, data)
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            return

    def _event(self, version: int, data: str) -> None:
        self.wfile.write(f"id: {version}\nevent: state\ndata: {data}\n\n".encode())

    def _static(self, name: str) -> None:
        self._send(HTTPStatus.OK, STATIC_TYPES[name], (STATIC / name).read_text("utf-8"))

    def _json(self, value: object, status: HTTPStatus = HTTPStatus.OK) -> None:
        self._send(status, "application/json", json.dumps(value))

    def _send(self, status: HTTPStatus, kind: str, text: str,
              headers: dict[str, str] | None = None) -> None:
        body = text.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", kind if "charset" in kind else f"{kind}; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)


class WebServer:
    """The server in its own thread; `port` 0 takes a free one (see `.port`)."""

    def __init__(self, context: WebContext, host: str = "0.0.0.0", port: int = 8080,
                 handler: type[BaseHTTPRequestHandler] | None = None) -> None:
        self.context = context
        self._server = _Server((host, port), context, handler or WebHandler)
        self._thread = threading.Thread(target=self._server.serve_forever, name="web",
                                        kwargs={"poll_interval": 0.2}, daemon=True)

    @property
    def port(self) -> int:
        """The port the server listens on."""
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        """The address of the page on this machine."""
        host = str(self._server.server_address[0])
        return f"http://{'127.0.0.1' if host == '0.0.0.0' else host}:{self.port}/"

    def start(self) -> WebServer:
        """Serve in the background."""
        self._thread.start()
        return self

    def close(self) -> None:
        """End the streams, stop serving and free the port."""
        self.context.hub.close()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()

    def __enter__(self) -> WebServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
