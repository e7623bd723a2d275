"""Shared fixtures: a captured terminal, and a loopback HTTP server that records posts."""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from pi_ask.notifications.channel import CancelScope, SendContext


@dataclass
class HttpSink:
    """Records JSON bodies POSTed to it; ``hang`` makes it never answer until teardown."""

    port: int
    hang: bool = False
    bodies: list[dict[str, object]] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    received: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)

    @property
    def url(self) -> str:
        """The apprise ``json://`` URL of this sink."""
        return f"json://127.0.0.1:{self.port}/"

    @property
    def ntfy_url(self) -> str:
        """An apprise ``ntfy://`` URL of this sink posing as a self-hosted ntfy server."""
        return f"ntfy://127.0.0.1:{self.port}/pi-ask-topic"


@pytest.fixture
def http_sink(monkeypatch: pytest.MonkeyPatch) -> Iterator[HttpSink]:
    # A proxy from the environment would swallow loopback requests.
    for name in (
        "http_proxy",
        "HTTP_PROXY",
        "https_proxy",
        "HTTPS_PROXY",
        "all_proxy",
        "ALL_PROXY",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")

    sink: HttpSink

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length) or b"{}")
            if sink.hang:
                sink.release.wait(30)
            sink.paths.append(self.path)
            sink.headers.append({k.lower(): v for k, v in self.headers.items()})
            sink.bodies.append(body)
            sink.received.set()
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    sink = HttpSink(port=server.server_address[1])
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield sink
    finally:
        sink.release.set()
        server.shutdown()
        server.server_close()


class CapturedTerminal:
    """Collects what a channel writes to the terminal, as the bytes a tty would get."""

    def __init__(self) -> None:
        self.stream = io.BytesIO()

    def write(self, text: str) -> None:
        self.stream.write(text.encode("utf-8"))

    def context(self, timeout_s: float = 5.0) -> SendContext:
        return SendContext(self.write, timeout_s, CancelScope())

    @property
    def data(self) -> bytes:
        return self.stream.getvalue()


@pytest.fixture
def terminal() -> CapturedTerminal:
    return CapturedTerminal()


# The variables the terminal channels read to tell the terminal (terminal_kind.py).
TERMINAL_VARIABLES = (
    "TMUX",
    "TERM_PROGRAM",
    "KITTY_WINDOW_ID",
    "ITERM_SESSION_ID",
    "LC_TERMINAL",
    "WEZTERM_PANE",
    "GHOSTTY_RESOURCES_DIR",
    "WT_SESSION",
)


@pytest.fixture(autouse=True)
def plain_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests see a plain xterm outside tmux, whatever terminal runs them."""
    for name in TERMINAL_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
