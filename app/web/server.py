"""The web server: aiohttp on its own event loop in a thread, beside the table or alone.

HTTP/1.1 with keep-alive and HEAD; idle or half-sent connections are closed after `idle_s`;
at most `max_connections` at once (the next are answered 503 and closed); every answer goes
through the Host allow-list, the Origin check on writes and the security headers.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from collections.abc import Callable
from typing import Any

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

from app.web.guard import guard, local_names, security_headers
from app.web.replies import WebContext
from app.web.routes import MAX_BODY, table_routes

__all__ = ["WebContext", "WebServer"]
BACKLOG = 256
BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n"
        b"Retry-After: 5\r\n\r\n")
Routes = Callable[[WebContext], list[web.RouteDef]]


class _Busy(asyncio.Protocol):
    """A connection over the limit: told 503 and closed at once."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.WriteTransport)
        transport.write(BUSY)
        transport.close()


def _close_if_silent(handler: RequestHandler) -> None:
    """Close a connection that has not sent one whole request (aiohttp before 3.14 leaves a
    connection that never asks anything open; newer versions close it themselves too)."""
    if getattr(handler, "_request_count", 1) == 0:
        handler.force_close()


class _LimitedSite(web.SockSite):
    """A listening socket that takes at most `limit` connections at a time, and closes one
    that asks nothing within `idle_s`."""

    def __init__(self, runner: web.AppRunner, sock: socket.socket, limit: int,
                 idle_s: float) -> None:
        super().__init__(runner, sock)
        self._limit, self._idle_s = limit, idle_s

    async def start(self) -> None:
        await web.BaseSite.start(self)
        server = self._runner.server
        assert server is not None
        loop = asyncio.get_running_loop()

        def factory() -> asyncio.Protocol:
            if len(server.connections) >= self._limit:
                return _Busy()
            handler = server()
            loop.call_later(self._idle_s, _close_if_silent, handler)
            return handler

        self._server = await loop.create_server(
            factory, sock=self._sock, backlog=self._backlog)


class WebServer:
    """The server in its own thread; `port` 0 takes a free one (see `.port`). The socket is
    bound at once, so a busy port raises OSError here."""

    def __init__(self, context: WebContext, host: str = "127.0.0.1", port: int = 8080,
                 routes: Routes = table_routes) -> None:
        self.context = context
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self._sock = socket.create_server((host, port), family=family, backlog=BACKLOG,
                                          reuse_port=False)
        self._routes = routes
        self._loop = asyncio.new_event_loop()
        self._runner: web.AppRunner | None = None
        self._ready = threading.Event()
        self._failed: BaseException | None = None
        self._thread = threading.Thread(target=self._serve, name="web", daemon=True)

    @property
    def port(self) -> int:
        """The port the server listens on."""
        return int(self._sock.getsockname()[1])

    @property
    def url(self) -> str:
        """The address of the page on this machine."""
        host = str(self._sock.getsockname()[0])
        shown = {"0.0.0.0": "127.0.0.1", "::": "[::1]"}.get(host, host)
        if ":" in shown and not shown.startswith("["):
            shown = f"[{shown}]"
        return f"http://{shown}:{self.port}/"

    def application(self) -> web.Application:
        """The aiohttp application: the routes behind the guard."""
        app = web.Application(middlewares=[guard(local_names(self.context.hosts))],
                              client_max_size=MAX_BODY)
        app.add_routes(self._routes(self.context))
        app.on_response_prepare.append(security_headers)
        return app

    def start(self) -> WebServer:
        """Serve in the background (returns once the server listens)."""
        self._thread.start()
        self._ready.wait()
        if self._failed is not None:
            raise self._failed
        return self

    def close(self) -> None:
        """End the streams, stop serving and free the port."""
        self.context.hub.close()
        if self._thread.is_alive():
            asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result(30)
            self._thread.join()
        self._sock.close()

    def _serve(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._begin())
        except BaseException as error:  # handed to start()
            self._failed = error
            self._ready.set()
            return
        self._ready.set()
        self._loop.run_forever()
        self._loop.close()

    async def _begin(self) -> None:
        self.context.changed = asyncio.Event()
        self.context.hub.watch(self._changed)
        self._runner = web.AppRunner(self.application(), keepalive_timeout=self.context.idle_s,
                                     access_log=None, handle_signals=False,
                                     shutdown_timeout=2.0)
        await self._runner.setup()
        site = _LimitedSite(self._runner, self._sock, self.context.max_connections,
                            self.context.idle_s)
        await site.start()

    def _changed(self) -> None:
        """Called from whichever thread published: the streams on this loop are woken."""
        with contextlib.suppress(RuntimeError):  # the loop has stopped: nothing to wake
            self._loop.call_soon_threadsafe(self._wake)

    def _wake(self) -> None:
        changed, self.context.changed = self.context.changed, asyncio.Event()
        if changed is not None:
            changed.set()

    async def _stop(self) -> None:
        self.context.hub.unwatch(self._changed)
        self._wake()
        if self._runner is not None:
            await self._runner.cleanup()
        self._loop.call_soon(self._loop.stop)

    def __enter__(self) -> WebServer:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.close()

