"""The web page (and the MQTT publisher) beside `cardtable run`, fed by the table's listeners."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any

from app.web.hub import LiveHub
from app.web.server import WebContext, WebServer
from app.web.sources import TableFeed


@contextlib.contextmanager
def table_services(app: Any) -> Iterator[WebServer | None]:
    """Serve the live page and publish to MQTT while the table runs, as `[web]` and `[mqtt]`
    ask (yields the web server, None when off); a busy port only warns, and an absent broker
    is waited for in the background."""
    web, broker = app.config.web, app.config.mqtt
    hub = LiveHub()
    server: WebServer | None = None
    if web.enabled:
        context = WebContext(app.config.journal_path, hub, hosts=web.allowed_names)
        if web.pin is not None:  # corrections go to this table's main loop, as a tap would
            from app.control import TableLink
            from app.web.pin import PinGate

            context.pins = PinGate(web.pin)
            context.corrections = TableLink(app.items, app.stop)
        try:
            server = WebServer(context, web.host, web.port)
        except OSError as error:
            print(f"cardtable run: the web page is off: cannot listen on {web.host}:{web.port}: "
                  f"{error.strerror or error}", file=sys.stderr)
    publisher = None
    if server is not None or broker is not None:
        app.listeners.append(TableFeed(app, hub))
    if broker is not None:
        from app.mqtt import MqttPublisher

        publisher = MqttPublisher(broker, app.config.journal_path,
                                  state=lambda: hub.latest()[1], seat_names=app.config.seat_names,
                                  public_url=web.public_url)
        app.listeners.append(publisher.notify)
    try:
        if server is not None:
            server.start()
        if publisher is not None:
            publisher.start()
        yield server
    finally:
        if publisher is not None:
            publisher.close()
        if server is not None:
            server.close()
