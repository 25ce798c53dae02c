"""The subcommands `import`, `web` and `club`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from app.commands import journal_options

PASSWORD_ENV = "CARDTABLE_CLUB_PASSWORD"


def register(subparsers: Any) -> None:
    """Add `import`, `web` and `club` to the `cardtable` command."""
    imported = subparsers.add_parser("import", help="add a table log to the journal as a game")
    imported.add_argument("log", type=Path, help="the table log (JSON Lines)")
    journal_options(imported)
    imported.set_defaults(handler=run_import)

    web = subparsers.add_parser(
        "web", help="serve the phone page (the live table, the history) and publish to [mqtt]")
    journal_options(web)
    web.add_argument("--host", help="address to listen on (default: [web] host, 127.0.0.1)")
    web.add_argument("--port", type=int, help="port to listen on (default: [web] port, 8080)")
    web.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                     help="a DNS name the page may be reached by, beyond this machine's own "
                          "names, its addresses and [web] hosts (repeatable)")
    web.add_argument("--max-seconds", type=float, help="stop after this long")
    web.add_argument("--screenshots", type=Path, metavar="OUTDIR",
                     help="write PNGs of the pages at phone and desktop sizes, then stop")
    web.set_defaults(handler=run_web)

    club = subparsers.add_parser("club", help="one page for the room: every table on a broker")
    club.add_argument("--broker", required=True, metavar="HOST", help="the MQTT broker")
    club.add_argument("--broker-port", type=int, default=1883, help="its port (default 1883)")
    club.add_argument("--tls", action="store_true", help="connect to the broker over TLS")
    club.add_argument("--user", help="the broker user")
    club.add_argument("--password-file", type=Path, metavar="FILE",
                      help=f"a file holding the broker password (else ${PASSWORD_ENV})")
    club.add_argument("--password", help=argparse.SUPPRESS)  # refused: argv is public
    club.add_argument("--host", default="127.0.0.1",
                      help="address to serve on (default 127.0.0.1; 0.0.0.0 for every address)")
    club.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                      help="a DNS name the page may be reached by, beyond this machine's own "
                           "names and its addresses (repeatable)")
    club.add_argument("--port", type=int, default=8090, help="port to serve on (default 8090)")
    club.add_argument("--max-seconds", type=float, help="stop after this long")
    club.add_argument("--screenshots", type=Path, metavar="OUTDIR",
                      help="write PNGs of the club page at phone and desktop sizes, then stop")
    club.set_defaults(handler=run_club)


def _state_dir(args: argparse.Namespace) -> Path:
    from app.config import load_config

    config = load_config(args.config)
    state_dir: Path = (args.state_dir or config.state_dir).expanduser()
    return state_dir


def run_import(args: argparse.Namespace) -> int:
    """Check the whole log, then add it to the journal as a closed game; exit 2 if invalid."""
    from app.config import ConfigError
    from app.import_log import import_game, read_game_log
    from app.journal import Journal, JournalError
    from app.state_lock import StateLock, TableRunning
    from table import LogError

    try:
        events, state = read_game_log(args.log)
    except OSError as error:
        print(f"cardtable import: cannot read {args.log}: {error.strerror}", file=sys.stderr)
        return 2
    except LogError as error:
        print(f"cardtable import: {args.log}: {error}; nothing was imported", file=sys.stderr)
        return 2
    try:
        state_dir = _state_dir(args)
        if state_dir.exists() and not state_dir.is_dir():
            raise JournalError(f"the state directory {state_dir} is a file, not a folder")
        lock = StateLock(state_dir)
        lock.acquire("import")
        with lock, Journal(state_dir / "journal.sqlite") as journal:
            result = import_game(journal, events, state)
    except (ConfigError, JournalError, TableRunning) as error:
        print(f"cardtable import: {error}", file=sys.stderr)
        return 2
    outcome = f"{state.winner} won" if state.winner else "no winner"
    print(f"game {result.game_id}: {result.events} events, {len(state.hands)} hands, "
          f"{_score(state)}, {outcome}")
    if result.resumed_game is not None:
        print(f"the game in progress is now game {result.resumed_game}")
    return 0


def _score(state: Any) -> str:
    from table import Team

    return f"NS {state.scores[Team.NS]} EW {state.scores[Team.EW]}"


def _serve_until_stopped(max_seconds: float | None) -> None:
    """Block until SIGTERM, SIGINT or `max_seconds`."""
    import signal
    import threading

    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    stop.wait(max_seconds)


def allowed_hosts(given: list[str], configured: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The configured names and each --allow-host; ValueError naming one that is no DNS name."""
    from app.web.addresses import dns_name

    names = list(configured)
    for name in given:
        try:
            names.append(dns_name(name))
        except ValueError as error:
            raise ValueError(f"--allow-host {name[:80]!r}: {error}") from None
    return tuple(dict.fromkeys(names))


def club_password(args: argparse.Namespace) -> str | None:
    """The broker password from --password-file or the environment; ValueError naming why."""
    import os

    if args.password is not None:
        raise ValueError("--password on the command line is visible to every user of this "
                         f"machine: use --password-file FILE or ${PASSWORD_ENV}")
    if args.password_file is not None:
        try:
            text: str = args.password_file.read_text("utf-8")
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or "not UTF-8 text"
            raise ValueError(f"--password-file {args.password_file}: {reason}") from None
        password = text.rstrip("\r\n")
        if not password:
            raise ValueError(f"--password-file {args.password_file}: empty")
        return password
    return os.environ.get(PASSWORD_ENV) or None


