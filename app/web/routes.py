"""The table's routes: the phone page, the journal's games as JSON, the live stream and
corrections with the PIN."""

from __future__ import annotations

import asyncio
import json
import math
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from app.control import Reply, RequestError, TableUnavailable
from app.journal import Journal, JournalError
from app.web.history import chart_svg, game_detail, games_list, read_only, seat_statistics
from app.web.players import games_csv, player_statistics, players_chart_svg
from app.web.replies import (
    BODY_S,
    WebContext,
    as_json,
    event_stream,
    json_text,
    static_routes,
    text,
)

MAX_BODY = 4096
READ_ONLY = "corrections from this page are off: the table's config sets no [web] pin"
NO_JOURNAL = "no journal yet: no game has been played or imported here\n"


def table_routes(context: WebContext) -> list[web.RouteDef]:
    """Every route of the table's page."""

    async def corrections(request: web.Request) -> web.Response:
        return as_json({"enabled": context.correctable})

    async def live(request: web.Request) -> web.Response:
        return json_text(context.hub.latest()[1] or "null")

    async def events(request: web.Request) -> web.StreamResponse:
        return await event_stream(request, context)

    async def games(request: web.Request) -> web.Response:
        return await from_journal(context, lambda journal: as_json(games_list(journal)))

    async def stats(request: web.Request) -> web.Response:
        return await from_journal(context, lambda journal: as_json(seat_statistics(journal)))

    async def players(request: web.Request) -> web.Response:
        def answer(journal: Journal) -> web.Response:
            found = player_statistics(journal)
            return as_json({**found, "chart_svg": players_chart_svg(found["players"])})
        return await from_journal(context, answer)

    async def csv_export(request: web.Request) -> web.Response:
        return await from_journal(context, lambda journal: web.Response(
            text=games_csv(journal), content_type="text/csv", charset="utf-8", headers={
                "Content-Disposition": 'attachment; filename="games.csv"',
                "Cache-Control": "no-store"}))

    async def game(request: web.Request) -> web.Response:
        game_id, part = int(request.match_info["id"]), request.match_info.get("part", "")
        return await from_journal(context, lambda journal: game_answer(journal, game_id, part))

    async def correct(request: web.Request) -> web.Response:
        return await correction(request, context)

    async def elsewhere(request: web.Request) -> web.Response:
        if request.method in ("GET", "HEAD"):
            return text(404, "no such page\n")
        return text(405, "read-only: corrections are made at the table\n",
                    {"Allow": "GET, HEAD"})

    return [
        *static_routes(("app.js", "style.css"), "index.html"),
        web.get("/api/corrections", corrections),
        web.get("/api/live", live),
        web.get("/api/events", events),
        web.get("/api/games", games),
        web.get("/api/stats", stats),
        web.get("/api/players", players),
        web.get("/api/games.csv", csv_export),
        web.get(r"/api/games/{id:\d{1,9}}", game),
        web.get(r"/api/games/{id:\d{1,9}}/{part:chart\.svg|log}", game),
        web.post("/api/correct", correct),
        web.route("*", "/{tail:.*}", elsewhere),
    ]


def game_answer(journal: Journal, game_id: int, part: str) -> web.Response:
    """One game: its detail with the chart, the chart alone, or its log to download."""
    if part == "log":
        name = f"game-{game_id}.jsonl"
        return web.Response(text=journal.export(game_id), content_type="application/x-ndjson",
                            charset="utf-8", headers={
                                "Content-Disposition": f'attachment; filename="{name}"',
                                "Cache-Control": "no-store"})
    detail = game_detail(journal, game_id)
    svg = chart_svg(detail["running"], detail["target"])
    if part == "chart.svg":
        return web.Response(text=svg, content_type="image/svg+xml", charset="utf-8",
                            headers={"Cache-Control": "no-store"})
    detail["chart_svg"] = svg
    return as_json(detail)


async def from_journal(context: WebContext,
                       answer: Callable[[Journal], web.Response]) -> web.Response:
    """`answer` from the journal read in a worker thread; a failure named without paths."""
    path = context.journal_path
    if path is None or not path.is_file():
        return text(404, NO_JOURNAL)

    def read() -> web.Response:
        with read_only(path) as journal:
            return answer(journal)

    try:
        return await asyncio.to_thread(read)
    except JournalError as error:
        return text(404, f"{without_paths(str(error), path)}\n")
    except sqlite3.DatabaseError:
        return text(503, "the journal cannot be read just now\n")


def without_paths(message: str, journal_path: Path) -> str:
    """A journal's message with its file and folder named only as "the journal"."""
    for named in (str(journal_path), str(journal_path.parent)):
        message = message.replace(named, "the journal")
    return message


async def correction(request: web.Request, context: WebContext) -> web.Response:
    """A correction from the page: the PIN tried, then the table's referee decides."""
    pins, link = context.pins, context.corrections
    if pins is None or link is None:
        return refusal(403, READ_ONLY)
    if request.content_type != "application/json":
        return refusal(415, "expected Content-Type: application/json")
    data = await body(request)
    if isinstance(data, web.Response):
        return data
    client = request.remote or "unknown"
    verdict = pins.attempt(client, data.pop("pin", None))
    if verdict.locked:
        seconds = max(math.ceil(verdict.wait_s), 1)
        return refusal(429, f"too many wrong PINs: try again in {seconds} s",
                       {"Retry-After": str(seconds)})
    if not verdict.right:
        left = verdict.tries_left
        return refusal(401, f"wrong PIN ({left} more tr{'y' if left == 1 else 'ies'}, "
                            "then a wait)")
    try:
        reply = await asyncio.to_thread(link.submit, data)
    except RequestError as error:
        return refusal(400, str(error))
    except TableUnavailable as error:
        return refusal(503, str(error))
    status = 200 if reply.accepted else 503 if reply.paused else 409
    return as_json(reply.to_json(), status)


async def body(request: web.Request) -> dict[str, Any] | web.Response:
    """The request's JSON object, or the refusal to send."""
    needed = f"a JSON body of 1 to {MAX_BODY} bytes is needed"
    try:
        async with asyncio.timeout(BODY_S):
            raw = await request.read()  # the application's client_max_size is MAX_BODY
    except TimeoutError:
        return refusal(408, "the body did not arrive in time")
    except web.HTTPRequestEntityTooLarge:
        return refusal(413, needed)
    if not raw:
        return refusal(400, needed)
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return refusal(400, "the body is not JSON")
    if not isinstance(data, dict):
        return refusal(400, 'expected a JSON object such as {"action": "undo", "pin": "..."}')
    return data


def refusal(status: int, message: str, headers: dict[str, str] | None = None) -> web.Response:
    """A correction not taken, and why, as the page shows it."""
    return as_json(Reply(False, message).to_json(), status, headers)
