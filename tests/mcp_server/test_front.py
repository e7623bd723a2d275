"""The stdio front: the SDK's answers before the SDK loads, then a hand-over that loses nothing.

Every test drives a real ``pi-ask mcp`` subprocess: line by line (``RawSession``) where the
order of messages is the point, or with the SDK's own client.
"""

from __future__ import annotations

import copy
import json
import logging
import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, types

from tests.child_processes import wait_until
from tests.mcp_server.helpers import ERAS, PAYLOAD, FormHost
from tests.mcp_server.raw_wire import (
    INITIALIZED,
    SDK_ONLY,
    RawSession,
    initialize,
    initialized,
    request,
    server_env,
)
from tests.mcp_server.test_stdio import pi_ask_mcp

LEGACY_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "1999-01-01")


def legacy_script(version: str) -> list[Any]:
    return [
        initialize(1, version),
        INITIALIZED,
        request(2, "tools/list"),
        request(3, "ping"),
        initialize(4, "2025-06-18"),
        request(5, "tools/list", {}),
    ]


MODERN_SCRIPT = [
    request(1, "server/discover", modern=True),
    request(2, "tools/list", modern=True),
    request(3, "ping", modern=True),
    request(4, "server/discover", modern=True),
]


def answers(session: RawSession, script: list[Any]) -> list[dict[str, Any]]:
    replies = []
    for message in script:
        session.send(message)
        if "id" in message:
            replies.append(session.answer_to(message["id"]))
    assert session.close()[0] == 0
    return replies


@pytest.mark.parametrize(
    "script",
    [*(legacy_script(version) for version in LEGACY_VERSIONS), MODERN_SCRIPT],
    ids=[*LEGACY_VERSIONS, "2026-07-28"],
)
def test_the_front_answers_exactly_as_the_sdk_does(tmp_path: Path, script: list[Any]) -> None:
    front = answers(RawSession.pi_ask(tmp_path), script)
    sdk = answers(RawSession.sdk_only(tmp_path), script)
    assert front == sdk
    tools = [reply["result"]["tools"] for reply in front if "tools" in reply.get("result", {})]
    assert tools and all(listed == tools[0] for listed in tools)
    assert [tool["name"] for tool in tools[0]] == ["ask_user", "ask_user_start", "ask_user_result"]


# Runs pi-ask, then says which of the SDK and its heavy dependencies were ever loaded.
WATCH_IMPORTS = """
import sys
from pi_ask.cli.main import main

status = main(["mcp"])
WATCHED = ("mcp", "mcp_types", "pydantic", "anyio", "starlette")
loaded = sorted(name for name in sys.modules if name.split(".")[0] in WATCHED)
sys.stderr.write(f"loaded: {loaded}\\n")
sys.exit(status)
"""


@pytest.mark.parametrize("era", ["legacy", "modern", "a call (the probe)"])
def test_listing_the_tools_never_imports_the_sdk(tmp_path: Path, era: str) -> None:
    session = RawSession([sys.executable, "-c", WATCH_IMPORTS], tmp_path)
    script = MODERN_SCRIPT if era == "modern" else legacy_script("2025-11-25")
    if era.startswith("a call"):
        script = [*script, request(9, "tools/call", {"name": "ask_user", "arguments": {}})]
    for message in script:
        session.send(message)
        if "id" in message:
            assert "result" in session.answer_to(message["id"]) or message["method"] == "ping"
    status, stderr = session.close()
    assert status == 0
    loaded = [line for line in stderr.splitlines() if line.startswith("loaded: ")]
    if era.startswith("a call"):  # the detector sees the SDK when it does load
        assert loaded and "'mcp'" in loaded[0]
    else:
        assert loaded == ["loaded: []"]


