"""The server under attack and under load: Host allow-list, Origin check, security headers,
errors without paths, HTTP/1.1 with keep-alive and HEAD, timeouts and the connection limit."""

from __future__ import annotations

import http.client
import socket
import threading
import urllib.parse
from collections.abc import Iterator
from contextlib import ExitStack, closing
from pathlib import Path

import pytest

from app.cli import build_parser
from app.web.server import WebServer
from tests.app.test_app_web import DEMO_LOG, imported, simulated_logs
from tests.app.test_app_web_corrections import PIN, table_with_pin
from tests.app.webrig import WAIT_S, EventStream, web_server

LOAD_WAIT_S = 120.0  # generous: what is asserted is that every client is answered at all


def address(server: WebServer) -> tuple[str, int]:
    """The server's host and port."""
    parts = urllib.parse.urlsplit(server.url)
    return parts.hostname or "127.0.0.1", parts.port or 80


def request(server: WebServer, method: str, path: str, headers: dict[str, str] | None = None,
            body: bytes | None = None) -> tuple[int, dict[str, str], bytes]:
    """One request with exactly these headers (Host too, when given)."""
    host, port = address(server)
    connection = http.client.HTTPConnection(host, port, timeout=WAIT_S)
    with closing(connection):
        given = dict(headers or {})
        connection.putrequest(method, path, skip_host="Host" in given,
                              skip_accept_encoding=True)
        for name, value in given.items():
            connection.putheader(name, value)
        if body is not None:
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        answer = connection.getresponse()
        return answer.status, dict(answer.headers), answer.read()


@pytest.fixture
def demo_server(tmp_path: Path) -> Iterator[WebServer]:
    """The page over a journal holding the demo game."""
    with web_server(imported(tmp_path / "s", DEMO_LOG)) as server:
        yield server


def test_a_page_asked_for_by_a_foreign_name_is_refused(demo_server: WebServer,
                                                       tmp_path: Path) -> None:
    port = address(demo_server)[1]
    for host in ("evil.example", "evil.example:80", f"rebind.attacker.test:{port}", ""):
        status, _, body = request(demo_server, "GET", "/api/games", {"Host": host})
        assert status == 421 and b"[" not in body, host
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", "[::1]", "192.168.1.20:8080",
                 f"{socket.gethostname()}:{port}"):
        assert request(demo_server, "GET", "/api/games", {"Host": host})[0] == 200, host
    with web_server(demo_server.context.journal_path or tmp_path,
                    hosts=("Table.Club.Lan",)) as named:
        assert request(named, "GET", "/", {"Host": "table.club.lan"})[0] == 200


def test_a_cross_origin_post_never_reaches_the_table(tmp_path: Path) -> None:
    right = f'{{"action": "undo", "pin": "{PIN}"}}'.encode()
    with table_with_pin(tmp_path) as table:
        host = f"127.0.0.1:{table.server.port}"
        for headers in (
            {"Host": host, "Content-Type": "text/plain", "Origin": "http://evil.example"},
            {"Host": host, "Content-Type": "application/json", "Origin": "http://evil.example"},
            {"Host": host, "Content-Type": "application/json", "Origin": "null"},
            {"Host": host, "Content-Type": "text/plain", "Sec-Fetch-Site": "cross-site"},
        ):
            status, _, _ = request(table.server, "POST", "/api/correct", headers, right)
            assert status == 403, headers
        status, _, _ = request(table.server, "POST", "/api/correct",
                               {"Host": host, "Content-Type": "text/plain"}, right)
        assert status == 415  # a simple (unpreflighted) body type is not taken either
        assert table.app.items.empty()
        same = {"Host": host, "Content-Type": "application/json", "Origin": f"http://{host}"}
        status, _, _ = request(table.server, "POST", "/api/correct", same, b'{"pin": "0000"}')
        assert status == 401  # the page's own origin is heard (and the PIN checked)


