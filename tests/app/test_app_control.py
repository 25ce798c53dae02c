"""The table's control socket: a running `cardtable run` takes the page's corrections through it."""

from __future__ import annotations

import json
import os
import signal
import socket
import stat
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from app.config import AppConfig, WebConfig
from app.control import (
    CONTROL_SOCKET,
    ControlSocket,
    RequestError,
    SocketLink,
    TableUnavailable,
    answer_line,
    control_socket,
)
from app.controller import TableController
from app.journal import Journal
from app.run import TableApp
from table import Card, CardCorrected, Rules, Seat, Undone
from tests.app.mqttrig import free_port
from tests.app.tablerig import bid_hand, play
from tests.app.webrig import WAIT_S, EventStream, post_json

ROOT = Path(__file__).resolve().parents[2]
PIN = "97531"
TRICK_1 = ("E AS", "S KS", "W QS", "N 9S")


def game_in_progress(state_dir: Path) -> int:
    """A journal whose game is in hand 1, trick 1 played (E bid 3 in hearts); its game id."""
    state_dir.mkdir(parents=True, exist_ok=True)
    with Journal(state_dir / "journal.sqlite") as journal:
        controller = TableController(journal, Rules(), Seat.N)
        bid_hand(controller, "E", 3, "H")
        play(controller, *TRICK_1)
        return controller.game_id


def config_file(folder: Path, pin: str = PIN) -> Path:
    path = folder / "table.toml"
    path.write_text(f'[web]\npin = "{pin}"\nhost = "127.0.0.1"\n')
    return path


@contextmanager
def running_table(state_dir: Path, config: Path) -> Iterator[subprocess.Popen[str]]:
    """A real `cardtable run` (no hardware, PNG screens) until its control socket is open."""
    command = [sys.executable, "-m", "app", "run", "--config", str(config), "--state-dir",
               str(state_dir), "--no-web", "--headless", str(state_dir.parent / "screens")]
    table = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True, cwd=ROOT, env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
    try:
        assert table.stderr is not None
        told = []
        for line in table.stderr:  # ends with the process, if it fails to start
            told.append(line)
            if "control socket" in line:
                break
        assert told and "control socket" in told[-1], "".join(told)
        yield table
    finally:
        if table.poll() is None:
            table.send_signal(signal.SIGTERM)
        table.wait(WAIT_S * 3)


class Connection:
    """One client of the control socket: a line out, a line back."""

    def __init__(self, path: Path) -> None:
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.settimeout(WAIT_S)
        self.socket.connect(str(path))
        self.lines = self.socket.makefile("rb")

    def ask(self, line: bytes) -> dict[str, Any]:
        self.socket.sendall(line)
        answer: dict[str, Any] = json.loads(self.lines.readline())
        return answer

    def close(self) -> None:
        self.lines.close()
        self.socket.close()


def test_a_running_table_takes_corrections_and_names_bad_requests(tmp_path: Path) -> None:
    state_dir = tmp_path / "s"
    game = game_in_progress(state_dir)
    path = state_dir / CONTROL_SOCKET
    with running_table(state_dir, config_file(tmp_path)) as table:
        assert stat.S_IMODE(path.stat().st_mode) == 0o660 and path.is_socket()
        client = Connection(path)
        for line, named in ((b"{not json\n", "not JSON"),
                            (b'"undo"\n', "expected a JSON object"),
                            (b'{"action": "name", "seat": "E"}\n', "card None"),
                            (b'{"action": "name", "seat": "Q", "card": "JH"}\n', "seat"),
                            (b"\xff\xfe\n", "not UTF-8"),
                            (b"[" * 5000 + b"\n", "at most 4096 bytes")):
            if len(line) > 4096:
                client.close()
                client = Connection(path)
            answer = client.ask(line)
            assert answer["ok"] is False and answer["kind"] == "bad_request", answer
            assert named in answer["error"]
        client = Connection(path)
        answer = client.ask(b'{"action": "correct", "hand": 1, "trick": 1, "seat": "N", '
                            b'"card": "TS"}\n')
        assert answer["ok"] is True and answer["reply"]["accepted"] is True
        assert answer["reply"]["message"].startswith("N's card of trick 1 (hand 1) corrected")
        with Journal(state_dir / "journal.sqlite") as journal:  # journaled before the answer
            assert journal.events(game)[-1] == CardCorrected(1, 1, Seat.N, Card.parse("TS"))
        reply = SocketLink(path).submit({"action": "correct", "hand": 1, "trick": 1,
                                         "seat": "N", "card": "TS"})
        assert not reply.accepted and reply.message.endswith("it is already TS")  # the referee
        assert client.ask(b'{"action": "undo"}\n')["reply"]["message"] == "undone"
        client.close()
        table.send_signal(signal.SIGTERM)
        assert table.wait(WAIT_S * 3) == 0
    assert not path.exists()
    with Journal(state_dir / "journal.sqlite") as journal:
        events = journal.events(game)
    assert isinstance(events[-1], Undone) and isinstance(events[-2], CardCorrected)
    with pytest.raises(TableUnavailable, match="no table running"):
        SocketLink(path).submit({"action": "undo"})


