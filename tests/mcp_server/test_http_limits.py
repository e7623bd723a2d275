"""What a peer can hold of a real ``pi-ask mcp --http`` (issue 31, findings 2, 3 and 14).

Half-open connections far over the server's file descriptor limit, an ``EMFILE`` injected into
its accept loop by lowering that limit while it runs, a non-loopback bind, a forged Host or
Origin, the bearer scheme in another case: each against the real command, over real sockets.
"""

from __future__ import annotations

import contextlib
import os
import re
import resource
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest

from tests.child_processes import wait_until
from tests.mcp_server.test_http import TOKEN, ask_over_http

WAIT_CAP_S = 120  # a generous cap on waits for a condition, never the thing under test
READY = re.compile(r"listening on http://(\S+?):(\d+)/mcp")
HALF_HEAD = b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"


class Server:
    """A ``pi-ask mcp --http`` child whose stderr is collected line by line as it comes."""

    def __init__(self, tmp_path: Path, *args: str, nofile: int | None = None) -> None:
        env = dict(os.environ, PI_ASK_MCP_TOKEN=TOKEN)
        command = [sys.executable, "-m", "pi_ask", "mcp", "--http", *args]
        if nofile is not None:  # the limit set in the child, before pi-ask starts
            limit = (
                "import os, resource, sys; "
                f"resource.setrlimit(resource.RLIMIT_NOFILE, ({nofile}, {nofile})); "
                "os.execv(sys.executable, sys.argv[1:])"
            )
            command = [sys.executable, "-c", limit, *command]
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            cwd=tmp_path,
            env=env,
        )
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.append(line)

    def ready(self) -> tuple[str, int]:
        """The host and port of the ready line, once it is there."""

        def found() -> re.Match[str] | None:
            if self.process.poll() is not None:
                raise AssertionError(f"the server ended: {self.lines}")
            return next((m for m in map(READY.search, self.lines) if m), None)

        match = wait_until(found, "the ready line", WAIT_CAP_S)
        assert isinstance(match, re.Match)
        return match.group(1), int(match.group(2))

    def stop(self) -> str:
        """Stop the server; all it wrote on stderr."""
        if self.process.poll() is None:
            self.process.terminate()
        self.process.wait(timeout=WAIT_CAP_S)
        self._reader.join(WAIT_CAP_S)
        assert self.process.stderr is not None
        self.process.stderr.close()
        return "".join(self.lines)


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for server in started:
        server.stop()


def half_open(port: int, count: int) -> list[socket.socket]:
    """``count`` connections that send most of a request head and then nothing."""
    peers = []
    for _ in range(count):
        peer = socket.socket()
        peer.setblocking(False)
        peer.connect_ex(("127.0.0.1", port))
        peers.append(peer)
    for peer in peers:
        with contextlib.suppress(OSError):  # still connecting: holds a backlog slot anyway
            peer.send(HALF_HEAD)
    return peers


def raw_exchange(port: int, request: bytes) -> bytes:
    """Send ``request`` on a fresh connection and read until the server closes it."""
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_CAP_S) as peer:
        peer.sendall(request)
        received = b""
        while chunk := peer.recv(65536):
            received += chunk
    return received


def fd_count(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


@pytest.mark.anyio
async def test_half_open_connections_over_the_fd_limit_starve_no_one(
    tmp_path: Path, servers: list[Server]
) -> None:
    server = Server(tmp_path, "127.0.0.1:0", nofile=256)
    servers.append(server)
    _, port = server.ready()
    peers = half_open(port, 700)  # far over the server's 256 descriptors
    try:
        with anyio.fail_after(WAIT_CAP_S):
            details = await ask_over_http(f"http://127.0.0.1:{port}/mcp", TOKEN)
        assert details["cancelled"] is False
    finally:
        for peer in peers:
            peer.close()
    log = server.stop()
    assert "Traceback" not in log
    assert len(log.splitlines()) <= 3, log


def test_a_peer_whose_head_never_completes_is_closed(tmp_path: Path, servers: list[Server]) -> None:
    server = Server(tmp_path, "127.0.0.1:0")
    servers.append(server)
    _, port = server.ready()
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_CAP_S) as peer:
        peer.sendall(HALF_HEAD)
        assert peer.recv(1) == b""  # closed by the server, with nothing sent


def test_a_huge_request_head_gets_431(tmp_path: Path, servers: list[Server]) -> None:
    server = Server(tmp_path, "127.0.0.1:0")
    servers.append(server)
    _, port = server.ready()
    filler = b"X-Filler: " + b"a" * 200_000 + b"\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_CAP_S) as peer:
        with contextlib.suppress(ConnectionError):  # closed before it all went out
            peer.sendall(HALF_HEAD + filler)
        assert peer.recv(65536).startswith(b"HTTP/1.1 431 ")


@pytest.mark.anyio
async def test_emfile_in_the_accept_loop_is_one_line_and_it_recovers(
    tmp_path: Path, servers: list[Server]
) -> None:
    server = Server(tmp_path, "127.0.0.1:0")
    servers.append(server)
    _, port = server.ready()
    pid = server.process.pid
    soft, hard = resource.prlimit(pid, resource.RLIMIT_NOFILE)
    # No descriptor left: every accept now fails with EMFILE.
    resource.prlimit(pid, resource.RLIMIT_NOFILE, (fd_count(pid), hard))
    peers = [socket.create_connection(("127.0.0.1", port)) for _ in range(20)]
    try:
        wait_until(
            lambda: any("Too many open files" in line for line in server.lines),
            "the EMFILE line",
            WAIT_CAP_S,
        )
        resource.prlimit(pid, resource.RLIMIT_NOFILE, (soft, hard))
        with anyio.fail_after(WAIT_CAP_S):
            details = await ask_over_http(f"http://127.0.0.1:{port}/mcp", TOKEN)
        assert details["cancelled"] is False
    finally:
        for peer in peers:
            peer.close()
    log = server.stop()
    assert "Traceback" not in log
    assert sum("Too many open files" in line for line in log.splitlines()) == 1, log


