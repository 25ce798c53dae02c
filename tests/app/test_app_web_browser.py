"""The page in a real browser: headless Chromium renders the live table and a game's history."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

from app.cli import main
from app.config import AppConfig
from app.controller import TableController
from app.journal import Journal
from app.run import TableApp
from app.script import parse_script_line, script_from_events
from app.web.server import WebServer
from app.web.sources import TableFeed
from table import GameStarted, Team, replay
from table.simulate import simulate_game
from tests.app.webrig import web_server

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="headless Chromium is not installed (apt-get install chromium)")
DEMO_LOG = Path(__file__).parents[2] / "app" / "data" / "demo_game.jsonl"
# Short streams: the browser's virtual clock stands still while a request is open, so each
# stream ends soon and the page reconnects, as it does after any drop.
SHORT_STREAMS = {"stream_s": 0.3, "retry_ms": 500}


def rendered(server: WebServer, page: str, profile: Path, size: str = "390,844") -> str:
    """The page's DOM once its script has run, as headless Chromium dumps it."""
    assert CHROMIUM is not None
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
         f"--window-size={size}", "--virtual-time-budget=3000", "--dump-dom", server.url + page],
        capture_output=True, text=True, timeout=120, check=True)
    return done.stdout


def text_of(dom: str, element: str) -> str:
    """The text inside the element with this id, tags removed."""
    match = re.search(rf'id="{element}"[^>]*>(.*?)</div>', dom, re.S)
    assert match, f"no #{element} in the page"
    return re.sub(r"<[^>]+>", "", match.group(1)).strip()


def test_the_live_page_follows_a_game_played_through_the_referee(tmp_path: Path) -> None:
    game = simulate_game(seed=41)
    start = game.events[0]
    assert isinstance(start, GameStarted)
    lines = script_from_events(game.events)
    with Journal(tmp_path / "journal.sqlite") as journal:
        controller = TableController(journal, start.rules, start.dealer)
        app = TableApp(AppConfig(state_dir=tmp_path, seat_names={"S": "Sue"}), controller)
        with web_server(journal.path, **SHORT_STREAMS) as server:
            app.listeners.append(TableFeed(app, server.context.hub))
            for number, line in enumerate(lines[:20], start=1):
                app.handle(parse_script_line(number, json.dumps(line)))

            dom: list[str] = []
            browser = threading.Thread(
                target=lambda: dom.append(rendered(server, "", tmp_path / "profile")))
            browser.start()
            assert server.context.hub.wait_listeners(1, 60)  # the page is live: play on
            for number, line in enumerate(lines[20:40], start=21):
                app.handle(parse_script_line(number, json.dumps(line)))
            browser.join()
    state = controller.state
    (page,) = dom
    assert f'data-seq="{len(state.log)}"' in page
    assert text_of(page, "score-NS") == str(state.scores[Team.NS])
    contract = state.hand.contract or state.completed[-1].contract
    assert contract is not None and f"{contract.seat} bid" in text_of(page, "contract")
    trick = (state.hand.tricks or state.completed[-1].tricks)[-1]
    for seat, card in trick.cards:
        assert f'data-card="{card.code}"' in page.split(f'id="seat-{seat.value}"')[1][:400]
    assert "Sue" in page
    assert ">connecting<" not in page  # the stream opened (and, between streams, reconnects)


def test_a_game_s_history_shows_its_hands_and_chart(tmp_path: Path) -> None:
    assert main(["import", str(DEMO_LOG), "--state-dir", str(tmp_path / "s")]) == 0
    state = replay(Journal(tmp_path / "s" / "journal.sqlite").events(1))
    with web_server(tmp_path / "s" / "journal.sqlite", **SHORT_STREAMS) as server:
        dom = rendered(server, "#/games/1", tmp_path / "profile")
        listed = rendered(server, "#/games", tmp_path / "profile")
    assert dom.count('class="box hand"') == len(state.hands)
    assert dom.count('class="grid bids"') == dom.count('class="grid tricks"') == len(state.hands)
    assert "<details" in dom and "<details open" not in dom  # each hand collapsed at first
    first = state.hands[0]
    assert all(f'data-card="{card.code}"' in dom for _, card in first.tricks[0].cards)
    assert dom.count("<polyline") == 2 and 'id="download"' in dom
    assert f"EW {state.scores[Team.EW]}" in dom
    assert 'href="#/games/1"' in listed and "EW won" in listed
    assert 'href="/api/games.csv"' in listed


