"""``pi-ask mcp --http``: a real server process on loopback, behind its bearer token."""

from __future__ import annotations

import copy
import os
import re
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from pi_ask.mcp_server.http import parse_address
from tests.mcp_server.helpers import PAYLOAD, FormHost, log_types

WAIT_CAP_S = 120  # a generous cap on waits for a condition, never the thing under test
READY = re.compile(r"listening on (http://127\.0\.0\.1:\d+/mcp) \((.+)\)")
TOKEN = "a-test-token-that-is-long-enough"


def start(tmp_path: Path, *, token: str | None) -> tuple[subprocess.Popen[str], str, str]:
    """The server on a free loopback port; returns it, its URL and how it named the token."""
    env = dict(os.environ)
    env.pop("PI_ASK_MCP_TOKEN", None)
    if token is not None:
        env["PI_ASK_MCP_TOKEN"] = token
    process = subprocess.Popen(
        [sys.executable, "-m", "pi_ask", "mcp", "--http", "127.0.0.1:0"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    assert process.stderr is not None
    line = process.stderr.readline()  # blocks until the ready line (or the process ends)
    found = READY.search(line)
    if found is None:
        process.kill()
        _, rest = process.communicate(timeout=WAIT_CAP_S)
        raise AssertionError(f"no ready line: {line!r} {rest!r}")
    return process, found.group(1), found.group(2)


@pytest.fixture
def stop() -> Iterator[list[subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []
    yield started
    for process in started:
        process.terminate()
        process.communicate(timeout=WAIT_CAP_S)  # reaps it and closes its stderr pipe


async def ask_over_http(url: str, token: str) -> dict[str, object]:
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx2.AsyncClient(headers=headers) as http:
        transport = streamable_http_client(url, http_client=http)
        host = FormHost("accept", {"q1": "postgres"})
        async with Client(transport, elicitation_callback=host) as client:
            result = await client.call_tool("ask_user", copy.deepcopy(PAYLOAD))
    assert result.structured_content is not None
    return result.structured_content


@pytest.mark.anyio
async def test_with_the_token_the_host_is_asked(
    tmp_path: Path, stop: list[subprocess.Popen[str]]
) -> None:
    process, url, named = start(tmp_path, token=TOKEN)
    stop.append(process)
    assert named == "token from PI_ASK_MCP_TOKEN"
    with anyio.fail_after(WAIT_CAP_S):
        details = await ask_over_http(url, TOKEN)
    assert details["answers"] == {
        "db": {"values": ["postgres"], "labels": ["PostgreSQL"], "indices": [1]}
    }


@pytest.mark.anyio
async def test_without_the_right_token_nothing_gets_in(
    tmp_path: Path, stop: list[subprocess.Popen[str]]
) -> None:
    process, url, _ = start(tmp_path, token=TOKEN)
    stop.append(process)
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    async with httpx2.AsyncClient() as http:
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN}):
            response = await http.post(url, json=ping, headers=headers)
            assert response.status_code == 401, headers
    # The SDK's client turns the 401 into an error response: the call never runs.
    with pytest.RaisesGroup(pytest.RaisesGroup(pytest.RaisesExc(MCPError, match="error response"))):
        with anyio.fail_after(WAIT_CAP_S):
            await ask_over_http(url, "wrong-token-of-some-length")
    assert log_types(tmp_path) == []


@pytest.mark.anyio
async def test_a_made_token_is_written_for_the_user_alone(
    tmp_path: Path, stop: list[subprocess.Popen[str]]
) -> None:
    process, url, named = start(tmp_path, token=None)
    stop.append(process)
    path = Path(named.removeprefix("token in "))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    token = path.read_text(encoding="utf-8").strip()
    assert token not in named
    with anyio.fail_after(WAIT_CAP_S):
        details = await ask_over_http(url, token)
    assert details["cancelled"] is False


@pytest.mark.parametrize("text", ["8765", "host:", ":80", "host:99999", "host:http"])
def test_a_bad_address_is_a_usage_error(text: str) -> None:
    from pi_ask.errors import UsageError

    with pytest.raises(UsageError, match="HOST:PORT"):
        parse_address(text)


def test_addresses_parse() -> None:
    assert parse_address("127.0.0.1:8765") == ("127.0.0.1", 8765)
    assert parse_address("[::1]:9000") == ("::1", 9000)
