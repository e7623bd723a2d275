"""What a broken or hostile host sends: huge arguments, malformed form replies (issue 31).

Each ends in a result or an error with a real code, never a JSON-RPC error with code 0 or a
traceback in the host's log, and nothing huge is recorded.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from pi_ask.mcp_server.server import build_server
from tests.mcp_server.helpers import PAYLOAD, log_types
from tests.mcp_server.raw_wire import INITIALIZED, RawSession, initialize, request

BIG_PROMPT = "x" * (2 * 1024 * 1024)


@pytest.mark.anyio
@pytest.mark.parametrize("tool", ["ask_user", "ask_user_start"])
async def test_arguments_over_1_mib_are_refused_like_the_command_line(tool: str) -> None:
    arguments = copy.deepcopy(PAYLOAD)
    arguments["questions"][0]["prompt"] = BIG_PROMPT
    async with Client(build_server().server, mode="legacy") as client:
        result = await client.call_tool(tool, arguments)
    assert result.is_error is False
    details = result.structured_content
    assert details is not None and details["error"]["kind"] == "invalid_input"
    text = result.content[0].text  # type: ignore[union-attr]
    assert "payload is too large" in text and "the limit is 1 MiB (1048576 bytes)" in text
    assert len(text) < 1000
    assert log_types() == []  # nothing recorded


MALFORMED_REPLIES: list[Any] = [
    {"action": "ACCEPT", "content": {"q1": "postgres"}},
    {"action": "accept", "content": ["q1"]},
    {"action": "accept", "content": {"q2": [1, 2]}},
    {"action": "accept", "content": {"q1": {"nested": 1}}},
    {"content": {}},
    "not an object",
]


@pytest.mark.parametrize("reply", MALFORMED_REPLIES, ids=json.dumps)
def test_a_malformed_form_reply_ends_in_a_result(tmp_path: Path, reply: Any) -> None:
    session = RawSession.pi_ask(tmp_path, "--face", "elicitation")
    session.send(initialize(1, elicitation={"form": {}}))
    session.answer_to(1)
    session.send(INITIALIZED)
    session.send(request(2, "tools/call", {"name": "ask_user", "arguments": PAYLOAD}))
    form = session.read()
    assert form["method"] == "elicitation/create"
    session.send({"jsonrpc": "2.0", "id": form["id"], "result": reply})
    result = session.answer_to(2)["result"]
    assert result["isError"] is False
    assert result["structuredContent"]["reason"] == "no_terminal"
    assert "Do not assume any answer" in result["content"][0]["text"]
    status, stderr = session.close()
    assert status == 0
    assert "Traceback" not in stderr
    assert "pi-ask mcp: " in stderr  # one line saying what the host sent


def test_a_select_given_a_number_is_dropped_in_words(tmp_path: Path) -> None:
    session = RawSession.pi_ask(tmp_path, "--face", "elicitation")
    session.send(initialize(1, elicitation={"form": {}}))
    session.answer_to(1)
    session.send(INITIALIZED)
    session.send(request(2, "tools/call", {"name": "ask_user", "arguments": PAYLOAD}))
    form = session.read()
    reply = {"action": "accept", "content": {"q1": 5, "q3_text": "mine"}}
    session.send({"jsonrpc": "2.0", "id": form["id"], "result": reply})
    details = session.answer_to(2)["result"]["structuredContent"]
    assert "db" not in details["answers"]
    assert details["answers"]["layout"]["customText"] == "mine"
    status, stderr = session.close()
    assert status == 0
    assert "not one of the options offered" in stderr and "Traceback" not in stderr
