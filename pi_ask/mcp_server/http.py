"""``pi-ask mcp --http HOST:PORT``: the same server over streamable HTTP, behind a bearer token.

Nothing listens unless the command is given a host and port (python-port.md §11), and a host
that is not loopback also needs ``--expose`` (§12) and gets a warning. Every request must carry
``Authorization: Bearer <token>`` (the scheme in any case): the token comes from
``PI_ASK_MCP_TOKEN`` or is made at start and written to a 0600 file in the state folder, whose
path (never the token) goes to stderr. Requests without it get 401 and the connection is
closed, before the MCP layer sees them; a body over ``MAX_BODY_BYTES`` then gets 413 and a
JSON-RPC error saying so, never held in memory. The SDK's Host and Origin checks are always on: Host
must be the bound address or a localhost name, with the port. Connections come through the one
listener (``pi_ask.http_listener``), which bounds what a peer without the token can hold.
"""

from __future__ import annotations

import hmac
import json
import os
import secrets
import sys
from pathlib import Path
from typing import Any

from pi_ask.errors import UsageError
from pi_ask.http_listener import (
    CLOSE_HEADER,
    allowed_hosts,
    allowed_origins,
    header,
    is_loopback,
    listen_tcp,
    serve,
)
from pi_ask.mcp_server.front import too_large
from pi_ask.mcp_server.server import AskUserServer
from pi_ask.regular_files import open_regular

TOKEN_ENV = "PI_ASK_MCP_TOKEN"
TOKEN_FILE = "mcp-token"
MCP_PATH = "/mcp"
MIN_TOKEN_CHARS = 16
MAX_BODY_BYTES = 4 * 1024 * 1024
"""A request body at most (a call's arguments stay within 1 MiB, as on the command line)."""


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) as a host and a port; a usage error otherwise."""
    host, sep, port = text.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise UsageError(f"mcp --http: expected HOST:PORT such as 127.0.0.1:8765, not {text!r}")
    return host, int(port)


def check_exposure(host: str, *, expose: bool) -> str | None:
    """The warning for serving ``host``, ``None`` for loopback; a usage error without
    ``--expose`` for any other host."""
    if is_loopback(host):
        return None
    if not expose:
        raise UsageError(
            f"mcp --http: {host} is not a loopback address; pass --expose to serve other "
            "machines (plain HTTP, guarded by the token alone)"
        )
    return (
        f"warning: serving plain HTTP on {host} to other machines: anyone who can reach it "
        "and read the token can ask questions in your name; put TLS in front of it"
    )


def server_token(state_dir: Path) -> tuple[str, Path | None]:
    """The bearer token, and the file it was written to when pi-ask made it."""
    given = os.environ.get(TOKEN_ENV, "").strip()
    if given:
        if len(given) < MIN_TOKEN_CHARS:
            raise UsageError(f"mcp --http: {TOKEN_ENV} must be at least {MIN_TOKEN_CHARS} chars")
        return given, None
    token = secrets.token_urlsafe(32)
    state_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = state_dir / TOKEN_FILE
    fd = open_regular(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, (token + "\n").encode())
    finally:
        os.close(fd)
    return token, path


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes is refused with 413, unread past
    the limit, and a JSON-RPC error the host can show (the SDK's own limit answers in plain
    text, which its client reports only as "Server returned an error response")."""

    def __init__(self, app: Any, limit: int = MAX_BODY_BYTES) -> None:
        self._app = app
        self._limit = limit

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None:
            # The server reads no more than the length said, so only it needs a look.
            if declared > self._limit:
                await self._refuse(send)
            else:
                await self._app(scope, receive, send)
            return
        # No length (a chunked body): read it up to the limit, then hand it on.
        held: list[dict[str, Any]] = []
        size = 0
        while True:
            message = await receive()
            held.append(message)
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            if size > self._limit:
                await self._refuse(send)
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Any:
            return held.pop(0) if held else await receive()

        await self._app(scope, replay, send)

    async def _refuse(self, send: Any) -> None:
        body = json.dumps(too_large(None, self._limit)).encode()
        # No "Connection: close": the server reads the rest of the body and drops it, so a
        # client still sending it sees this answer rather than a reset connection.
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def _content_length(scope: Any) -> int | None:
    """The body's declared length; ``None`` without a single well-formed one (then the body
    is counted as it comes)."""
    length = header(scope, b"content-length")
    return int(length) if length is not None and length.isdigit() else None


class BearerGate:
    """ASGI middleware: only requests with the right bearer token reach ``app``."""

    def __init__(self, app: Any, token: str) -> None:
        self._app = app
        self._expected = token.encode()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and not self._allowed(scope):
            await send(
                {
                    "type": "http.response.start",
                    "status": 401,
                    "headers": [
                        (b"content-type", b"text/plain; charset=utf-8"),
                        (b"www-authenticate", b"Bearer"),
                        # A peer without the token gets no second request on this connection.
                        CLOSE_HEADER,
                    ],
                }
            )
            await send({"type": "http.response.body", "body": b"a bearer token is required\n"})
            return
        await self._app(scope, receive, send)

    def _allowed(self, scope: Any) -> bool:
        given = header(scope, b"authorization")
        if given is None:
            return False
        # RFC 9110 §11.1: the scheme is case-insensitive; one or more spaces follow it.
        scheme, _, credentials = given.encode("latin-1").partition(b" ")
        return scheme.lower() == b"bearer" and hmac.compare_digest(
            credentials.strip(b" "), self._expected
        )


async def serve_http(
    server: AskUserServer, host: str, port: int, state_dir: Path, warning: str | None = None
) -> None:
    """Serve ``server`` on ``host:port`` until interrupted, printing ``warning`` (what
    ``check_exposure`` gave) before the ready line."""
    from mcp.server.transport_security import TransportSecuritySettings

    token, written = server_token(state_dir)
    try:
        listener = listen_tcp(host, port)
    except OSError as err:
        raise UsageError(f"mcp --http: cannot listen on {host}:{port}: {err.strerror}") from None
    bound = listener.getsockname()[1]
    hosts = allowed_hosts(host, bound)
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=hosts,
        allowed_origins=allowed_origins(hosts),
    )
    app = server.server.streamable_http_app(
        streamable_http_path=MCP_PATH, host=host, transport_security=security
    )
    shown = f"[{host}]" if ":" in host else host
    where = f"token in {written}" if written is not None else f"token from {TOKEN_ENV}"

    def ready() -> None:
        if warning is not None:
            print(f"pi-ask mcp: {warning}", file=sys.stderr, flush=True)
        # Once the app is up and before the first accept: a client that reads it is served.
        print(
            f"pi-ask mcp: listening on http://{shown}:{bound}{MCP_PATH} ({where})",
            file=sys.stderr,
            flush=True,
        )

    # The token first: a peer without it gets 401 before any of its body is read.
    gate = BearerGate(BodyLimit(app), token)
    await serve(gate, listener, name="pi-ask mcp", on_ready=ready)
