"""``pi-ask web`` tests: a real server in a child process on a real socket, real askers."""

from __future__ import annotations

import contextlib
import http.client
import json
import re
import socket
import ssl
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from tests.child_processes import wait_until
from tests.e2e.terminal import pi_ask_command
from tests.inbox.conftest import ask, asks, env, pending, terminal  # noqa: F401 - fixtures
from tests.web.browser import browser  # noqa: F401 - a fixture

LISTENING = re.compile(r"pi-ask web: listening on (https?)://([^ ]+):(\d+)/")
CODE = re.compile(r"pairing code ([A-Z0-9]{4})-([A-Z0-9]{4})")


class Response(NamedTuple):
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class Client:
    """One device talking to the server: its cookie and CSRF token once paired."""

    def __init__(self, server: WebServer, tls: ssl.SSLContext | None = None) -> None:
        self.server = server
        self.tls = tls
        self.cookie: str | None = None
        self.csrf: str | None = None

    def request(
        self,
        method: str,
        path: str,
        body: object = None,
        *,
        headers: dict[str, str] | None = None,
        raw: bytes | None = None,
    ) -> Response:
        sent = {"host": f"127.0.0.1:{self.server.port}"}
        if method != "GET":
            sent["origin"] = self.server.origin
            sent["content-type"] = "application/json"
        if self.cookie:
            sent["cookie"] = self.cookie
        if self.csrf and method != "GET":
            sent["x-csrf-token"] = self.csrf
        sent.update(headers or {})
        sent = {k: v for k, v in sent.items() if v is not None}
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        connection = (
            http.client.HTTPSConnection("127.0.0.1", self.server.port, timeout=20, context=self.tls)
            if self.tls is not None
            else http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=20)
        )
        try:
            connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            for name, value in sent.items():
                connection.putheader(name, value)
            if data is not None:
                connection.putheader("content-length", str(len(data)))
            connection.endheaders(data)
            response = connection.getresponse()
            got = Response(
                response.status,
                {k.lower(): v for k, v in response.getheaders()},
                response.read(),
            )
        finally:
            connection.close()
        return got

    def get(self, path: str, **kwargs: Any) -> Response:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, body: object = None, **kwargs: Any) -> Response:
        return self.request("POST", path, body, **kwargs)

    def pair(self, code: str | None = None) -> Client:
        response = self.post("/api/pair", {"code": code or self.server.code()})
        assert response.status == 200, response.body
        cookie = response.headers["set-cookie"]
        self.cookie = cookie.split(";")[0]
        self.csrf = response.json()["csrf"]
        return self

    def act(self, ask_id: str, action: dict[str, object]) -> Response:
        return self.post(f"/api/asks/{ask_id}/act", action)

    @contextlib.contextmanager
    def open_events(self) -> Iterator[tuple[socket.socket, bytes]]:
        """The live list's event stream held open on a socket of its own, as a page holds
        it: the socket and what came until the first listing."""
        with socket.create_connection(("127.0.0.1", self.server.port), timeout=30) as stream:
            stream.sendall(
                (
                    f"GET /api/events HTTP/1.1\r\nhost: 127.0.0.1:{self.server.port}\r\n"
                    f"cookie: {self.cookie}\r\n\r\n"
                ).encode()
            )
            head = b""
            while b"event: asks" not in head:
                head += stream.recv(4096)
            yield stream, head

    def post_chunked(self, path: str, chunk: bytes, count: int, headers: str) -> bytes:
        """POST ``count`` times ``chunk`` with no Content-Length (chunked), as a browser's
        stream would; the head of the answer (the server may answer and close first)."""
        head = (
            f"POST {path} HTTP/1.1\r\n"
            f"host: 127.0.0.1:{self.server.port}\r\norigin: {self.server.origin}\r\n"
            f"cookie: {self.cookie}\r\nx-csrf-token: {self.csrf}\r\n"
            f"{headers}transfer-encoding: chunked\r\n\r\n"
        )
        answer = b""
        with socket.create_connection(("127.0.0.1", self.server.port), timeout=30) as stream:
            stream.sendall(head.encode())
            try:
                for _ in range(count):
                    stream.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                stream.sendall(b"0\r\n\r\n")
            except OSError:  # answered and closed while we were still sending
                pass
            while b"\r\n\r\n" not in answer and (part := stream.recv(4096)):
                answer += part
        return answer


class WebServer:
    """A running ``pi-ask web`` (or ``inbox --web``) read from what it wrote on stderr."""

    def __init__(
        self, process: subprocess.Popen[bytes] | None, stderr: Path | Callable[[], str]
    ) -> None:
        self.process = process
        self._text = stderr if callable(stderr) else None
        self.stderr = stderr if isinstance(stderr, Path) else None
        match = wait_until(lambda: LISTENING.search(self.text()), "the listening line")
        assert isinstance(match, re.Match)
        self.host, self.port = match.group(2), int(match.group(3))
        self.origin = f"{match.group(1)}://127.0.0.1:{self.port}"
        self._codes_seen = 0

    def text(self) -> str:
        if self._text is not None:
            return self._text()
        assert self.stderr is not None
        return self.stderr.read_text(encoding="utf-8", errors="replace")

    def codes(self) -> list[str]:
        return [a + b for a, b in CODE.findall(self.text())]

    def code(self) -> str:
        """The newest pairing code printed."""
        found = wait_until(self.codes, "a pairing code")
        assert isinstance(found, list)
        return found[-1]

    def client(self) -> Client:
        return Client(self)

    def paired(self) -> Client:
        return Client(self).pair()


@pytest.fixture
def web(tmp_path: Path, env: dict[str, str]) -> Iterator[Callable[..., WebServer]]:  # noqa: F811
    started: list[WebServer] = []

    def start(*args: str, name: str = "web") -> WebServer:
        stderr = tmp_path / f"{name}.err"
        with stderr.open("wb") as err:
            process = subprocess.Popen(
                [*pi_ask_command(), "web", "--port", "0", *args],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=err,
                env=env,
                cwd=tmp_path,
                start_new_session=True,
            )
        server = WebServer(process, stderr)
        started.append(server)
        return server

    yield start
    for server in started:
        if server.process is not None and server.process.poll() is None:
            server.process.terminate()
            try:
                server.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.process.kill()
                server.process.wait()
