"""The host names and page addresses the config and the club accept: DNS names, and plain
http(s) addresses without credentials or any character that could leave an HTML attribute."""

from __future__ import annotations

import ipaddress
import re
import urllib.parse

MAX_URL = 200
MAX_NAME = 253
DNS_NAME = re.compile(
    r"(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*")
URL_CHARACTERS = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&()*+,;=%]+")  # RFC 3986, without '
SCHEMES = ("http", "https")


def dns_name(text: str) -> str:
    """The name in lower case without a final dot; ValueError naming why it is no DNS name."""
    name = text.strip().lower().removesuffix(".")
    if _is_address(name):
        raise ValueError("an address, not a name (every address is answered anyway)")
    if not DNS_NAME.fullmatch(name):
        raise ValueError("not a DNS name: letters, digits and -, parts joined by dots, "
                         "such as scores.club.example")
    return name


def public_url(text: str) -> str:
    """A page's address as given, if it is a plain http(s) one; ValueError naming why not."""
    if not text:
        raise ValueError("empty")
    if len(text) > MAX_URL:
        raise ValueError(f"{len(text)} characters, more than {MAX_URL}")
    if not URL_CHARACTERS.fullmatch(text):
        raise ValueError("holds a space, a quote, < or > or another character no URL holds")
    parts = urllib.parse.urlsplit(text)
    if parts.scheme.lower() not in SCHEMES:
        raise ValueError("not an http:// or https:// address")
    if "@" in parts.netloc:
        raise ValueError("holds a user name or password")
    try:
        parts.port  # noqa: B018 - raises for a port that is no number from 0 to 65535
    except ValueError:
        raise ValueError("its port is not a number from 0 to 65535") from None
    host = parts.hostname or ""
    if not host:
        raise ValueError("names no host")
    if not _is_address(host):
        dns_name(host)
    return text


def url_host(url: str) -> str:
    """The host name (or address) of an address `public_url` accepted, in lower case."""
    return (urllib.parse.urlsplit(url).hostname or "").lower()


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True
