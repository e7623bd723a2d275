"""``pi-ask mcp --http HOST:PORT``: the same server over streamable HTTP, behind a bearer token.

Nothing listens unless the command is given a host and port (python-port.md §11), and every
request must carry ``Authorization: Bearer <token>``: the token comes from
``PI_ASK_MCP_TOKEN`` or is made at start and written to a 0600 file in the state folder,
whose path (never the token) goes to stderr. The SDK's DNS-rebinding protection stays on for
loopback hosts. Requests without the token get 401 before the MCP layer sees them.
"""

from __future__ import annotations

import hmac
import os
import secrets
import socket
import sys
from pathlib import Path
from typing import Any

from pi_ask.errors import UsageError
from pi_ask.mcp_server.server import AskUserServer

TOKEN_ENV = "PI_ASK_MCP_TOKEN"
TOKEN_FILE = "mcp-token"
MCP_PATH = "/mcp"
LOOPBACK = ("127.0.0.1", "localhost", "::1")
MIN_TOKEN_CHARS = 16


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) as a host and a port; a usage error otherwise."""
    host, sep, port = text.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise UsageError(f"mcp --http: expected HOST:PORT such as 127.0.0.1:8765, not {text!r}")
    return host, int(port)


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
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, (token + "\n").encode())
    finally:
        os.close(fd)
    return token, path


class BearerGate:
    """ASGI middleware: only requests with the right bearer token reach ``app``."""

    def __init__(self, app: Any, token: str) -> None:
        self._app = app
        self._expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and not self._allowed(scope):
            await send(
                {
                    "type": "http.response.start",
                    "status": 401,
                    "headers": [
                        (b"content-type", b"text/plain; charset=utf-8"),
                        (b"www-authenticate", b"Bearer"),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": b"a bearer token is required\n"})
            return
        await self._app(scope, receive, send)

    def _allowed(self, scope: Any) -> bool:
        given = [value for name, value in scope.get("headers", ()) if name == b"authorization"]
        return len(given) == 1 and hmac.compare_digest(given[0], self._expected)


async def serve_http(server: AskUserServer, host: str, port: int, state_dir: Path) -> None:
    """Serve ``server`` on ``host:port`` until interrupted."""
    import uvicorn
    from mcp.server.transport_security import TransportSecuritySettings

    token, written = server_token(state_dir)
    security = None
    if host not in LOOPBACK:
        # Explicitly asked for a non-loopback host: the token is the guard there.
        security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    app = server.server.streamable_http_app(
        streamable_http_path=MCP_PATH, host=host, transport_security=security
    )
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as err:
        listener.close()
        raise UsageError(f"mcp --http: cannot listen on {host}:{port}: {err.strerror}") from None
    # Listening before the ready line: a client that reads it never finds the port shut.
    listener.listen(128)
    bound = listener.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    where = f"token in {written}" if written is not None else f"token from {TOKEN_ENV}"
    print(
        f"pi-ask mcp: listening on http://{shown}:{bound}{MCP_PATH} ({where})",
        file=sys.stderr,
        flush=True,
    )
    config = uvicorn.Config(BearerGate(app, token), log_level="warning", lifespan="on")
    await uvicorn.Server(config).serve(sockets=[listener])