def run_club(args: argparse.Namespace) -> int:
    """Serve the room's page from what the broker holds about every table."""
    from app.web.club import ClubListener, club_routes
    from app.web.server import WebContext, WebServer

    for name, port in (("--port", args.port), ("--broker-port", args.broker_port)):
        if not 0 <= port <= 65535:
            print(f"cardtable club: {name} {port}: expected 0 to 65535", file=sys.stderr)
            return 2
    try:
        password = club_password(args)
    except ValueError as error:
        print(f"cardtable club: {error}", file=sys.stderr)
        return 2
    if password is not None and args.user is None:
        print("cardtable club: a broker password without --user", file=sys.stderr)
        return 2
    try:
        names = allowed_hosts(args.allow_host)
    except ValueError as error:
        print(f"cardtable club: {error}", file=sys.stderr)
        return 2
    context = WebContext(None, hosts=names, **_stream_settings(args))
    host, port = ("127.0.0.1", 0) if args.screenshots else (args.host, args.port)
    try:
        server = WebServer(context, host, port, club_routes)
    except OSError as error:
        print(f"cardtable club: cannot listen on {args.host}:{args.port}: "
              f"{error.strerror or error}", file=sys.stderr)
        return 2
    listener = ClubListener(args.broker, args.broker_port, context.hub, tls=args.tls,
                            user=args.user, password=password).start()
    with server:
        if args.screenshots:
            listener.subscribed.wait(10.0)
            while context.hub.wait_newer(context.hub.latest()[0], 1.0) is not None:
                pass  # the retained messages are still coming in
            status = _take_screenshots(server.url, {"club": ""}, args.screenshots)
        else:
            print(f"the club of {args.broker}:{args.broker_port} on {server.url}", flush=True)
            _serve_until_stopped(args.max_seconds)
            status = 0
    listener.close()
    return status


def run_web(args: argparse.Namespace) -> int:
    """Serve the journal's games and follow its latest game live until stopped."""
    from app.config import ConfigError, load_config
    from app.web.server import WebContext, WebServer
    from app.web.sources import JournalWatcher

    try:
        config = load_config(args.config)
    except ConfigError as error:
        print(f"cardtable web: {error}", file=sys.stderr)
        return 2
    state_dir = (args.state_dir or config.state_dir).expanduser()
    port = config.web.port if args.port is None else args.port
    host = args.host or config.web.host
    if not 0 <= port <= 65535:
        print(f"cardtable web: --port {port}: expected 0 to 65535", file=sys.stderr)
        return 2
    try:
        names = allowed_hosts(args.allow_host, config.web.allowed_names)
    except ValueError as error:
        print(f"cardtable web: {error}", file=sys.stderr)
        return 2
    journal_path = state_dir / "journal.sqlite"
    context = WebContext(journal_path, hosts=names, **_stream_settings(args))
    if config.web.pin is not None and not args.screenshots:  # to the table beside, if running
        from app.control import CONTROL_SOCKET, SocketLink
        from app.web.pin import PinGate

        context.pins = PinGate(config.web.pin)
        context.corrections = SocketLink(state_dir / CONTROL_SOCKET)
    if args.screenshots:
        host, port = "127.0.0.1", 0
    try:
        server = WebServer(context, host, port)
    except OSError as error:
        print(f"cardtable web: cannot listen on {host}:{port}: {error.strerror or error}",
              file=sys.stderr)
        return 2
    watcher = JournalWatcher(journal_path, context.hub, config.seat_names).start()
    publisher = None
    if config.mqtt is not None and not args.screenshots:  # the table's events to the broker
        from app.mqtt import MqttPublisher

        publisher = MqttPublisher(config.mqtt, journal_path, seat_names=config.seat_names,
                                  public_url=config.web.public_url).start()
    with server:
        if args.screenshots:
            pages = {"live": "", "games": "#/games", "stats": "#/stats"}
            latest = _latest_game(journal_path)
            if latest is not None:
                pages["game"] = f"#/games/{latest}"
            status = _take_screenshots(server.url, pages, args.screenshots)
        else:
            print(f"serving {journal_path} on {server.url}", flush=True)
            _serve_until_stopped(args.max_seconds)
            status = 0
    watcher.stop()
    if publisher is not None:
        publisher.close()
    return status


def _stream_settings(args: argparse.Namespace) -> dict[str, Any]:
    from app.web.screenshots import SHORT_STREAMS

    return dict(SHORT_STREAMS) if args.screenshots else {}


def _latest_game(journal_path: Path) -> int | None:
    from app.journal import JournalError
    from app.web.history import read_only

    try:
        with read_only(journal_path) as journal:
            return journal.latest_game(imported=True)
    except JournalError:
        return None


def _take_screenshots(url: str, pages: dict[str, str], outdir: Path) -> int:
    from app.web.screenshots import ScreenshotError, screenshots

    try:
        written = screenshots(url, pages, outdir)
    except ScreenshotError as error:
        print(f"cardtable: {error}", file=sys.stderr)
        return 2
    print(f"screenshots: {outdir} ({len(written)} PNG files)")
    return 0
