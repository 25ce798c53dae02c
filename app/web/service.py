"""The web page (and the MQTT publisher) beside `cardtable run`, fed by the table's listeners."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any

from app.web.server import WebContext, WebServer
from app.web.sources import TableFeed


@contextlib.contextmanager
def table_services(app: Any) -> Iterator[None]:
    """Serve the live page while the table runs, as `[web]` asks; a busy port only warns."""
    web = app.config.web
    server: WebServer | None = None
    if web.enabled:
        context = WebContext(app.config.journal_path)
        try:
            server = WebServer(context, web.host, web.port).start()
        except OSError as error:
            print(f"cardtable run: the web page is off: cannot listen on {web.host}:{web.port}: "
                  f"{error.strerror or error}", file=sys.stderr)
        else:
            app.listeners.append(TableFeed(app, context.hub))
    try:
        yield
    finally:
        if server is not None:
            server.close()