MALFORMED: list[tuple[bytes, Any, int]] = [
    (b'{"jsonrpc":"2.0","id":11,"method":"tools/call","params":"bad"}', 11, -32602),
    (b'{"jsonrpc":"2.0","id":12,"method":"ping","params":[]}', 12, -32602),
    (b'{"jsonrpc":"2.0","id":13}', 13, -32600),
    (b'{"jsonrpc":"1.0","id":14,"method":"ping"}', 14, -32600),
    (b'{"jsonrpc":"2.0","id":15,"method":"ping"', None, -32700),
    (b"[1, 2]", None, -32600),
    (b'{"jsonrpc":"2.0","id":16.5,"method":"ping"}', None, -32600),
]
BIG = "x" * (1 << 20)


def oversized(message_id: int, *, id_last: bool) -> bytes:
    params = {"name": "ask_user", "arguments": {"questions": [{"id": "db", "prompt": BIG}]}}
    if id_last:  # how the TypeScript SDK orders a request's keys
        return json.dumps(
            {"method": "tools/call", "params": params, "jsonrpc": "2.0", "id": message_id}
        ).encode()
    return json.dumps(
        {"jsonrpc": "2.0", "id": message_id, "method": "tools/call", "params": params}
    ).encode()


@pytest.mark.parametrize("phase", ["front", "sdk"])
def test_malformed_and_oversized_lines_are_answered_and_the_session_goes_on(
    tmp_path: Path, phase: str
) -> None:
    session = initialized(tmp_path, phase)
    for line, message_id, code in MALFORMED:
        session.send_raw(line)
        reply = session.read()
        assert reply["id"] == message_id and reply["error"]["code"] == code, (line, reply)
    for message_id, id_last in ((21, False), (22, True)):
        session.send_raw(oversized(message_id, id_last=id_last))
        reply = session.read()
        assert reply["id"] == message_id and reply["error"]["code"] == -32600
        assert "1048576 bytes" in reply["error"]["message"]
    session.send(request(30, "tools/list"))
    assert session.answer_to(30)["result"]["tools"][0]["name"] == "ask_user"
    status, stderr = session.close()
    assert status == 0
    assert "Traceback" not in stderr
    assert len(stderr) < 10_000  # nothing of the big lines was logged


def collect(session: RawSession, ids: set[Any]) -> dict[Any, dict[str, Any]]:
    """Read until every id in ``ids`` is answered; a second answer to one fails."""
    got: dict[Any, dict[str, Any]] = {}
    while set(got) != ids:
        message = session.read()
        if "method" in message:
            continue  # the server's own requests and notifications
        assert message["id"] in ids and message["id"] not in got, message
        got[message["id"]] = message
    return got


CALL = {"name": "ask_user", "arguments": PAYLOAD}


def test_legacy_hand_over_under_a_burst(tmp_path: Path) -> None:
    # Everything is written at once: the SDK is still loading while these arrive.
    session = RawSession.pi_ask(tmp_path)
    burst = [
        initialize(1),
        INITIALIZED,
        request(2, "tools/call", copy.deepcopy(CALL)),
        request(3, "ping"),
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}},
        initialize(4, "2025-06-18"),
        request(5, "tools/list"),
        request(6, "tools/call", copy.deepcopy(CALL)),
    ]
    session.send_raw(b"\n".join(json.dumps(message).encode() for message in burst))
    got = collect(session, {1, 2, 3, 4, 5, 6})
    assert got[1]["result"]["protocolVersion"] == "2025-11-25"
    for call in (2, 6):
        assert got[call]["result"]["structuredContent"]["reason"] == "no_terminal"
    assert got[3]["result"] == {}
    assert got[4]["result"]["protocolVersion"] == "2025-06-18"
    assert got[5]["result"]["tools"][0]["name"] == "ask_user"
    assert session.close()[0] == 0


