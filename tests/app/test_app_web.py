"""The web page: the journal's games over HTTP and the live table over Server-Sent Events."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app.cli import main
from app.config import AppConfig, WebConfig
from app.controller import TableController
from app.journal import Journal
from app.run import TableApp
from app.script import parse_script_line, script_from_events
from app.web.service import table_services
from app.web.sources import JournalWatcher, TableFeed
from drivers import inputs
from table import CardPlayed, Event, GameStarted, Rules, Seat, replay
from table.simulate import simulate_game
from table.summary import summary
from tests.app.webrig import EventStream, get, get_json, web_server

DEMO_LOG = Path(__file__).parents[2] / "app" / "data" / "demo_game.jsonl"


def imported(state_dir: Path, *logs: Path) -> Path:
    """A journal holding the given logs, imported through the command line."""
    for log in logs:
        assert main(["import", str(log), "--state-dir", str(state_dir)]) == 0
    return state_dir / "journal.sqlite"


def simulated_logs(tmp_path: Path, seeds: list[int]) -> list[Path]:
    """Whole simulated games, one log file each."""
    from table.log import dump_events

    paths = []
    for seed in seeds:
        path = tmp_path / f"sim{seed}.jsonl"
        path.write_text(dump_events(simulate_game(seed=seed, renege_rate=0.04).events))
        paths.append(path)
    return paths


def renege_game() -> list[Event]:
    """A simulated game cut just after its first renege is proven."""
    for seed in range(100):
        events = simulate_game(seed=seed, renege_rate=0.08).events
        state = replay(events[:1])
        for number, event in enumerate(events[1:], start=2):
            state.apply(event)
            if state.newly_proven:
                return events[:number]
    raise AssertionError("no simulated game with a renege")


def test_the_demo_game_is_listed_and_served(tmp_path: Path) -> None:
    path = imported(tmp_path / "s", DEMO_LOG)
    with web_server(path) as server:
        (game,) = get_json(server, "/api/games")
        state = replay(Journal(path).events(1))
        assert game["id"] == 1 and game["started_at"]
        assert game["score"] == {team.value: score for team, score in state.scores.items()}
        assert game["winner"] == (state.winner.value if state.winner else None)
        assert game["hands"] == len(state.hands) and game["events"] == len(state.log)
        status, headers, page = get(server, "/")
        assert status == 200 and headers["Content-Type"].startswith("text/html")
        assert b'src="/static/app.js"' in page
        for asset, kind in (("app.js", "text/javascript"), ("style.css", "text/css")):
            status, headers, body = get(server, f"/static/{asset}")
            assert status == 200 and headers["Content-Type"].startswith(kind) and body
        assert not re.search(rb"https?://", page + get(server, "/static/app.js")[2]), "no CDN"


@pytest.mark.parametrize("seeds", [[3], [11, 12]])
def test_each_game_s_hands_chart_and_log(tmp_path: Path, seeds: list[int]) -> None:
    logs = simulated_logs(tmp_path, seeds)
    path = imported(tmp_path / "s", *logs)
    with web_server(path) as server:
        assert [g["id"] for g in get_json(server, "/api/games")] == list(range(1, len(seeds) + 1))
        for game_id, log in enumerate(logs, start=1):
            state = replay(Journal(path).events(game_id))
            detail = get_json(server, f"/api/games/{game_id}")
            expected = summary(state)
            assert detail["score"] == expected["score"] and detail["winner"] == expected["winner"]
            for shown, hand in zip(detail["hands"], expected["hands"], strict=True):
                for key in ("bids", "contract", "tricks", "reneges", "corrections", "points"):
                    assert shown[key] == hand[key]
                assert shown["account"][0].startswith(f"Hand {hand['number']}")
            assert detail["hands"][-1]["score_after"] == expected["score"]
            assert len(detail["running"]) == len(state.hands) + 1
            svg = detail["chart_svg"]
            assert svg.startswith("<svg") and svg.count("<polyline") == 2
            ns_points = re.search(r'class="team-NS"[^>]*points="([^"]+)"', svg)
            assert ns_points and len(ns_points.group(1).split()) == len(state.hands) + 1
            status, headers, body = get(server, f"/api/games/{game_id}/chart.svg")
            assert status == 200 and headers["Content-Type"].startswith("image/svg+xml")
            assert body.decode() == svg
            status, headers, body = get(server, f"/api/games/{game_id}/log")
            assert status == 200
            assert headers["Content-Disposition"] == f'attachment; filename="game-{game_id}.jsonl"'
            assert body.decode() == log.read_text()


def test_the_web_is_read_only_and_names_what_is_missing(tmp_path: Path) -> None:
    path = imported(tmp_path / "s", DEMO_LOG)
    before = path.read_bytes()
    with web_server(path) as server:
        for method in ("POST", "PUT", "DELETE"):
            status, _, body = get(server, "/api/games", method=method)
            assert status == 405 and b"read-only" in body
        assert get(server, "/api/games/9")[0] == 404
        assert b"no game 9" in get(server, "/api/games/9/log")[2]
        assert get(server, "/nothing")[0] == 404
        assert get(server, "/static/../server.py")[0] == 404
    assert path.read_bytes() == before
    with web_server(tmp_path / "none" / "journal.sqlite") as server:
        status, _, body = get(server, "/api/games")
        assert status == 404 and b"no journal" in body
    assert not (tmp_path / "none").exists()


def test_statistics_per_seat_count_contracts_and_reneges(tmp_path: Path) -> None:
    logs = simulated_logs(tmp_path, [21, 22, 23])
    path = imported(tmp_path / "s", *logs)
    with web_server(path) as server:
        stats = get_json(server, "/api/stats")
    assert stats["games"] == 3
    states = [replay(Journal(path).events(n)) for n in (1, 2, 3)]
    hands = [hand for state in states for hand in state.hands]
    for seat in "NESW":
        reneges = sum(1 for hand in hands for r in hand.reneges if r.seat.value == seat)
        assert stats["seats"][seat]["reneges"] == reneges
        played = [h for h in hands if h.contract and h.contract.seat.value == seat
                  and h.result.value == "played"]
        counted = sum(r["made"] + r["set"] for r in stats["seats"][seat]["bids"].values())
        assert counted == len(played)


MISREAD_SCRIPT: list[dict[str, object]] = [
    {"press": "bid", "seat": "E", "bid": 3},
    {"press": "pass"}, {"press": "pass"}, {"press": "pass"},
    {"press": "trump", "suit": "H"},
    {"unreadable": True, "seat": "E"},
    {"wait": 3.5},
    {"touch": "card", "card": "JH"},
    {"card": "AS", "seat": "S"},  # the camera's reading of S's Q♥
    {"card": "9H", "seat": "W"},
    {"touch": "correct"},
    {"touch": "played", "hand": 1, "trick": 1, "seat": "S"},
    {"touch": "card", "card": "QH"},
    {"touch": "button", "button": "confirm"},
]


def test_statistics_count_the_cards_the_camera_failed_on(tmp_path: Path) -> None:
    script, config = tmp_path / "misreads.jsonl", tmp_path / "table.toml"
    script.write_text("".join(json.dumps(line) + "\n" for line in MISREAD_SCRIPT))
    config.write_text("[web]\nenabled = false\n")
    assert main(["run", "--script", str(script), "--state-dir", str(tmp_path / "s"),
                 "--config", str(config), "--no-display"]) == 0
    with web_server(tmp_path / "s" / "journal.sqlite") as server:
        seats = get_json(server, "/api/stats")["seats"]
        detail = get_json(server, "/api/games/1")
    assert (seats["E"]["unreadable"], seats["E"]["misread"]) == (1, 0)
    assert (seats["S"]["unreadable"], seats["S"]["misread"]) == (0, 1)
    assert seats["W"]["unreadable"] == seats["W"]["misread"] == 0
    assert detail["hands"][0]["corrections"] == [
        {"trick": 1, "seat": "S", "was": "AS", "card": "QH"}]
    assert any("CORRECTED" in line for line in detail["hands"][0]["account"])


def dealer_of(events: list[Event]) -> Seat:
    """The first dealer of a log."""
    start = events[0]
    assert isinstance(start, GameStarted)
    return start.dealer


def play_through(app: TableApp, events: list[Event]) -> None:
    """Feed the presses and sightings that make `events` happen to the running table."""
    for number, line in enumerate(script_from_events(events), start=1):
        app.handle(parse_script_line(number, json.dumps(line)))


def test_the_live_stream_follows_the_table_event_by_event(tmp_path: Path) -> None:
    events = renege_game()
    with Journal(tmp_path / "journal.sqlite") as journal:
        controller = TableController(journal, Rules(), dealer_of(events))
        app = TableApp(AppConfig(state_dir=tmp_path, seat_names={"N": "Ann"}), controller)
        with web_server(journal.path) as server:
            app.listeners.append(TableFeed(app, server.context.hub))
            stream = EventStream(server)
            first = stream.next()
            assert first["seq"] == 1 and first["seats"]["N"] == "Ann" and first["bids"] == []
            lines = script_from_events(events)
            seen = [first]
            for number, line in enumerate(lines, start=1):
                before = len(controller.state.log)
                app.handle(parse_script_line(number, json.dumps(line)))
                if len(controller.state.log) != before:
                    seen.append(stream.until(len(controller.state.log)))
            assert [s["seq"] for s in seen] == sorted({s["seq"] for s in seen})
            assert stream.ids == sorted(stream.ids)
            state = controller.state
            last = seen[-1]
            assert last["score"] == {t.value: v for t, v in state.scores.items()}
            assert last["turn"] == (state.turn.value if state.turn else None)
            trick = state.hand.tricks[-1]
            assert last["trick"]["cards"] == [[s.value, c.code] for s, c in trick.cards]
            (renege,) = state.newly_proven
            (alarm,) = last["alarms"]
            assert (alarm["seat"], alarm["card"]) == (renege.seat.value, renege.card.code)
            assert alarm["proved_by_card"] == renege.proved_by_card.code
            with_contract = [s for s in seen if s["contract"]]
            contract = state.hand.contract
            assert contract is not None and with_contract[-1]["contract"]["seat"] == contract.seat
            assert any(s["bids"] for s in seen)
            app.handle(inputs.ConfirmPressed(None))  # OK: the renege stands, the alarm ends
            assert stream.next()["alarms"] == []
            stream.close()


def test_problems_standing_at_the_table_are_shown(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        app = TableApp(AppConfig(state_dir=tmp_path), TableController(journal, Rules(), Seat.N))
        with web_server(journal.path) as server:
            app.listeners.append(TableFeed(app, server.context.hub))
            stream = EventStream(server)
            assert stream.next()["problems"] == []
            app.handle(inputs.CameraFailed("usb:0", "no frames for 5 s"))
            assert stream.next()["problems"] == [
                {"kind": "disconnected", "device": "camera", "reason": "no frames for 5 s"}]
            app.handle(inputs.CameraReopened("usb:0"))
            assert stream.next()["problems"] == []
            for press in (inputs.BidPressed("E", 3), inputs.PassPressed("S"),
                          inputs.PassPressed("W"), inputs.PassPressed("N"),
                          inputs.TrumpPressed("E", "H")):
                app.handle(press)
            assert stream.until(6)["problems"] == []
            app.handle(parse_script_line(1, '{"unreadable": true, "seat": "S"}'))
            assert stream.next()["problems"] == [{"kind": "unreadable_card", "seat": "S"}]
            stream.close()


def test_the_journal_watcher_follows_a_table_in_another_process(tmp_path: Path) -> None:
    game = simulate_game(seed=31)
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        controller = TableController(journal, Rules(), dealer_of(game.events))
        app = TableApp(AppConfig(state_dir=tmp_path), controller)
        with web_server(path) as server:
            watcher = JournalWatcher(path, server.context.hub, poll_s=0.01).start()
            stream = EventStream(server)
            assert stream.next()["seq"] == 1
            cards = [e for e in game.events if isinstance(e, CardPlayed)][:8]
            play_through(app, game.events[: game.events.index(cards[-1]) + 1])
            last = stream.until(len(controller.state.log))
            assert last["seq"] == len(controller.state.log)
            assert last["trick"]["cards"][-1] == [cards[-1].seat.value, cards[-1].card.code]
            watcher.stop()
            stream.close()


def test_cardtable_run_serves_the_page_beside_the_table(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        config = AppConfig(state_dir=tmp_path, web=WebConfig(host="127.0.0.1", port=0))
        app = TableApp(config, TableController(journal, Rules(), Seat.N))
        with table_services(app):
            (feed,) = [listener for listener in app.listeners if isinstance(listener, TableFeed)]
            app.handle(inputs.BidPressed("E", 4))
            _, data = feed.hub.latest()
            assert json.loads(data)["bids"] == [["E", 4]]
        busy = AppConfig(state_dir=tmp_path, web=WebConfig(enabled=False))
        app = TableApp(busy, TableController(journal, Rules(), Seat.N))
        with table_services(app):
            assert app.listeners == []
    with web_server(tmp_path / "journal.sqlite") as server:
        taken = AppConfig(state_dir=tmp_path, web=WebConfig(host="127.0.0.1", port=server.port))
        with Journal(tmp_path / "journal.sqlite") as journal:
            app = TableApp(taken, TableController(journal, Rules(), Seat.N))
            with table_services(app):
                assert app.listeners == []
    assert "the web page is off: cannot listen on 127.0.0.1" in capsys.readouterr().err


def test_a_card_seen_reaches_the_page(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite") as journal:
        app = TableApp(AppConfig(state_dir=tmp_path), TableController(journal, Rules(), Seat.N))
        with web_server(journal.path) as server:
            app.listeners.append(TableFeed(app, server.context.hub))
            stream = EventStream(server)
            stream.next()
            for press in (inputs.BidPressed("E", 3), inputs.PassPressed("S"),
                          inputs.PassPressed("W"), inputs.PassPressed("N"),
                          inputs.TrumpPressed("E", "H")):
                app.handle(press)
            app.handle(parse_script_line(1, '{"card": "JH", "seat": "E"}'))
            shown = stream.until(7)
            assert shown["trick"] == {"number": 1, "leader": "E", "cards": [["E", "JH"]],
                                      "winner": None}
            assert shown["turn"] == "S" and shown["contract"]["trump"] == "H"
            stream.close()


def test_cardtable_web_serves_an_imported_game(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys
    import urllib.request

    from tests.app.mqttrig import free_port

    imported(tmp_path / "s", DEMO_LOG)
    port = free_port()
    command = [sys.executable, "-m", "app", "web", "--state-dir", str(tmp_path / "s"),
               "--host", "127.0.0.1", "--port", str(port)]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              cwd=Path(__file__).parents[2])
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert line.strip().endswith(f"on http://127.0.0.1:{port}/"), line
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=10) as answer:
            (game,) = json.loads(answer.read())
        assert (game["id"], game["winner"], game["hands"]) == (1, "EW", 7)
        assert set(game) >= {"id", "started_at", "score", "winner", "hands"}
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as answer:
            assert b"<title>cardtable</title>" in answer.read()
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(20) == 0


def test_cardtable_web_names_a_bad_port_or_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["web", "--state-dir", str(tmp_path), "--port", "70000"]) == 2
    assert "--port 70000" in capsys.readouterr().err
    config = tmp_path / "table.toml"
    config.write_text("[web]\nport = 'http'\n")
    assert main(["web", "--config", str(config)]) == 2
    assert "[web] port = 'http'" in capsys.readouterr().err


def test_players_are_counted_by_the_names_kept_with_each_game(tmp_path: Path) -> None:
    import csv
    import io

    from table.seats import SEATS

    names = {"N": "Ann", "E": "=HYPERLINK(1)", "S": "Cy", "W": "Di"}
    events = simulate_game(seed=24, renege_rate=0.06).events
    path = imported(tmp_path / "s", *simulated_logs(tmp_path, [25]))  # game 1: nobody named
    with Journal(path) as journal:
        journal.start_game(events[0])  # game 2, played at the table with [seats] named
        controller = TableController(journal, Rules(), dealer_of(events))
        assert controller.game_id == 2
        app = TableApp(AppConfig(state_dir=tmp_path, seat_names=names), controller)
        play_through(app, events)
        state = controller.state
        assert state.winner is not None
    with web_server(path) as server:
        found = get_json(server, "/api/players")
        status, headers, body = get(server, "/api/games.csv")
    rows = {p["name"]: p for p in found["players"]}
    assert set(rows) == set(names.values())  # game 1's unnamed seats count for nobody
    for seat in SEATS:
        row = rows[names[seat.value]]
        assert (row["games"], row["wins"]) == (1, int(state.winner is seat.team))
        assert row["reneges"] == sum(1 for h in state.hands for r in h.reneges if r.seat is seat)
        played = [h for h in state.hands if h.contract and h.contract.seat is seat
                  and h.result.value == "played"]
        assert row["made"] + row["set"] == len(played)
    assert found["chart_svg"].count('class="won"') == 4 and "&lt;" not in found["chart_svg"]
    assert status == 200 and headers["Content-Type"].startswith("text/csv")
    assert headers["Content-Disposition"] == 'attachment; filename="games.csv"'
    lines = list(csv.DictReader(io.StringIO(body.decode())))
    assert [line["game"] for line in lines] == ["1", "2"]
    assert lines[0]["ns_players"] == "N & S"
    assert lines[1]["ns_players"] == "Ann & Cy"
    assert lines[1]["ew_players"] == "'=HYPERLINK(1) & Di"  # never a formula in a spreadsheet
    assert lines[1]["winner"] == state.winner.value
    assert int(lines[1]["hands"]) == len(state.hands)