def test_every_answer_carries_the_security_headers(demo_server: WebServer) -> None:
    port = address(demo_server)[1]
    for path in ("/", "/static/app.js", "/api/games", "/api/games/1/chart.svg", "/nowhere"):
        _, headers, _ = request(demo_server, "GET", path, {"Host": f"127.0.0.1:{port}"})
        policy = headers["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy, path
        assert "unsafe-inline" not in policy
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["X-Frame-Options"] == "DENY"
    stream = EventStream(demo_server)
    assert stream.answer.headers["X-Frame-Options"] == "DENY"
    stream.close()


def test_errors_never_name_a_path(tmp_path: Path) -> None:
    missing = tmp_path / "secret-folder" / "journal.sqlite"
    with web_server(missing) as server:
        for path in ("/api/games", "/api/stats", "/api/games/1", "/api/games/1/log"):
            status, _, body = request(server, "GET", path, {"Host": "localhost"})
            assert status == 404 and b"no journal" in body
            assert b"secret-folder" not in body and str(tmp_path).encode() not in body
    broken = tmp_path / "broken" / "journal.sqlite"
    broken.parent.mkdir()
    broken.write_bytes(b"this is not a database " * 100)
    with web_server(broken) as server:
        status, _, body = request(server, "GET", "/api/games", {"Host": "localhost"})
        assert status in (404, 503) and str(tmp_path).encode() not in body
        status, _, body = request(server, "GET", "/api/games/7", {"Host": "localhost"})
        assert str(tmp_path).encode() not in body


def test_http_1_1_keeps_the_connection_and_answers_head(demo_server: WebServer) -> None:
    host, port = address(demo_server)
    connection = http.client.HTTPConnection(host, port, timeout=WAIT_S)
    with closing(connection):
        for path in ("/api/games", "/static/style.css", "/api/games/1"):
            connection.request("GET", path)
            answer = connection.getresponse()
            assert answer.version == 11 and answer.status == 200
            answer.read()
            assert not answer.will_close  # one connection for all three
        connection.request("HEAD", "/")
        answer = connection.getresponse()
        assert answer.status == 200 and answer.read() == b""
        assert int(answer.headers["Content-Length"]) > 100


def test_200_simultaneous_clients_are_all_answered(tmp_path: Path) -> None:
    path = imported(tmp_path / "s", *simulated_logs(tmp_path, [51, 52, 53, 54, 55]))
    with web_server(path) as server:
        host, port = address(server)
        start = threading.Barrier(200)
        answers: list[int] = []
        lock = threading.Lock()

        def client(number: int) -> None:
            connection = http.client.HTTPConnection(host, port, timeout=LOAD_WAIT_S)
            with closing(connection):
                start.wait(LOAD_WAIT_S)
                connection.request("GET", f"/api/games/{number % 5 + 1}" if number % 2
                                   else "/api/live")
                answer = connection.getresponse()
                answer.read()
                with lock:
                    answers.append(answer.status)

        threads = [threading.Thread(target=client, args=(n,)) for n in range(200)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(LOAD_WAIT_S)
        assert answers.count(200) == 200


def test_idle_sockets_neither_starve_others_nor_outlive_the_timeout(tmp_path: Path) -> None:
    with web_server(imported(tmp_path / "s", DEMO_LOG), idle_s=1.0) as server, \
            ExitStack() as stack:
        idle = []
        for number in range(50):
            sock = stack.enter_context(socket.create_connection(address(server), WAIT_S))
            if number % 2:  # half send half a request and stop there
                sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: localhost\r\n")
            idle.append(sock)
        for _ in range(5):
            status, _, body = request(server, "GET", "/api/games", {"Host": "localhost"})
            assert status == 200 and body.startswith(b"[")
        for sock in idle:  # the server hangs up on each: recv ends rather than timing out
            assert sock.recv(1024) == b""


def test_connections_over_the_limit_are_told_busy(tmp_path: Path) -> None:
    with web_server(imported(tmp_path / "s", DEMO_LOG), max_connections=5) as server:
        with ExitStack() as stack:
            for _ in range(5):
                connection = http.client.HTTPConnection(*address(server), timeout=WAIT_S)
                stack.callback(connection.close)
                connection.request("GET", "/api/live")
                assert connection.getresponse().read() is not None  # held open (keep-alive)
            with socket.create_connection(address(server), WAIT_S) as extra:
                answer = extra.recv(1024)
            assert answer.startswith(b"HTTP/1.1 503")
        statuses: list[int] = []  # the others hung up: room again, once the server has seen them go
        while len(statuses) < 100 and 200 not in statuses:
            statuses.append(request(server, "GET", "/api/live", {"Host": "localhost"})[0])
        assert statuses[-1] == 200


def test_the_servers_listen_on_this_machine_only_by_default() -> None:
    parser = build_parser()
    assert parser.parse_args(["club", "--broker", "b"]).host == "127.0.0.1"
    assert parser.parse_args(["web"]).host is None  # then [web] host, whose default is local


def host_status(port: int, host: str) -> int:
    """The status of GET /api/live asked for under the Host `host`."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT_S)
    with closing(connection):
        connection.putrequest("GET", "/api/live", skip_host=True, skip_accept_encoding=True)
        connection.putheader("Host", host)
        connection.endheaders()
        answer = connection.getresponse()
        answer.read()
        return answer.status


def test_cardtable_run_answers_to_the_configured_names(tmp_path: Path) -> None:
    from app.config import AppConfig, WebConfig
    from app.controller import TableController
    from app.journal import Journal
    from app.run import TableApp
    from app.web.service import table_services
    from table import Rules, Seat

    web = WebConfig(host="127.0.0.1", port=0, hosts=("scores.club.example",),
                    public_url="http://t1.club.example:8080/")
    with Journal(tmp_path / "journal.sqlite") as journal:
        app = TableApp(AppConfig(state_dir=tmp_path, web=web),
                       TableController(journal, Rules(), Seat.N))
        with table_services(app) as server:
            assert server is not None
            for host in ("scores.club.example", "Scores.Club.Example.:8080",
                         "t1.club.example:8080", f"127.0.0.1:{server.port}", "localhost"):
                assert host_status(server.port, host) == 200, host
            for host in ("evil.example", "club.example", "scores.club.example.evil.example"):
                assert host_status(server.port, host) == 421, host


def test_cardtable_web_answers_to_the_configured_names_and_allow_host(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys

    from tests.app.mqttrig import free_port

    imported(tmp_path / "s", DEMO_LOG)
    config = tmp_path / "table.toml"
    config.write_text('[web]\nhosts = ["scores.club.example"]\n'
                      'public_url = "https://t1.club.example/"\n')
    port = free_port()
    command = [sys.executable, "-m", "app", "web", "--config", str(config), "--state-dir",
               str(tmp_path / "s"), "--host", "127.0.0.1", "--port", str(port),
               "--allow-host", "Extra.Example"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              cwd=Path(__file__).parents[2])
    try:
        assert server.stdout is not None
        assert server.stdout.readline().strip().endswith(f"on http://127.0.0.1:{port}/")
        for host in ("scores.club.example", "t1.club.example", "extra.example:80",
                     f"127.0.0.1:{port}"):
            assert host_status(port, host) == 200, host
        for host in ("evil.example", "club.example"):
            assert host_status(port, host) == 421, host
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(20) == 0


@pytest.mark.parametrize("command", ["web", "club"])
def test_an_allow_host_that_is_no_dns_name_stops_with_exit_2(
    tmp_path: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.cli import main

    where = ["--state-dir", str(tmp_path)] if command == "web" else ["--broker", "127.0.0.1"]
    for bad, named in (("evil.example/x", "not a DNS name"), ("10.0.0.1", "an address"),
                       ("*.example", "not a DNS name")):
        assert main([command, *where, "--allow-host", "ok.example", "--allow-host", bad]) == 2
        error = capsys.readouterr().err
        assert f"cardtable {command}: --allow-host {bad!r}: {named}" in error
        assert "Traceback" not in error