def test_modern_hand_over_under_a_burst(tmp_path: Path) -> None:
    session = RawSession.pi_ask(tmp_path)
    burst = [
        request(1, "server/discover", modern=True),
        request(2, "tools/call", copy.deepcopy(CALL), modern=True),
        request(3, "tools/list", modern=True),
        request(4, "ping", modern=True),
        initialize(5),
        request(6, "tools/list"),
    ]
    session.send_raw(b"\n".join(json.dumps(message).encode() for message in burst))
    got = collect(session, {1, 2, 3, 4, 5, 6})
    assert got[1]["result"]["supportedVersions"] == ["2026-07-28"]
    assert got[2]["result"]["structuredContent"]["reason"] == "no_terminal"
    assert got[3]["result"]["tools"][0]["name"] == "ask_user"
    assert got[4]["error"]["code"] == -32601  # ping is gone in 2026-07-28, as in the SDK
    assert got[5]["error"]["code"] == -32022  # the connection serves 2026-07-28
    assert got[6]["error"]["code"] == -32602  # no envelope
    assert session.close()[0] == 0


def test_a_cancel_during_the_hand_over_ends_the_call_unanswered(tmp_path: Path) -> None:
    session = RawSession.pi_ask(tmp_path, "--face", "elicitation")
    cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}}
    burst = [initialize(1, elicitation={"form": {}}), INITIALIZED]
    burst += [request(2, "tools/call", copy.deepcopy(CALL)), cancel, request(3, "ping")]
    session.send_raw(b"\n".join(json.dumps(message).encode() for message in burst))
    got = collect(session, {1, 3})
    assert got[3]["result"] == {}
    session.send(request(4, "tools/list"))
    while "result" not in (message := session.read()) or message["id"] != 4:
        assert message.get("id") != 2 or "method" in message, message  # the call gets no answer
    status, stderr = session.close()
    assert status == 0
    assert "Traceback" not in stderr


@pytest.mark.anyio
@pytest.mark.filterwarnings("ignore:ping is removed")
@pytest.mark.parametrize("mode", ERAS)
async def test_a_call_right_after_the_handshake(tmp_path: Path, mode: str) -> None:
    host = FormHost("accept", {"q1": "sqlite"})
    async with Client(pi_ask_mcp(tmp_path), mode=mode, elicitation_callback=host) as client:
        if mode == "legacy":
            await client.send_ping()
        result = await client.call_tool("ask_user", copy.deepcopy(PAYLOAD))
        listed = await client.list_tools()
    assert result.structured_content["answers"]["db"]["values"] == ["sqlite"]  # type: ignore[index]
    assert [tool.name for tool in listed.tools] == ["ask_user", "ask_user_start", "ask_user_result"]


def test_the_tool_name_setting_renames_the_tools_in_the_front_and_the_sdk(tmp_path: Path) -> None:
    env = server_env(tmp_path) | {"PI_ASK_MCP__TOOL_NAME": "pi_ask"}
    script = legacy_script("2025-11-25")
    front = answers(RawSession([sys.executable, "-m", "pi_ask", "mcp"], tmp_path, env), script)
    sdk = answers(RawSession([sys.executable, "-c", SDK_ONLY], tmp_path, env), script)
    assert front == sdk
    assert [tool["name"] for tool in front[1]["result"]["tools"]] == [
        "pi_ask",
        "pi_ask_start",
        "pi_ask_result",
    ]


def test_the_tool_name_flag_names_the_tool_that_answers(tmp_path: Path) -> None:
    session = RawSession.pi_ask(tmp_path, "--tool-name", "Ask-2")
    session.send(initialize(1))
    session.answer_to(1)
    session.send(INITIALIZED)
    session.send(request(2, "tools/list"))
    assert [tool["name"] for tool in session.answer_to(2)["result"]["tools"]] == [
        "Ask-2",
        "Ask-2_start",
        "Ask-2_result",
    ]
    session.send(request(3, "tools/call", {"name": "ask_user", "arguments": {}}))
    assert session.answer_to(3)["result"]["isError"] is True
    session.send(request(4, "tools/call", {"name": "Ask-2", "arguments": {"questions": []}}))
    assert session.answer_to(4)["result"]["structuredContent"]["error"]["kind"] == "invalid_input"
    session.send(request(5, "tools/list"))
    assert [tool["name"] for tool in session.answer_to(5)["result"]["tools"]] == [
        "Ask-2",
        "Ask-2_start",
        "Ask-2_result",
    ]
    assert session.close()[0] == 0


