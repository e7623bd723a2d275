"""A 50 MiB ``tools/call`` and one with 819,200 options, on the wire to a real ``pi-ask mcp``
(issue 31 #4): over stdio and over ``--http``, each is refused with a JSON-RPC error that
says why (code -32600, never 0), the server's peak memory hardly moves (it never holds the
message), nothing is recorded in the session log, and the session goes on.
"""

from __future__ import annotations

import json
import re
import select
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from pi_ask.mcp_server.http import MAX_BODY_BYTES
from tests.mcp_server.helpers import log_types
from tests.mcp_server.raw_wire import initialized, request
from tests.mcp_server.test_http import TOKEN
from tests.mcp_server.test_http_limits import WAIT_CAP_S, Server

HUGE_PROMPT = {"questions": [{"id": "q", "prompt": "x" * (50 * 1024 * 1024)}]}
MANY_OPTIONS = {
    "questions": [
        {"id": "q", "prompt": "Pick", "options": [{"value": f"o{n}"} for n in range(819_200)]}
    ]
}
HUGE = {"prompt": HUGE_PROMPT, "options": MANY_OPTIONS}
# Holding a 50 MiB message (or its 15 MiB of options, parsed) would raise the peak by more.
PEAK_GROWTH_MIB = 12


def peak_mib(pid: int) -> int:
    """The process's peak resident memory so far (VmHWM)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) // 1024
    raise AssertionError("no VmHWM")


@pytest.mark.parametrize("phase", ["front", "sdk"])
@pytest.mark.parametrize("kind", sorted(HUGE))
def test_a_huge_call_over_stdio_is_refused_in_words_and_never_held(
    tmp_path: Path, phase: str, kind: str
) -> None:
    session = initialized(tmp_path, phase)
    pid = session.process.pid
    before = peak_mib(pid)
    session.send(request(3, "tools/call", {"name": "ask_user", "arguments": HUGE[kind]}))
    reply = session.answer_to(3)
    assert reply["error"]["code"] == -32600
    assert "Request too large" in reply["error"]["message"]
    assert peak_mib(pid) - before < PEAK_GROWTH_MIB
    session.send(request(4, "tools/list"))
    assert session.answer_to(4)["result"]["tools"][0]["name"] == "ask_user"
    status, stderr = session.close()
    assert status == 0
    assert "Traceback" not in stderr
    assert len(stderr) < 10_000
    assert log_types(tmp_path) == []


@pytest.fixture
def http_server(tmp_path: Path) -> Iterator[tuple[Server, int]]:
    server = Server(tmp_path, "127.0.0.1:0")
    _, port = server.ready()
    yield server, port
    log = server.stop()
    assert "Traceback" not in log
    assert len(log.splitlines()) <= 2, log


@pytest.mark.anyio
async def test_huge_calls_over_http_are_refused_in_words_and_never_held(
    tmp_path: Path, http_server: tuple[Server, int]
) -> None:
    server, port = http_server
    pid = server.process.pid
    headers = {"Authorization": f"Bearer {TOKEN}"}
    url = f"http://127.0.0.1:{port}/mcp"
    async with (
        httpx2.AsyncClient(headers=headers) as http,
        Client(streamable_http_client(url, http_client=http)) as client,
    ):
        before = peak_mib(pid)
        for arguments in HUGE.values():
            with anyio.fail_after(WAIT_CAP_S), pytest.raises(MCPError) as refused:
                await client.call_tool("ask_user", arguments)
            assert refused.value.error.code == -32600
            assert f"at most {MAX_BODY_BYTES} bytes" in refused.value.error.message
        assert peak_mib(pid) - before < PEAK_GROWTH_MIB
        # The session goes on.
        with anyio.fail_after(WAIT_CAP_S):
            tools = await client.list_tools()
        assert tools.tools[0].name == "ask_user"
    assert log_types(tmp_path) == []


def test_a_huge_chunked_body_is_refused_in_words(http_server: tuple[Server, int]) -> None:
    # No Content-Length to judge by: the body is read up to the limit, then refused.
    server, port = http_server
    before = peak_mib(server.process.pid)
    body = json.dumps(request(1, "tools/call", {"name": "ask_user", "arguments": HUGE_PROMPT}))
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {TOKEN}\r\n"
        "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    ).encode()
    answer = _send_chunked(port, head, body.encode())
    status, _, rest = answer.partition(b"\r\n")
    assert status.startswith(b"HTTP/1.1 413"), answer[:300]
    found = re.search(rb"\{.*\}", rest, re.DOTALL)
    assert found is not None, answer[:300]
    refusal: dict[str, Any] = json.loads(found.group())
    assert refusal["error"]["code"] == -32600
    assert peak_mib(server.process.pid) - before < PEAK_GROWTH_MIB


def _send_chunked(port: int, head: bytes, body: bytes) -> bytes:
    """Send ``body`` in 1 MiB chunks, stopping once the server answers; its whole answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_CAP_S) as peer:
        peer.sendall(head)
        size = 1024 * 1024
        for start in range(0, len(body), size):
            chunk = body[start : start + size]
            peer.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            if select.select([peer], [], [], 0)[0]:
                break  # answered before the end of the body
        else:
            peer.sendall(b"0\r\n\r\n")
        received = b""
        while not _complete(received):
            chunk = peer.recv(65536)
            assert chunk, f"the connection ended mid-answer: {received[:300]!r}"
            received += chunk
    return received


def _complete(answer: bytes) -> bool:
    head, sep, body = answer.partition(b"\r\n\r\n")
    found = re.search(rb"content-length: (\d+)", head, re.IGNORECASE)
    return bool(sep) and found is not None and len(body) >= int(found.group(1))