@dataclass(frozen=True)
class Page:
    """`cardtable web` in its own process."""

    url: str


def test_cardtable_web_beside_the_table_corrects_through_the_socket(tmp_path: Path) -> None:
    state_dir = tmp_path / "s"
    game_in_progress(state_dir)
    config = config_file(tmp_path)
    port = free_port()
    command = [sys.executable, "-m", "app", "web", "--config", str(config), "--state-dir",
               str(state_dir), "--port", str(port)]
    web = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           cwd=ROOT)
    try:
        assert web.stdout is not None
        assert web.stdout.readline().strip().endswith(f"on http://127.0.0.1:{port}/")
        page = Page(f"http://127.0.0.1:{port}/")
        status, _, answer = post_json(page.url, {"action": "undo", "pin": PIN})
        assert status == 503 and answer["message"].startswith("no table running")
        with running_table(state_dir, config):
            stream = EventStream(page)
            seq = stream.next()["seq"]
            status, _, answer = post_json(page.url, {"action": "correct", "pin": PIN, "hand": 1,
                                                     "trick": 1, "seat": "W", "card": "TS"})
            assert status == 200 and answer["accepted"] is True and answer["seq"] == seq + 1
            shown = stream.until(seq + 1)  # the page's journal watcher saw the commit
            assert ["W", "TS"] in shown["trick"]["cards"]
            status, _, answer = post_json(page.url, {"action": "undo", "pin": "1111"})
            assert status == 401
            stream.close()
    finally:
        web.send_signal(signal.SIGTERM)
        assert web.wait(WAIT_S * 3) == 0


class Refusing:
    """A link that checks nothing and takes nothing: what reaches it is named here."""

    def submit(self, data: object) -> Any:
        raise TableUnavailable("the table is stopping")


@pytest.mark.parametrize(("line", "kind", "named"), [
    (b"{}", "bad_request", "action None"),
    (b'{"action": "correct", "seat": "N", "card": "TS", "hand": true, "trick": 1}',
     "bad_request", "hand True"),
    (b'{"action": "name", "seat": "N", "card": 7}', "bad_request", "card 7"),
    (b"[" * 5000, "bad_request", "nested too deeply"),
    (b"nul\x00", "bad_request", "not JSON"),
])
def test_each_bad_line_has_its_own_answer(line: bytes, kind: str, named: str) -> None:
    from app.control import TableLink

    class Stopped:
        def is_set(self) -> bool:
            return True

    answer = answer_line(line, TableLink(None, Stopped()))  # type: ignore[arg-type]
    assert answer["ok"] is False and answer["kind"] == kind and named in answer["error"]
    answer = answer_line(b'{"action": "undo"}', Refusing())
    assert answer == {"ok": False, "kind": "unavailable", "error": "the table is stopping"}


def test_a_socket_left_by_a_dead_table_means_no_table_and_is_replaced(tmp_path: Path) -> None:
    path = tmp_path / CONTROL_SOCKET
    left = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    left.bind(str(path))
    left.close()  # the file stays, nobody listens
    with pytest.raises(TableUnavailable, match="no table running"):
        SocketLink(path).submit({"action": "undo"})
    with pytest.raises(RequestError, match="action 'redo'"):
        SocketLink(path).submit({"action": "redo"})
    served = ControlSocket(path, Refusing()).start()
    try:
        with pytest.raises(TableUnavailable, match="the table is stopping"):
            SocketLink(path).submit({"action": "undo"})
    finally:
        served.close()
    assert not path.exists()


def test_a_socket_that_cannot_be_made_only_turns_corrections_off(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state_dir = tmp_path / ("long" * 30)  # longer than a Unix socket's path may be
    state_dir.mkdir()
    with Journal(state_dir / "journal.sqlite") as journal:
        config = AppConfig(state_dir=state_dir, web=WebConfig(pin=PIN))
        app = TableApp(config, TableController(journal, Rules(), Seat.N))
        with control_socket(app) as served:
            assert served is None
    assert "corrections from the page are off: cannot open" in capsys.readouterr().err