@pytest.mark.parametrize("name", ["2ask", "ask user", "a" * 49, ""])
def test_a_bad_tool_name_is_a_usage_error(tmp_path: Path, name: str) -> None:
    session = RawSession.pi_ask(tmp_path, "--tool-name", name)
    status, stderr = session.close()
    assert status == 2
    assert "--tool-name" in stderr and "Traceback" not in stderr
    assert len(stderr.strip().splitlines()) == 1


async def _handshake_again(client: Client, mode: str) -> str:
    """A second ``initialize`` (legacy) or ``server/discover`` (2026-07-28) on the wire;
    the protocol version its answer names."""
    if mode == "legacy":
        again = types.InitializeRequest(
            params=types.InitializeRequestParams(
                protocol_version="2025-06-18",
                capabilities=types.ClientCapabilities(),
                client_info=types.Implementation(name="again", version="1"),
            )
        )
        return (await client.session.send_request(again, types.InitializeResult)).protocol_version
    discovered = await client.session.send_discover("2026-07-28")
    return ",".join(discovered["supportedVersions"])


@pytest.mark.anyio
@pytest.mark.filterwarnings("ignore:ping is removed")
@pytest.mark.parametrize("mode", ERAS)
async def test_a_cancel_and_a_second_handshake_during_the_hand_over_with_the_sdk_client(
    tmp_path: Path, mode: str, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The SDK's own client, in each era. The first call starts the hand-over (the SDK loads
    # for about half a second) and waits for a terminal (no_terminal = "wait"); it is
    # cancelled at once, the handshake is made again and (legacy) a ping sent, all while the
    # SDK loads. The cancelled call is never answered (the client would log the late answer
    # it drops) and its ask is withdrawn; the session goes on in order: the second handshake
    # answered for its era, the tools listed, a call answered.
    monkeypatch.setenv("PI_ASK_BEHAVIOUR__NO_TERMINAL", "wait")
    asks = Path(os.environ["PI_ASK_STATE_DIR"]) / "asks"
    caplog.set_level(logging.DEBUG, logger="mcp.shared.jsonrpc_dispatcher")
    async with Client(pi_ask_mcp(tmp_path, "--face", "terminal"), mode=mode) as client:
        cancelled = anyio.CancelScope()
        came_back: list[object] = []

        async def first_call() -> None:
            with cancelled:
                came_back.append(await client.call_tool("ask_user", copy.deepcopy(PAYLOAD)))

        async with anyio.create_task_group() as group:
            group.start_soon(first_call)
            await anyio.wait_all_tasks_blocked()  # the call is written and waits for its answer
            cancelled.cancel()
        again = await _handshake_again(client, mode)
        if mode == "legacy":
            await client.send_ping()
        listed = await client.list_tools()
        started = await client.call_tool("ask_user_start", copy.deepcopy(PAYLOAD))
        ask_id = started.structured_content["id"]  # type: ignore[index]

        def only_the_started_ask() -> bool:
            return [folder.name for folder in asks.iterdir()] == [ask_id]

        await anyio.to_thread.run_sync(
            wait_until, only_the_started_ask, "the cancelled ask to be withdrawn"
        )
    assert came_back == []
    assert again == ("2025-06-18" if mode == "legacy" else "2026-07-28")
    assert [tool.name for tool in listed.tools] == ["ask_user", "ask_user_start", "ask_user_result"]
    late = [r for r in caplog.records if "unknown/late request id" in r.getMessage()]
    assert late == [], "the cancelled call was answered after all"
