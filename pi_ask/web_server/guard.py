"""The checks every request to ``pi-ask web`` passes before any route sees it (§12).

- ``Host`` must be one the server answers to (the bound address, a localhost name, the
  ``[web] public_url`` host), against DNS rebinding;
- everything but the page itself and pairing needs a paired session (the HttpOnly cookie);
- every state-changing request needs an allowed ``Origin``, and, once paired, the session's
  CSRF token in ``X-CSRF-Token``;
- bodies are capped (``MAX_BODY_BYTES``; a file sent to ``/api/asks/<id>/files``, the
  most ``[attachments] max_mb`` lets any ask take, which the route narrows to the ask's own
  room as it reads); a ``Content-Length`` above it is refused at once, a body sent without
  one (chunked) when it grows past it.

A refused request gets a short text and ``Connection: close``, so a peer that has not proven
itself never gets an untimed second request on the connection (``http_listener``). Every
response carries a strict Content-Security-Policy (no inline script, nothing from elsewhere)
and headers that keep it out of frames, caches and referrers.
"""

from __future__ import annotations

import hmac
import re
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import SimpleCookie
from typing import Any, NamedTuple

from pi_ask.config.catalogue import MAX_ATTACHED_MB
from pi_ask.http_listener import CLOSE_HEADER, header
from pi_ask.web_server.pairing import Device, Devices

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY_BYTES = 256 * 1024
COOKIE = "pi_ask_session"
SECURE_COOKIE = "__Host-pi_ask_session"
CSRF_HEADER = b"x-csrf-token"
OPEN_PATHS = frozenset({"/", "/app.js", "/app.css", "/favicon.ico", "/api/session", "/api/pair"})
"""What answers without a session: the page (no data in it), and the way to pair."""
SAFE_METHODS = frozenset({"GET", "HEAD"})
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    # No script may use the camera: a phone's "take a photo" is a file input with
    # ``capture``, which the system's camera app fills, not getUserMedia.
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
)
UPLOAD_PATH = re.compile(r"^/api/asks/[A-Za-z0-9_-]{1,64}/files$")
MAX_UPLOAD_BYTES = MAX_ATTACHED_MB * 1_000_000
"""The backstop for a file sent to an ask: the most any ask's files may take."""


class Names(NamedTuple):
    """Where the server may be reached: ``Host`` values and page origins it accepts;
    ``secure`` when pages come over https (the cookie is then ``Secure``); ``tailscale``
    when Tailscale's identity headers stand for a paired session."""

    hosts: frozenset[str]
    origins: frozenset[str]
    secure: bool
    tailscale: bool = False


TAILSCALE_LOGIN = b"tailscale-user-login"


def session_token(scope: Scope, secure: bool) -> str | None:
    """The session cookie's value, if the request carries one."""
    raw = header(scope, b"cookie")
    if raw is None:
        return None
    cookies: SimpleCookie = SimpleCookie()
    try:
        cookies.load(raw)
    except Exception:  # http.cookies raises CookieError and others on bad input
        return None
    morsel = cookies.get(SECURE_COOKIE if secure else COOKIE)
    return morsel.value if morsel is not None else None


def cookie_header(token: str, secure: bool) -> str:
    """The ``Set-Cookie`` value for a new session (a year; ``--forget`` ends it sooner)."""
    name = SECURE_COOKIE if secure else COOKIE
    flags = "; Secure" if secure else ""
    return f"{name}={token}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Strict{flags}"


class Guard:
    """ASGI middleware doing the checks above; the device is put in ``scope["state"]``."""

    def __init__(self, app: App, devices: Devices, names: Names) -> None:
        self._app = app
        self._devices = devices
        self._names = names

    @staticmethod
    def body_cap(scope: Scope) -> int:
        """The largest body this request may send."""
        if scope.get("method") == "POST" and UPLOAD_PATH.match(scope.get("path", "")):
            # The route holds a file to the ask's own room as it reads, saying so in words
            # (each ask's limits are its asker's); this is the backstop.
            return MAX_UPLOAD_BYTES
        return MAX_BODY_BYTES

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        problem, device = self._check(scope)
        if problem is not None:
            status, text = problem
            await refuse(send, status, text)
            return
        scope.setdefault("state", {})["device"] = device

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                headers.extend(SECURITY_HEADERS)
                if device is None:
                    headers.append(CLOSE_HEADER)
                message["headers"] = headers
            await send(message)

        await self._app(scope, _capped(receive, self.body_cap(scope)), secured)

    def _check(self, scope: Scope) -> tuple[tuple[int, str] | None, Device | None]:
        host = header(scope, b"host")
        if host is None or host.lower() not in self._names.hosts:
            return (421, "this server does not answer to that host name"), None
        length = header(scope, b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.body_cap(scope)):
            return (413, "the request body is too large"), None
        device = self._devices.find(session_token(scope, self._names.secure))
        if device is None and self._names.tailscale:
            device = tailscale_device(scope)
        path = scope.get("path", "")
        if device is None and path not in OPEN_PATHS:
            return (401, "this device is not paired: open the pairing link"), None
        if scope.get("method", "GET") not in SAFE_METHODS:
            origin = header(scope, b"origin")
            if origin is None or origin.lower() not in self._names.origins:
                return (403, "the request comes from another site"), None
            if device is not None and path != "/api/pair":
                given = header(scope, CSRF_HEADER) or ""
                if not hmac.compare_digest(given.encode(), device.csrf.encode()):
                    return (403, "the request lacks this session's CSRF token"), None
        return None, device


def tailscale_device(scope: Scope) -> Device | None:
    """The person ``tailscale serve`` vouches for, as a device (only when trusted: loopback
    behind it, where nobody else can set the header). Its CSRF token is derived from the
    login with a per-process key, so a page from elsewhere still cannot forge one."""
    login = header(scope, TAILSCALE_LOGIN)
    if not login:
        return None
    csrf = hmac.new(_PROCESS_KEY, login.encode(), "sha256").hexdigest()
    return Device(f"tailscale:{login}", "", csrf, 0, "tailscale")


_PROCESS_KEY = secrets.token_bytes(32)


class BodyTooLarge(Exception):
    """A request body (sent without a length, chunked) grew past its cap."""


def _capped(receive: Receive, cap: int) -> Receive:
    seen = 0

    async def capped() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > cap:
                raise BodyTooLarge
        return message

    return capped


async def refuse(send: Send, status: int, text: str) -> None:
    body = (text + "\n").encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
                *SECURITY_HEADERS,
                CLOSE_HEADER,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
