"""What every answer of the web server goes through: the Host allow-list, the Origin check on
writes, and the security headers."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Awaitable, Callable, Iterable

from aiohttp import web
from aiohttp.typedefs import Middleware

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
        "frame-ancestors 'none'"),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def local_names(extra: Iterable[str] = ()) -> frozenset[str]:
    """The names this machine answers to (localhost, its host name, name.local) and `extra`."""
    host = socket.gethostname().lower()
    names = {"localhost", host, f"{host}.local", host.split(".")[0] + ".local"}
    return frozenset(names | {name.lower().rstrip(".") for name in extra})


def host_name(host_header: str) -> str:
    """The name in a Host header, without its port or an IPv6 address's brackets."""
    text = host_header.strip().lower()
    if text.startswith("["):
        return text[1:].split("]", 1)[0]
    return text.rsplit(":", 1)[0] if text.count(":") == 1 else text


def host_allowed(host_header: str | None, names: frozenset[str]) -> bool:
    """True for an address (no DNS name to rebind) or one of `names`; False without a Host."""
    if not host_header:
        return False
    name = host_name(host_header).rstrip(".")
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return name in names
    return True


def same_origin(request: web.Request) -> bool:
    """True when a write comes from this server's own page: no foreign Origin, no cross-site
    fetch metadata."""
    if request.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
        return False
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    host = request.headers.get("Host", "")
    return origin in (f"http://{host}", f"https://{host}")


def guard(names: frozenset[str]) -> Middleware:
    """The middleware: a foreign Host is refused (421), a cross-origin write too (403)."""

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        if not host_allowed(request.headers.get("Host"), names):
            return web.Response(status=421, text="this server does not answer to that name\n")
        if request.method not in SAFE_METHODS and not same_origin(request):
            return web.Response(status=403, text="refused: the request comes from another site\n")
        return await handler(request)

    return middleware


async def security_headers(request: web.Request, response: web.StreamResponse) -> None:
    """Add the security headers to every answer, streams and errors included."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
