"""``ask_user_start`` / ``ask_user_result``: asks that outlive a host's tool timeout.

The server runs in-process behind the SDK's own client (both eras) and in a real
``pi-ask mcp`` subprocess; the ask is answered through the relay as ``pi-ask attach`` does.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, types

from pi_ask.mcp_server.server import build_server
from pi_ask.relay.client import Session, list_pending
from pi_ask.session.entries import DISMISSED_TYPE, PAYLOAD_TYPE
from pi_ask.state.commands import Digit
from pi_ask.state.dispatcher import apply
from pi_ask.state.model import Behaviour
from tests.mcp_server.helpers import ERAS, PAYLOAD, log_types
from tests.mcp_server.test_stdio import pi_ask_mcp

pytestmark = pytest.mark.anyio
WAIT_CAP_S = 60


def answer_first_option(ask_id: str) -> None:
    """What a user does in ``pi-ask attach``: choose option 1 and submit."""
    (info,) = [info for info in list_pending() if info.ask_id == ask_id]
    session = Session(info)
    session.open()
    assert session.state is not None
    assert session.send_answer(apply(session.state, Digit(1), Behaviour()), "submit")
    session.close()


def structured(result: types.CallToolResult) -> dict[str, Any]:
    assert isinstance(result.structured_content, dict), result
    return result.structured_content


@pytest.mark.parametrize("mode", ERAS)
async def test_start_returns_at_once_and_result_fetches_the_answer(mode: str) -> None:
    server = build_server()
    async with Client(server.server, mode=mode) as client:
        started = await client.call_tool("ask_user_start", copy.deepcopy(PAYLOAD))
        pending = structured(started)
        assert pending["status"] == "pending" and set(pending) == {"id", "status"}
        assert json.loads(started.content[0].text) == pending  # type: ignore[union-attr]
        ask_id = pending["id"]
        assert (
            structured(await client.call_tool("ask_user_result", {"id": ask_id, "wait_s": 0}))
            == pending
        )
        await anyio.to_thread.run_sync(answer_first_option, ask_id)
        with anyio.fail_after(WAIT_CAP_S):
            done = await client.call_tool("ask_user_result", {"id": ask_id, "wait_s": 30})
    got = structured(done)
    assert got["cancelled"] is False
    assert got["answers"]["db"]["values"] == ["postgres"]
    assert got["text"] == done.content[0].text  # type: ignore[union-attr]
    assert log_types() == [PAYLOAD_TYPE, DISMISSED_TYPE]  # recorded, then settled once fetched


async def test_a_wait_is_woken_by_the_answer() -> None:
    server = build_server()
    async with Client(server.server, mode="legacy") as client:
        ask_id = structured(await client.call_tool("ask_user_start", copy.deepcopy(PAYLOAD)))["id"]
        async with anyio.create_task_group() as group:
            fetched: list[types.CallToolResult] = []

            async def fetch() -> None:
                fetched.append(
                    await client.call_tool("ask_user_result", {"id": ask_id, "wait_s": 50})
                )

            group.start_soon(fetch)
            await anyio.to_thread.run_sync(answer_first_option, ask_id)
        assert structured(fetched[0])["answers"]["db"]["values"] == ["postgres"]


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        ({}, "id must be"),
        ({"id": 3}, "id must be"),
        ({"id": "x", "wait_s": 51}, "wait_s must be"),
        ({"id": "x", "wait_s": -1}, "wait_s must be"),
        ({"id": "x", "wait_s": True}, "wait_s must be"),
        ({"id": "no-such-ask", "wait_s": 0}, "No ask 'no-such-ask'"),
        ({"id": "../../etc", "wait_s": 0}, "No ask"),
    ],
)
async def test_result_refuses_bad_arguments_in_words(arguments: dict[str, Any], words: str) -> None:
    async with Client(build_server().server, mode="legacy") as client:
        result = await client.call_tool("ask_user_result", arguments)
    assert result.is_error is True
    assert words in result.content[0].text  # type: ignore[union-attr]


async def test_start_with_an_invalid_payload_is_the_contract_result() -> None:
    async with Client(build_server().server) as client:
        result = await client.call_tool("ask_user_start", {"questions": []})
    assert structured(result)["error"]["kind"] == "invalid_input"
    assert list_pending() == []


async def test_the_async_pair_over_stdio_follows_the_tool_name(tmp_path: Path) -> None:
    async with Client(pi_ask_mcp(tmp_path, "--tool-name", "pi_ask")) as client:
        started = await client.call_tool("pi_ask_start", copy.deepcopy(PAYLOAD))
        ask_id = structured(started)["id"]
        await anyio.to_thread.run_sync(answer_first_option, ask_id)
        with anyio.fail_after(WAIT_CAP_S):
            done = await client.call_tool("pi_ask_result", {"id": ask_id, "wait_s": 30})
        unknown = await client.call_tool("ask_user_start", copy.deepcopy(PAYLOAD))
    assert structured(done)["answers"]["db"]["values"] == ["postgres"]
    assert unknown.is_error is True