def test_screenshots_of_a_page_at_phone_and_desktop_sizes(tmp_path: Path) -> None:
    from app.web.screenshots import SIZES, screenshots

    assert main(["import", str(DEMO_LOG), "--state-dir", str(tmp_path / "s")]) == 0
    with web_server(tmp_path / "s" / "journal.sqlite", **SHORT_STREAMS) as server:
        written = screenshots(server.url, {"game": "#/games/1"}, tmp_path / "shots")
    assert [path.name for path in written] == ["game_phone.png", "game_desktop.png"]
    for path, (width, height) in zip(written, SIZES.values(), strict=True):
        header = path.read_bytes()[:24]
        assert header[:8] == b"\x89PNG\r\n\x1a\n"
        assert (int.from_bytes(header[16:20]), int.from_bytes(header[20:24])) == (width, height)


def test_the_club_page_renders_every_table_and_the_standings(tmp_path: Path) -> None:
    from app.web.club import Club, club_routes
    from app.web.live import live_snapshot
    from app.web.server import WebContext

    club = Club()
    game = simulate_game(seed=43)
    state = replay(game.events)
    assert state.winner is not None
    club.take("cardtable/t1/status", b"online")
    club.take("cardtable/t1/state", json.dumps(live_snapshot(state, 1)).encode())
    club.take("cardtable/t1/games/1", json.dumps({
        "id": 1, "winner": state.winner.value, "hands": len(state.hands),
        "finished_at": "2026-12-01T21:30:00+00:00",
        "score": {t.value: v for t, v in state.scores.items()},
        "players": {"N": "Ann", "E": "Bob", "S": "Cy", "W": "Di"}}).encode())
    club.take("cardtable/t2/status", b"offline")
    context = WebContext(None, stream_s=0.3, retry_ms=500)
    context.hub.publish(club.snapshot())
    with WebServer(context, "127.0.0.1", 0, club_routes) as server:
        dom = rendered(server, "", tmp_path / "profile")
    assert 'id="table-t1"' in dom and 'id="table-t2"' in dom and "offline" in dom
    assert "Club night" in dom and 'class="box night"' in dom and 'href="/api/club.csv"' in dom
    assert f"{state.winner.value} won" in dom
    assert "Ann &amp; Cy" in dom and "Bob &amp; Di" in dom
    assert dom.index("Ann &amp; Cy" if state.winner is Team.NS else "Bob &amp; Di") < dom.index(
        "Bob &amp; Di" if state.winner is Team.NS else "Ann &amp; Cy")


