"""Corrections from the phone page into the running table: requests, answers, control socket.

A request is a JSON object: `{"action": "name", "seat": "E", "card": "JH"}` (the card lying in
E's zone is JH), `{"action": "correct", "hand": 1, "trick": 2, "seat": "E", "card": "KC"}`
(E's card of that trick was KC) or `{"action": "undo"}`. It becomes the same input as a tap or a
press at the table and goes through the table's main loop: it is answered only once its events
are committed, or once the referee has refused it.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import socket
import socketserver
import sys
import threading
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

from app.notices import Notice, NoticeKind
from app.prompts import PageInput, PlayCorrected, SeatCardNamed
from drivers import inputs
from table import Card, CardParseError, Seat
from table.seats import SeatError

CONTROL_SOCKET = "control.sock"
"""The control socket's name in the state directory."""
ACTIONS = ("name", "correct", "undo")
ANSWER_S = 10.0
MAX_LINE = 4096
NO_TABLE = "no table running"
TAKEN = (NoticeKind.ACCEPTED, NoticeKind.HELD)


class RequestError(ValueError):
    """A request the table cannot read; the message says what is wrong with it."""


class TableUnavailable(RuntimeError):
    """No running table to take the request (or it did not answer); the message says which."""


@dataclass(frozen=True, slots=True)
class Reply:
    """The table's answer: taken (journaled, or a named card waiting for its turn) or not, why."""

    accepted: bool
    message: str
    paused: bool = False  # refused because the journal cannot write: try again later
    notices: list[dict[str, str]] = field(default_factory=list)
    game: int | None = None
    seq: int | None = None

    @classmethod
    def of(cls, notices: list[Notice], *, paused: bool, game: int, seq: int) -> Reply:
        """The answer to one input, from what the table said about it."""
        told = [{"kind": notice.kind.value, "message": notice.message} for notice in notices]
        if not notices:
            return cls(False, "nothing happened", paused, told, game, seq)
        first = notices[0]
        accepted = first.kind in TAKEN and not paused
        return cls(accepted, first.message, paused, told, game, seq)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Reply:
        """The answer as the control socket sent it."""
        return cls(bool(data["accepted"]), str(data["message"]), bool(data.get("paused")),
                   list(data.get("notices", [])), data.get("game"), data.get("seq"))

    def to_json(self) -> dict[str, Any]:
        """The answer as JSON for the page and the socket."""
        return asdict(self)


def parse_request(data: object) -> inputs.PlayerInput | PageInput:
    """The table input a request asks for; RequestError naming what is wrong."""
    if not isinstance(data, dict):
        raise RequestError('expected a JSON object such as {"action": "undo"}')
    action = data.get("action")
    if action == "undo":
        return inputs.UndoPressed(None)
    if action == "name":
        return SeatCardNamed(_seat(data), _card(data))
    if action == "correct":
        return PlayCorrected(_number(data, "hand"), _number(data, "trick"), _seat(data),
                             _card(data))
    raise RequestError(f"action {action!r}: expected one of {', '.join(ACTIONS)}")


def _seat(data: dict[str, Any]) -> Seat:
    value = data.get("seat")
    if not isinstance(value, str):
        raise RequestError(f"seat {value!r}: expected N, E, S or W")
    try:
        return Seat.parse(value)
    except SeatError as error:
        raise RequestError(f"seat: {error}") from None


def _card(data: dict[str, Any]) -> Card:
    value = data.get("card")
    if not isinstance(value, str):
        raise RequestError(f"card {value!r}: expected a card such as JH, TD or JK")
    try:
        return Card.parse(value)
    except CardParseError as error:
        raise RequestError(f"card: {error}") from None