def test_a_host_that_is_not_loopback_needs_expose(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pi_ask", "mcp", "--http", "0.0.0.0:0"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        timeout=WAIT_CAP_S,
        check=False,
    )
    assert done.returncode == 2
    assert "0.0.0.0 is not a loopback address; pass --expose" in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.splitlines()) == 1


@pytest.mark.anyio
async def test_an_exposed_host_warns_and_keeps_the_host_and_origin_checks(
    tmp_path: Path, servers: list[Server]
) -> None:
    server = Server(tmp_path, "0.0.0.0:0", "--expose")
    servers.append(server)
    host, port = server.ready()
    assert host == "0.0.0.0"
    assert any("warning: serving plain HTTP on 0.0.0.0" in line for line in server.lines)
    ping = b'{"jsonrpc":"2.0","id":1,"method":"ping"}'

    def post(host_header: str, *extra: str) -> bytes:
        head = [
            "POST /mcp HTTP/1.1",
            f"Host: {host_header}",
            f"Authorization: Bearer {TOKEN}",
            "Content-Type: application/json",
            "Accept: application/json, text/event-stream",
            f"Content-Length: {len(ping)}",
            "Connection: close",
            *extra,
        ]
        return raw_exchange(port, ("\r\n".join(head) + "\r\n\r\n").encode() + ping)

    assert post(f"evil.example:{port}").startswith(b"HTTP/1.1 421 ")
    assert post(f"127.0.0.1:{port}", "Origin: http://evil.example").startswith(b"HTTP/1.1 403 ")
    # A localhost name with the port is the server itself: the call goes through.
    with anyio.fail_after(WAIT_CAP_S):
        details = await ask_over_http(f"http://localhost:{port}/mcp", TOKEN)
    assert details["cancelled"] is False


def test_the_bearer_scheme_is_matched_in_any_case(tmp_path: Path, servers: list[Server]) -> None:
    server = Server(tmp_path, "127.0.0.1:0")
    servers.append(server)
    _, port = server.ready()
    ping = b'{"jsonrpc":"2.0","id":1,"method":"ping"}'
    for scheme, admitted in (
        ("bearer", True),
        ("BEARER", True),
        ("BeArEr", True),
        ("Basic", False),
    ):
        head = (
            f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Authorization: {scheme} {TOKEN}\r\nContent-Type: application/json\r\n"
            "Accept: application/json, text/event-stream\r\n"
            f"Content-Length: {len(ping)}\r\nConnection: close\r\n\r\n"
        )
        answer = raw_exchange(port, head.encode() + ping)
        # Past the gate, the MCP layer answers (400 here: a ping before any session).
        assert answer.startswith(b"HTTP/1.1 ")
        assert answer.startswith(b"HTTP/1.1 401 ") is not admitted, (scheme, answer[:200])


def test_a_peer_without_the_token_gets_one_request_per_connection(
    tmp_path: Path, servers: list[Server]
) -> None:
    server = Server(tmp_path, "127.0.0.1:0")
    servers.append(server)
    _, port = server.ready()
    unproven = f"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
    # Two requests on one connection: the 401 closes it, so the second is never read.
    answer = raw_exchange(port, unproven + HALF_HEAD)
    assert answer.startswith(b"HTTP/1.1 401 ")
    assert answer.count(b"HTTP/1.1 ") == 1
    assert b"connection: close" in answer.lower()


def test_the_docs_state_the_limits() -> None:
    from pi_ask.http_listener import Limits

    text = " ".join((Path(__file__).resolve().parents[2] / "docs" / "mcp.md").read_text().split())
    limits = Limits()
    assert f"at most {limits.connections} connections" in text
    assert f"at most {limits.waiting} of them still sending their request head" in text
    assert (
        f"complete within {limits.head_timeout_s:g} seconds and {limits.head_bytes // 1024} KiB"
        in text
    )
    assert f"idle connections close after {limits.idle_timeout_s} seconds" in text


@pytest.mark.parametrize("how", ["SIGTERM", "SIGKILL"])
def test_no_socket_folder_outlives_its_server(
    tmp_path: Path, servers: list[Server], how: str
) -> None:
    import glob
    import signal
    import tempfile

    def folders(pid: int) -> list[str]:
        return glob.glob(os.path.join(tempfile.gettempdir(), f"pi-ask-http-{pid}-*"))

    server = Server(tmp_path, "127.0.0.1:0")
    servers.append(server)
    server.ready()
    pid = server.process.pid
    assert len(folders(pid)) == 1  # uvicorn's socket, private to the server
    server.process.send_signal(getattr(signal, how))
    server.stop()
    assert server.process.returncode == -getattr(signal, how)
    if how == "SIGKILL":  # nothing could clean up: the next server does
        assert len(folders(pid)) == 1
        again = Server(tmp_path, "127.0.0.1:0")
        servers.append(again)
        again.ready()
    assert folders(pid) == []
