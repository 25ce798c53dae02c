"""systemd's notify protocol (READY=1, WATCHDOG=1, STATUS=...) over $NOTIFY_SOCKET."""

from __future__ import annotations

import os
import socket


class Notifier:
    """Sends service notifications to systemd; does nothing when not run by systemd."""

    def __init__(self, address: str | None = None) -> None:
        address = address if address is not None else os.environ.get("NOTIFY_SOCKET")
        if address and address.startswith("@"):
            address = "\0" + address[1:]
        self.address = address or None

    @property
    def enabled(self) -> bool:
        """True under systemd with Type=notify."""
        return self.address is not None

    def send(self, *fields: str) -> bool:
        """Send `KEY=value` lines; False when nobody listens."""
        if self.address is None:
            return False
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            try:
                sock.sendto("\n".join(fields).encode(), self.address)
            except OSError:
                return False
        return True

    def ready(self, status: str = "") -> bool:
        """Tell systemd the service is up."""
        return self.send("READY=1", *([f"STATUS={status}"] if status else []))

    def watchdog(self) -> bool:
        """Keep the watchdog from firing; call from the main loop."""
        return self.send("WATCHDOG=1")

    def stopping(self) -> bool:
        """Tell systemd the service is shutting down."""
        return self.send("STOPPING=1")