def test_a_player_corrects_a_card_from_the_phone_with_the_pin(tmp_path: Path) -> None:
    from app.config import WebConfig
    from app.web.service import table_services
    from table import Card, CardCorrected, Rules, Seat
    from tests.app.cdprig import Browser
    from tests.app.tablerig import bid_hand, play

    pin = "4711"
    with Journal(tmp_path / "journal.sqlite") as journal:
        controller = TableController(journal, Rules(), Seat.N)
        bid_hand(controller, "E", 3, "H")
        play(controller, "E AS", "S KS", "W QS", "N 9S")  # W's queen was in fact the ten
        config = AppConfig(state_dir=tmp_path,
                           web=WebConfig(host="127.0.0.1", port=0, pin=pin))
        app = TableApp(config, controller)
        with table_services(app) as server:
            assert server is not None
            said: dict[str, str] = {}
            failed: list[BaseException] = []

            def player() -> None:
                browser = Browser(tmp_path / "profile")
                try:
                    browser.open(server.url)
                    browser.wait_for("!document.getElementById('correction').hidden"
                                     " && document.body.dataset.seq")
                    browser.choose("#c-action", "correct")
                    browser.choose("#c-seat", "W")
                    browser.type_into("#c-trick", "1")
                    browser.choose("#c-card", "TS")
                    result = "document.getElementById('correction-result')"
                    done = f"{result}.dataset.status && {result}.textContent !== 'sending…'"
                    for name, typed in (("wrong", "1234"), ("right", pin), ("again", pin)):
                        browser.evaluate(f"delete {result}.dataset.status")
                        browser.type_into("#c-pin", typed)
                        browser.click("#c-send")
                        said[name] = browser.wait_for(done, f"{result}.textContent")
                        if name == "right":
                            said["shown"] = browser.wait_for(
                                "document.querySelector('#seat-W [data-card=\"TS\"]')",
                                "document.getElementById('trick').textContent")
                finally:
                    browser.close()

            def run_player() -> None:
                try:
                    player()
                except BaseException as error:  # named in the test's thread
                    failed.append(error)
                    app.items.put(None)  # type: ignore[arg-type]  # ends the loop's turns below

            thread = threading.Thread(target=run_player)
            thread.start()
            for _ in range(2):  # the main loop's turns: the right PIN's request, then again
                item = app.items.get(timeout=120)
                if item is None:
                    break
                app.handle(item)
            thread.join(120)
            assert not failed, failed
    assert said["wrong"].startswith("Refused: wrong PIN")
    ten = Card.parse("TS")
    assert said["right"] == f"Accepted: W's card of trick 1 (hand 1) corrected to {ten}"
    assert said["again"].startswith("Refused by the referee: cannot correct W's card in trick 1")
    assert controller.events[-1] == CardCorrected(1, 1, Seat.W, Card.parse("TS"))
    assert "W10\u2660" in said["shown"]  # the live page follows: W's card is the ten


MARKUP = '<img id="pwned" src="x">'


def test_markup_in_any_club_field_is_shown_as_text(tmp_path: Path) -> None:
    from app.web.club import club_routes
    from app.web.server import WebContext

    state = {"game": MARKUP, "seq": MARKUP, "phase": MARKUP, "target": MARKUP,
             "score": {"NS": MARKUP, "EW": MARKUP}, "winner": None, "turn": MARKUP,
             "hand": MARKUP, "contract": {"seat": MARKUP, "bid": MARKUP, "trump": MARKUP},
             "alarms": [{"seat": MARKUP}]}
    room = {"tables": {"t1": {"status": MARKUP, "state": state}},
            "finished": [{"table": MARKUP, "id": MARKUP, "score": {"NS": MARKUP, "EW": MARKUP},
                          "winner": MARKUP, "hands": MARKUP}],
            "standings": [{"pair": MARKUP, "played": MARKUP, "won": MARKUP,
                           "points_for": MARKUP, "points_against": MARKUP}]}
    context = WebContext(None, stream_s=0.3, retry_ms=500)
    context.hub.publish(room)  # past the schema, as if it had let these through
    with WebServer(context, "127.0.0.1", 0, club_routes) as server:
        dom = rendered(server, "", tmp_path / "profile")
    assert '<img id="pwned"' not in dom
    assert dom.count("&lt;img") >= 20  # every field shown, as text


def test_markup_in_any_live_field_is_shown_as_text(tmp_path: Path) -> None:
    from app.web.live import live_snapshot

    game = simulate_game(seed=44)
    snapshot = live_snapshot(replay(game.events[:30]), 1)
    for key in ("game", "seq", "hand", "target", "phase", "turn", "dealer"):
        snapshot[key] = MARKUP
    snapshot["score"] = snapshot["tricks_won"] = {"NS": MARKUP, "EW": MARKUP}
    snapshot["seats"] = dict.fromkeys("NESW", MARKUP)
    snapshot["bids"] = [[MARKUP, MARKUP]]
    snapshot["alarms"] = [dict.fromkeys(("seat", "trick", "led", "card", "proved_by_trick",
                                         "proved_by_card", "hand"), MARKUP)]
    with web_server(tmp_path / "journal.sqlite", **SHORT_STREAMS) as server:
        server.context.hub.publish(snapshot)
        dom = rendered(server, "", tmp_path / "profile")
    assert '<img id="pwned"' not in dom
    assert dom.count("&lt;img") >= 15


