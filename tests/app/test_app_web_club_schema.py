"""The club's schema: what a table publishes passes whole, anything else is dropped unseen."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app.web.club import Club, standings
from app.web.club_schema import MAX_PAYLOAD, GameResult, TableState, checked
from app.web.live import live_snapshot
from table import replay
from table.simulate import simulate_game

GOOD_GAME = {"id": 1, "started_at": "2026-12-01T19:00:00", "finished_at": None, "winner": "NS",
             "score": {"NS": 33, "EW": 20}, "hands": 6,
             "players": {"N": "Ann", "E": "Bob", "S": "Cy", "W": "Di"}}


def deep(levels: int) -> bytes:
    """A JSON list nested `levels` deep."""
    return b"[" * levels + b"]" * levels


BAD_STATES: list[bytes] = [
    b"42", b"null", b"[]", b"not json", b"\xff\xfe", deep(100_000),
    json.dumps({"score": {"NS": "abc", "EW": 1}}).encode(),
    b"{" + b'"a": 1, ' * (MAX_PAYLOAD // 8) + b'"b": 2}',
]


def a_state(seed: int = 43, events: int | None = None) -> dict[str, Any]:
    """The live view a table publishes, midway through a simulated game or at its end."""
    game = simulate_game(seed=seed, renege_rate=0.08)
    state = replay(game.events[:events] if events else game.events)
    return live_snapshot(state, 3, seat_names={"N": "Ann <b>"})


def test_what_a_table_publishes_passes_whole() -> None:
    for events in (1, 15, 60, None):
        snapshot = a_state(events=events)
        assert checked(TableState, json.dumps(snapshot).encode()) == snapshot
    assert checked(GameResult, json.dumps(GOOD_GAME).encode()) == GOOD_GAME


def test_a_bad_state_or_game_is_dropped_and_what_was_known_stays() -> None:
    club = Club()
    good = a_state(events=30)
    assert club.take("cardtable/t1/state", json.dumps(good).encode())
    assert club.take("cardtable/t1/games/1", json.dumps(GOOD_GAME).encode())
    before = club.snapshot()
    bad_games = [
        {**GOOD_GAME, "score": {"NS": "abc", "EW": 3}},
        {**GOOD_GAME, "id": "<img src=x onerror=alert(1)>"},
        {**GOOD_GAME, "hands": 1.5}, {**GOOD_GAME, "winner": "<script>"},
        {**GOOD_GAME, "players": {"N": "x" * 10_000}}, {**GOOD_GAME, "score": [1, 2]},
    ]
    for payload in BAD_STATES:
        assert not club.take("cardtable/t1/state", payload)
    for game in bad_games:
        assert not club.take("cardtable/t1/games/1", json.dumps(game).encode())
    for topic, payload in (("cardtable/t1/status", b"<b>online</b>"),
                           ("cardtable/<script>/state", json.dumps(good).encode()),
                           ("cardtable/t1/games/1e3", json.dumps(GOOD_GAME).encode())):
        assert not club.take(topic, payload)
    assert club.snapshot() == before
    assert club.rejected == len(BAD_STATES) + len(bad_games) + 2


UNSAFE_URLS: list[object] = [
    "javascript:alert(1)", "JavaScript:alert(document.cookie)", "data:text/html,<b>x</b>",
    "vbscript:msgbox(1)", 'http://t1.lan/" onmouseover="alert(1)', "http://t1.lan/<script>",
    "http://t1.lan/'", "http://ann:secret@t1.lan/", "//t1.lan/", "http:alert(1)",
    "http://t1.lan/" + "a" * 300, "http://t 1.lan/", "http://t1.lan/\u2028", 42, None,
    ["http://t1.lan/"], {"href": "http://t1.lan/"},
]


def test_a_table_s_page_address_is_taken_only_as_a_plain_http_url() -> None:
    club = Club()
    for url in ("http://cardtable.local:8080/", "https://t1.club.example/live?x=1#top",
                "http://192.168.1.20:8080/"):
        assert club.take("cardtable/t1/state", json.dumps({**a_state(events=9), "url": url}
                                                          ).encode())
        assert club.snapshot()["tables"]["t1"]["state"]["url"] == url
    for unsafe in UNSAFE_URLS:  # the state is taken, the address dropped
        state = {**a_state(events=10), "url": unsafe}
        assert club.take("cardtable/t1/state", json.dumps(state).encode()), unsafe
        shown = club.snapshot()["tables"]["t1"]["state"]
        assert "url" not in shown and shown["seq"] == state["seq"], unsafe
    assert club.rejected == 0


def test_a_bad_first_message_leaves_the_table_waiting_for_a_good_one() -> None:
    club = Club()
    assert not club.take("cardtable/t1/state", b"42")
    assert not club.take("cardtable/t1/games/1",
                         json.dumps({**GOOD_GAME, "score": {"NS": "abc"}}).encode())
    room = club.snapshot()
    assert room["tables"] == {} and room["finished"] == [] and room["standings"] == []


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(sorted(GOOD_GAME) + sorted(a_state(events=40))),
                       json_values, max_size=8),
       st.sampled_from(["state", "games/2", "status"]))
def test_no_message_crashes_the_club_or_its_standings(fields: dict[str, Any], kind: str) -> None:
    club = Club()
    base = GOOD_GAME if kind.startswith("games") else a_state(events=40)
    club.take(f"cardtable/t1/{kind}", json.dumps({**base, **fields}).encode())
    room = club.snapshot()
    assert standings(room["finished"]) == room["standings"]
    json.dumps(room)


URL_TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=60) | st.builds(
    "".join, st.lists(st.sampled_from(["http://", "https://", "javascript:", "t1.lan", ":8080",
                                       "/", "@", '"', "'", "<", ">", " ", "%22", "a", "?x=1",
                                       "#", "[::1]", "\u2028", "\\"]), max_size=8))


@settings(max_examples=400, deadline=None)
@given(URL_TEXT)
def test_a_kept_page_address_is_always_a_plain_http_one(url: str) -> None:
    state = {**a_state(events=20), "url": url}
    kept = checked(TableState, json.dumps(state).encode()).get("url")
    if kept is not None:
        assert kept == url and url.lower().startswith(("http://", "https://"))
        assert not set(url) & set("\"'<>` \\\u2028") and "@" not in url.split("/")[2]
        assert len(url) <= 200 and url.isascii() and url.isprintable()
