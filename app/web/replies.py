"""The answers the web routes share: text, JSON, the static files and the live event stream."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from aiohttp import web

from app.control import Link
from app.web.hub import LiveHub
from app.web.pin import PinGate

STATIC = Path(__file__).with_name("static")
STATIC_TYPES = {
    "index.html": "text/html",
    "app.js": "text/javascript",
    "style.css": "text/css",
    "club.html": "text/html",
    "club.js": "text/javascript",
}
KEEPALIVE_S = 15.0
STREAM_S = 300.0  # a stream ends after this long; the page reconnects at once and carries on
RETRY_MS = 1000
IDLE_S = 15.0  # a connection that sends no (whole) request for this long is closed
BODY_S = 10.0  # a request body must arrive within this
MAX_CONNECTIONS = 512
MAX_STREAMS = 256


@dataclass
class WebContext:
    """What the handlers read: the journal's path and the live hub; with a PIN gate and a
    link to the table, corrections too (without both the page is read-only); the limits."""

    journal_path: Path | None
    hub: LiveHub = field(default_factory=LiveHub)
    keepalive_s: float = KEEPALIVE_S
    stream_s: float = STREAM_S
    retry_ms: int = RETRY_MS
    pins: PinGate | None = None
    corrections: Link | None = None
    hosts: tuple[str, ...] = ()  # host names allowed beyond the machine's own and addresses
    idle_s: float = IDLE_S
    max_connections: int = MAX_CONNECTIONS
    max_streams: int = MAX_STREAMS
    streams: int = 0
    changed: asyncio.Event | None = None  # set (and renewed) on the server's loop per snapshot

    @property
    def correctable(self) -> bool:
        """True when the page may send corrections (a PIN is set and a table is linked)."""
        return self.pins is not None and self.corrections is not None


def text(status: int, message: str, headers: dict[str, str] | None = None) -> web.Response:
    """A plain-text answer that is never cached."""
    return web.Response(status=status, text=message, content_type="text/plain",
                        charset="utf-8", headers={"Cache-Control": "no-store", **(headers or {})})


def as_json(value: object, status: int = 200, headers: dict[str, str] | None = None
            ) -> web.Response:
    """A JSON answer that is never cached."""
    return json_text(json.dumps(value), status, headers)


def json_text(body: str, status: int = 200, headers: dict[str, str] | None = None
              ) -> web.Response:
    """JSON already serialised, never cached."""
    return web.Response(status=status, text=body, content_type="application/json",
                        charset="utf-8", headers={"Cache-Control": "no-store", **(headers or {})})


def static(name: str) -> web.Response:
    """One of the page's files."""
    return web.Response(text=(STATIC / name).read_text("utf-8"), content_type=STATIC_TYPES[name],
                        charset="utf-8", headers={"Cache-Control": "no-cache"})


def static_routes(names: tuple[str, ...], index: str) -> list[web.RouteDef]:
    """`/` as `index` and `/static/<name>` for each of `names`."""

    def serve(name: str) -> web.RouteDef:
        async def handler(request: web.Request) -> web.Response:
            return static(name)
        return web.get(f"/static/{name}", handler)

    async def root(request: web.Request) -> web.Response:
        return static(index)

    return [web.get("/", root), *(serve(name) for name in names)]


async def event_stream(request: web.Request, context: WebContext) -> web.StreamResponse:
    """Server-Sent Events: the current view at once, then each new one as it comes."""
    if context.streams >= context.max_streams:
        return text(503, "too many live pages open: try again soon\n", {"Retry-After": "5"})
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                           "Cache-Control": "no-cache"})
    context.streams += 1
    try:
        await response.prepare(request)
        context.hub.listening()
        await response.write(f"retry: {context.retry_ms}\n\n".encode())
        version = 0
        ends = time.monotonic() + context.stream_s
        while not context.hub.closed and (left := ends - time.monotonic()) > 0:
            changed = context.changed
            newest, data = context.hub.latest()
            if newest > version:
                version = newest
                await response.write(f"id: {version}\nevent: state\ndata: {data}\n\n".encode())
                continue
            if changed is None:  # pragma: no cover - set as the server starts
                break
            try:
                await asyncio.wait_for(changed.wait(), min(context.keepalive_s, left))
            except TimeoutError:
                if ends - time.monotonic() > 0:
                    await response.write(b": keepalive\n\n")
    except (ConnectionResetError, ConnectionError):
        pass
    finally:
        context.streams -= 1
    return response