def test_no_page_is_wider_than_a_phone(tmp_path: Path) -> None:
    from app.web.club import Club, club_routes
    from app.web.live import live_snapshot
    from app.web.server import WebContext
    from tests.app.cdprig import Browser

    long_name = "Bartholomew-Maximilian von Longname-Smythe"
    path = tmp_path / "s" / "journal.sqlite"
    assert main(["import", str(DEMO_LOG), "--state-dir", str(tmp_path / "s")]) == 0
    game = simulate_game(seed=45)
    snapshot = live_snapshot(replay(game.events[:40]), 1,
                             seat_names=dict.fromkeys("NESW", long_name))
    club = Club()
    club.take("cardtable/a-very-long-table-name-indeed/state", json.dumps(snapshot).encode())
    for number in range(1, 4):
        club.take(f"cardtable/t1/games/{number}", json.dumps({
            "id": number, "winner": "NS", "hands": 9, "score": {"NS": 32, "EW": 12},
            "players": dict.fromkeys("NESW", long_name)}).encode())
    club_context = WebContext(None, stream_s=0.3, retry_ms=500)
    club_context.hub.publish(club.snapshot())
    widths: dict[str, tuple[int, int]] = {}
    with web_server(path, **SHORT_STREAMS) as server, \
            WebServer(club_context, "127.0.0.1", 0, club_routes) as club_server:
        server.context.hub.publish(snapshot)
        browser = Browser(tmp_path / "profile")
        try:
            for name, url, ready in (
                    ("live", server.url, "document.body.dataset.seq"),
                    ("games", server.url + "?games#/games", "document.getElementById('games')"),
                    ("game", server.url + "?game#/games/1", "document.getElementById('chart')"),
                    ("stats", server.url + "?stats#/stats", "document.getElementById('stats')"),
                    ("club", club_server.url, "document.getElementById('standings')")):
                browser.open(url)
                browser.wait_for(f"!!({ready})")
                widths[name] = (browser.evaluate("document.documentElement.scrollWidth"),
                                browser.evaluate("window.innerWidth"))
        finally:
            browser.close()
    assert widths and all(scroll <= inner for scroll, inner in widths.values()), widths


def test_a_club_tile_links_its_table_s_page_and_only_a_plain_http_address(
    tmp_path: Path,
) -> None:
    from app.web.club import Club, club_routes
    from app.web.live import live_snapshot
    from app.web.server import WebContext
    from tests.app.cdprig import Browser

    page = "http://t1.club.example:8080/?from=club"
    snapshot = live_snapshot(replay(simulate_game(seed=46).events[:20]), 1)
    club = Club()
    assert club.take("cardtable/t1/state", json.dumps({**snapshot, "url": page}).encode())
    assert club.take("cardtable/t2/state", json.dumps({**snapshot, "url": "javascript:alert(1)"}
                                                      ).encode())
    assert club.take("cardtable/t3/state", json.dumps(snapshot).encode())
    room = club.snapshot()
    for table, url in (("t4", "javascript:alert(1)"),  # past the schema, as if it let them by
                       ("t5", 'http://t5.lan/"><img id="pwned" src="x">'),
                       ("t6", "data:text/html,<script>alert(1)</script>")):
        room["tables"][table] = {"status": "online", "state": {**snapshot, "url": url}}
    context = WebContext(None, stream_s=0.3, retry_ms=500)
    context.hub.publish(room)
    with WebServer(context, "127.0.0.1", 0, club_routes) as server:
        browser = Browser(tmp_path / "profile")
        try:
            browser.open(server.url)
            browser.wait_for("!!document.getElementById('table-t6')")
            links = browser.evaluate(
                "[...document.querySelectorAll('#tables a')].map((a) => [a.closest('.box').id,"
                " a.getAttribute('href'), a.getAttribute('rel'), a.textContent])")
            names = browser.evaluate(
                "[...document.querySelectorAll('#tables h2')].map((h) => h.textContent)")
            pwned = browser.evaluate("document.getElementById('pwned') !== null")
        finally:
            browser.close()
    assert links == [["table-t1", page, "noopener", "t1"]]
    assert [name.split(" · ")[0] for name in names] == ["t1", "t2", "t3", "t4", "t5", "t6"]
    assert not pwned