def _number(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 999:
        raise RequestError(f"{key} {value!r}: expected a number from 1")
    return value


class Link(Protocol):
    """Where the page's requests go: the table's own loop, or its control socket."""

    def submit(self, data: object) -> Reply:
        """Send one request; its answer. RequestError or TableUnavailable if none."""
        ...


@dataclass(slots=True)
class PageRequest:
    """A request waiting in the table's queue; the main loop answers it after the commit."""

    pressed: inputs.PlayerInput | PageInput
    done: threading.Event = field(default_factory=threading.Event)
    reply: Reply | None = None

    def answer(self, reply: Reply) -> None:
        """The table's answer: wakes whoever waits for it."""
        self.reply = reply
        self.done.set()


class TableLink:
    """Hands requests to the main loop of the table in this process and waits for its answer."""

    def __init__(self, items: queue.Queue[Any], stopping: threading.Event,
                 answer_s: float = ANSWER_S) -> None:
        self.items, self.stopping, self.answer_s = items, stopping, answer_s

    def submit(self, data: object) -> Reply:
        """Queue the request for the loop; its answer once the loop has handled it."""
        request = PageRequest(parse_request(data))
        if self.stopping.is_set():
            raise TableUnavailable(f"{NO_TABLE}: the table is stopping")
        self.items.put(request)
        if not request.done.wait(self.answer_s) or request.reply is None:
            raise TableUnavailable(f"the table did not answer within {self.answer_s:g} s")
        return request.reply


class SocketLink:
    """Sends requests to the table running on a state directory, through its control socket."""

    def __init__(self, path: Path, answer_s: float = ANSWER_S) -> None:
        self.path, self.answer_s = path, answer_s

    def submit(self, data: object) -> Reply:
        """One request line, one answer line."""
        parse_request(data)  # a bad request is named here, without troubling the table
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.settimeout(self.answer_s)
            try:
                connection.connect(str(self.path))
            except (FileNotFoundError, ConnectionRefusedError):
                raise TableUnavailable(f"{NO_TABLE} (no control socket at {self.path})") from None
            except OSError as error:
                raise TableUnavailable(
                    f"cannot reach the table at {self.path}: {error.strerror or error}") from None
            try:
                connection.sendall(json.dumps(data).encode("utf-8") + b"\n")
                line = connection.makefile("rb").readline(MAX_LINE * 4)
            except OSError as error:
                raise TableUnavailable(
                    f"the table did not answer: {error.strerror or error}") from None
        try:
            answer = json.loads(line)
            if not answer["ok"]:
                why = str(answer["error"])
                if answer.get("kind") == "bad_request":
                    raise RequestError(why)
                raise TableUnavailable(why)
            return Reply.from_json(answer["reply"])
        except (ValueError, KeyError, TypeError) as error:
            if isinstance(error, RequestError):
                raise
            raise TableUnavailable("the table did not answer (it may have stopped)") from None


def answer_line(line: bytes, link: Link) -> dict[str, Any]:
    """The control socket's answer to one request line; never raises for a bad request."""
    try:
        data = json.loads(line.decode("utf-8"))
        reply = link.submit(data)
    except UnicodeDecodeError as error:
        return _error("bad_request", f"not UTF-8 text (byte {error.start})")
    except json.JSONDecodeError as error:
        return _error("bad_request", f"not JSON: {error.msg} (column {error.colno})")
    except RecursionError:
        return _error("bad_request", "nested too deeply to be a request")
    except RequestError as error:
        return _error("bad_request", str(error))
    except TableUnavailable as error:
        return _error("unavailable", str(error))
    return {"ok": True, "reply": reply.to_json()}


def _error(kind: str, message: str) -> dict[str, Any]:
    return {"ok": False, "kind": kind, "error": message}


class _ControlHandler(socketserver.StreamRequestHandler):
    """One connection: JSON lines in, one JSON line out for each."""

    server: _ControlServer
    timeout = 60.0

    def handle(self) -> None:
        while True:
            try:
                line = self.rfile.readline(MAX_LINE + 1)
            except OSError:
                return
            if not line:
                return
            if len(line) > MAX_LINE:
                self._write(_error("bad_request", f"a request line is at most {MAX_LINE} bytes"))
                return
            if line.strip():
                self._write(answer_line(line, self.server.link))

    def _write(self, answer: dict[str, Any]) -> None:
        with contextlib.suppress(OSError):
            self.wfile.write(json.dumps(answer).encode("utf-8") + b"\n")
            self.wfile.flush()


class _ControlServer(socketserver.ThreadingUnixStreamServer):
    daemon_threads = True

    def __init__(self, path: str, link: Link) -> None:
        self.link = link
        super().__init__(path, _ControlHandler)


class ControlSocket:
    """The table's control socket (mode 0660) in its state directory, served in a thread."""

    def __init__(self, path: Path, link: Link) -> None:
        # The table holds the state directory's lock: a socket file left here is a dead table's.
        with contextlib.suppress(FileNotFoundError):
            if path.is_socket():
                path.unlink()
        self.path = path
        self._server = _ControlServer(str(path), link)
        os.chmod(path, 0o660)
        self._thread = threading.Thread(target=self._server.serve_forever, name="control",
                                        kwargs={"poll_interval": 0.2}, daemon=True)

    def start(self) -> ControlSocket:
        """Serve in the background."""
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving and remove the socket file."""
        if self._thread.is_alive():
            self._server.shutdown()
        self._server.server_close()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()


@contextlib.contextmanager
def control_socket(app: Any) -> Iterator[ControlSocket | None]:
    """Serve the control socket while the table runs; a socket that cannot be made only warns."""
    path = app.config.state_dir.expanduser() / CONTROL_SOCKET
    try:
        served = ControlSocket(path, TableLink(app.items, app.stop)).start()
    except OSError as error:
        print(f"cardtable run: corrections from the page are off: cannot open {path}: "
              f"{error.strerror or error}", file=sys.stderr, flush=True)
        yield None
        return
    print(f"cardtable run: control socket {path}", file=sys.stderr, flush=True)
    try:
        yield served
    finally:
        served.close()
