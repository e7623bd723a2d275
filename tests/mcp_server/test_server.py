"""The ``ask_user`` MCP server through the SDK's own client, in-process, in both eras."""

from __future__ import annotations

import copy
from typing import Any

import anyio
import pytest
from mcp import Client, types
from mcp.shared.exceptions import MCPError

from pi_ask.contract.loading import load_payload
from pi_ask.contract.rejection import invalid_result
from pi_ask.contract.result_schema import RESULT_DETAILS_SCHEMA
from pi_ask.contract.schema import INPUT_SCHEMA
from pi_ask.contract.tool import PROMPT_GUIDELINES, TOOL_DESCRIPTION, tool_definition
from pi_ask.mcp_server.server import PROGRESS_MESSAGE, AskUserServer, build_server
from pi_ask.session.entries import DISMISSED_TYPE, PAYLOAD_TYPE, UNREACHED_TYPE
from pi_ask.state.summary import CANCELLED_TEXT
from tests.mcp_server.helpers import ERAS, PAYLOAD, FormHost, OpenForm, log_types

pytestmark = pytest.mark.anyio
WAIT_CAP_S = 60  # a generous cap on waits for a condition, never the thing under test


@pytest.fixture
def server() -> AskUserServer:
    return build_server()


async def ask(
    server: AskUserServer, mode: str, host: FormHost | None, arguments: Any = None
) -> types.CallToolResult:
    arguments = copy.deepcopy(PAYLOAD) if arguments is None else arguments
    async with Client(server.server, mode=mode, elicitation_callback=host) as client:  # type: ignore[arg-type]
        expected = "2025-11-25" if mode == "legacy" else "2026-07-28"
        assert client.protocol_version == expected
        return await client.call_tool("ask_user", arguments)


async def test_the_tool_is_listed_with_the_contract_schemas(server: AskUserServer) -> None:
    async with Client(server.server) as client:
        tools = (await client.list_tools()).tools
    assert [tool.name for tool in tools] == ["ask_user", "ask_user_start", "ask_user_result"]
    tool = tools[0]
    # What `pi-ask tool --format mcp` prints is what the server advertises.
    assert tool.model_dump(by_alias=True, exclude_none=True, exclude={"annotations"}) == (
        tool_definition("mcp")
    )
    assert tool.input_schema["properties"] == INPUT_SCHEMA["properties"]
    option = tool.input_schema["properties"]["questions"]["items"]["properties"]["options"]
    assert option["items"]["required"] == ["value"]  # label optional: it is derived
    assert tool.output_schema == RESULT_DETAILS_SCHEMA
    assert tool.description is not None
    assert tool.description.startswith(TOOL_DESCRIPTION)
    assert all(line in tool.description for line in PROMPT_GUIDELINES)
    assert tool.annotations is not None and tool.annotations.read_only_hint is True


@pytest.mark.parametrize("mode", ERAS)
async def test_an_accepted_form_is_a_submitted_result(server: AskUserServer, mode: str) -> None:
    host = FormHost("accept", {"q1": "sqlite", "q2": ["tracing", "metrics"], "q3": "nested"})
    result = await ask(server, mode, host)
    assert result.is_error is False
    details = result.structured_content
    assert details is not None
    assert details["cancelled"] is False
    assert details["mode"] == "submit"
    assert details["answers"] == {
        "db": {"values": ["sqlite"], "labels": ["Sqlite"], "indices": [2]},
        "extras": {
            "values": ["tracing", "metrics"],
            "labels": ["Tracing", "Metrics"],
            "indices": [2, 1],
        },
        "layout": {"values": ["nested"], "labels": ["Nested"], "indices": [2]},
    }
    text = result.content[0]
    assert isinstance(text, types.TextContent)
    assert text.text == "Q1: Sqlite\nExtras: Tracing, Metrics\nQ3: Nested"
    assert log_types() == [PAYLOAD_TYPE, DISMISSED_TYPE]


@pytest.mark.parametrize("mode", ERAS)
async def test_the_form_maps_every_question(server: AskUserServer, mode: str) -> None:
    host = FormHost("cancel")
    await ask(server, mode, host)
    [form] = host.forms
    assert form.message == "Service setup"
    properties = form.requested_schema["properties"]
    assert list(properties) == ["q1", "q1_text", "q2", "q2_text", "q3", "q3_text"]
    assert properties["q1"] == {
        "title": "Q1: Which database?",
        "type": "string",
        "oneOf": [
            {"const": "postgres", "title": "PostgreSQL (recommended)"},
            {"const": "sqlite", "title": "Sqlite — One file, no server"},
        ],
    }
    assert properties["q2"]["type"] == "array"
    assert [c["const"] for c in properties["q2"]["items"]["anyOf"]] == [
        "metrics",
        "tracing",
        "auth",
    ]
    assert (
        properties["q3"]["description"]
        == "Flat:\nsrc/\n  app.py\n\nNested:\nsrc/app/\n  __init__.py"
    )
    assert "required" not in form.requested_schema
    assert not any("default" in field for field in properties.values())


@pytest.mark.parametrize("mode", ERAS)
@pytest.mark.parametrize("action", ["decline", "cancel"])
async def test_decline_and_cancel_are_a_cancelled_result(
    server: AskUserServer, mode: str, action: str
) -> None:
    result = await ask(server, mode, FormHost(action))
    details = result.structured_content
    assert details is not None
    assert details["cancelled"] is True
    assert details["reason"] == "cancelled"
    assert details["answers"] == {}
    assert result.content[0].text == CANCELLED_TEXT  # type: ignore[union-attr]
    # The user ended it: it is not offered for resume.
    assert log_types() == [PAYLOAD_TYPE, DISMISSED_TYPE]


@pytest.mark.parametrize("mode", ERAS)
async def test_typed_answers_follow_the_single_and_multi_rules(
    server: AskUserServer, mode: str
) -> None:
    content = {
        "q1": "postgres",
        "q1_text": "  MariaDB  ",
        "q2": ["auth"],
        "q2_text": "audit log",
        "q3_text": "   ",
    }
    result = await ask(server, mode, FormHost("accept", content))
    answers = result.structured_content["answers"]  # type: ignore[index]
    # Single: the typed answer replaces the choice; multi: it comes after the choices.
    assert answers["db"] == {
        "values": ["MariaDB"],
        "labels": ["MariaDB"],
        "indices": [],
        "customText": "MariaDB",
    }
    assert answers["extras"] == {
        "values": ["auth", "audit log"],
        "labels": ["Auth", "audit log"],
        "indices": [3],
        "customText": "audit log",
    }
    assert "layout" not in answers  # blank text is no answer


@pytest.mark.parametrize("mode", ERAS)
async def test_unknown_or_malformed_values_are_dropped(
    server: AskUserServer, mode: str, capsys: pytest.CaptureFixture[str]
) -> None:
    content = {"q1": "oracle", "q2": ["metrics", "nope"], "q3": "flat", "q9": "x", "q1_text": 7}
    result = await ask(server, mode, FormHost("accept", content))
    details = result.structured_content
    assert details is not None
    assert details["cancelled"] is False
    assert details["answers"] == {
        "layout": {"values": ["flat"], "labels": ["Flat"], "indices": [1]}
    }
    log = capsys.readouterr().err
    assert "question 1: the choice is not one of the options offered" in log
    assert "question 2: the choice is not one of the options offered" in log
    assert "question 1: the typed answer is not text" in log


@pytest.mark.parametrize("mode", ERAS)
async def test_without_elicitation_nobody_is_asked_and_the_ask_stays_resumable(
    server: AskUserServer, mode: str
) -> None:
    result = await ask(server, mode, None)
    details = result.structured_content
    assert details is not None
    assert details["cancelled"] is True
    assert details["reason"] == "no_terminal"
    assert [q["id"] for q in details["questions"]] == ["db", "extras", "layout"]
    assert result.content[0].text.startswith("Needs user input")  # type: ignore[union-attr]
    assert log_types() == [PAYLOAD_TYPE, UNREACHED_TYPE]


@pytest.mark.parametrize(
    ("arguments", "path"),
    [
        pytest.param(
            {"questions": [{"id": "a", "prompt": "A?", "options": [{"value": "x"}]}] * 2},
            "questions[1].id",
            id="contract-invalid",
        ),
        pytest.param(
            {"questions": [{"id": "a", "options": "x"}]},
            "questions[0].options",
            id="schema-invalid",
        ),
        pytest.param({"title": 3}, "questions", id="no-questions"),
    ],
)
@pytest.mark.parametrize("mode", ERAS)
async def test_invalid_arguments_are_the_contract_invalid_input_result(
    server: AskUserServer, mode: str, arguments: dict[str, Any], path: str
) -> None:
    host = FormHost("accept", {})
    result = await ask(server, mode, host, arguments)
    # The contract's own result for these arguments, unchanged: not an SDK error.
    expected = invalid_result(load_payload(arguments))
    assert result.is_error is False
    assert result.content[0].text == expected.text  # type: ignore[union-attr]
    assert result.structured_content == {**expected.details.to_json(), "text": expected.text}
    assert f"- {path}: " in expected.text
    assert result.structured_content["error"]["kind"] == "invalid_input"  # type: ignore[index]
    assert host.forms == []  # nobody was asked
    assert log_types() == []  # invalid payloads are not recorded


async def test_progress_is_sent_while_the_form_waits(server: AskUserServer) -> None:
    seen: list[tuple[float, str | None]] = []
    progressed = anyio.Event()

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, message))
        progressed.set()

    async def host(context: Any, params: Any) -> types.ElicitResult:
        # The form stays open until the client has seen the server's progress.
        with anyio.fail_after(WAIT_CAP_S):
            await progressed.wait()
        return types.ElicitResult(action="accept", content={"q1": "postgres"})

    async with Client(server.server, mode="legacy", elicitation_callback=host) as client:
        result = await client.call_tool("ask_user", PAYLOAD, progress_callback=on_progress)
    assert result.structured_content["answers"]["db"]["values"] == ["postgres"]  # type: ignore[index]
    assert seen[0] == (1, PROGRESS_MESSAGE)


@pytest.mark.parametrize("mode", ERAS)
async def test_a_call_that_reaches_nobody_says_no_waiting(server: AskUserServer, mode: str) -> None:
    """No form and no inbox or tmux: the answer is at once, with no "waiting" beat first."""
    beats: list[str | None] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        beats.append(message)

    async with Client(server.server, mode=mode) as client:
        result = await client.call_tool("ask_user", PAYLOAD, progress_callback=on_progress)
        await client.list_tools()  # a round trip after it: anything sent before has arrived
    assert result.structured_content["reason"] == "no_terminal"  # type: ignore[index]
    assert beats == []


async def test_a_client_cancel_mid_wait_closes_the_form_and_keeps_the_ask(
    server: AskUserServer,
) -> None:
    host = OpenForm()

    async with Client(server.server, mode="legacy", elicitation_callback=host) as client:
        async with anyio.create_task_group() as group:
            group.start_soon(client.call_tool, "ask_user", PAYLOAD)
            with anyio.fail_after(WAIT_CAP_S):
                await host.opened.wait()
            group.cancel_scope.cancel()  # the SDK sends notifications/cancelled
        with anyio.fail_after(WAIT_CAP_S):
            await host.closed.wait()  # the server withdrew its form
        # The server keeps serving.
        assert [tool.name for tool in (await client.list_tools()).tools] == [
            "ask_user",
            "ask_user_start",
            "ask_user_result",
        ]
    assert log_types() == [PAYLOAD_TYPE]  # aborted: still resumable


@pytest.mark.parametrize("mode", ERAS)
@pytest.mark.parametrize("face", ["auto", "elicitation", "terminal"])
async def test_every_face_setting_falls_back_to_the_form(
    face: str, mode: str, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No terminal route can reach anyone in this test, so the form is the one route left.
    config = tmp_path / "config.toml"
    config.write_text(f'[mcp]\nface = "{face}"\n', encoding="utf-8")
    monkeypatch.setenv("PI_ASK_CONFIG", str(config))
    host = FormHost("accept", {"q1": "postgres"})
    result = await ask(build_server(), mode, host)
    assert len(host.forms) == 1
    assert result.structured_content["answers"]["db"]["values"] == ["postgres"]  # type: ignore[index]


async def test_the_elicitation_face_never_tries_the_terminal() -> None:
    tried: list[str] = []

    async def terminal(loaded: Any, *, ask_id: str, **hooks: Any) -> None:
        tried.append(ask_id)

    from pi_ask.config.store import open_store

    server = AskUserServer(open_store(), face="elicitation", terminal=terminal)
    result = await ask(server, "legacy", None)
    assert result.structured_content["reason"] == "no_terminal"  # type: ignore[index]
    assert tried == []
    auto = AskUserServer(open_store(), face="auto", terminal=terminal)
    await ask(auto, "legacy", None)
    assert len(tried) == 1  # auto tries the terminal when the client has no form


async def test_a_retry_that_answers_with_something_else_is_aborted(server: AskUserServer) -> None:
    async with Client(server.server, elicitation_callback=FormHost("cancel")) as client:
        first = await client.session.call_tool(
            "ask_user", copy.deepcopy(PAYLOAD), allow_input_required=True
        )
        assert isinstance(first, types.InputRequiredResult)
        assert list(first.input_requests) == ["ask"]
        retry = await client.session.call_tool(
            "ask_user",
            copy.deepcopy(PAYLOAD),
            input_responses={"ask": types.ListRootsResult(roots=[])},
            request_state=first.request_state,
        )
    assert retry.structured_content["reason"] == "aborted"  # type: ignore[index]
    assert log_types() == [PAYLOAD_TYPE]  # not the user's answer: still resumable


async def test_a_retry_with_other_arguments_is_refused_by_the_sealed_state(
    server: AskUserServer,
) -> None:
    async with Client(server.server, elicitation_callback=FormHost("cancel")) as client:
        first = await client.session.call_tool(
            "ask_user", copy.deepcopy(PAYLOAD), allow_input_required=True
        )
        assert isinstance(first, types.InputRequiredResult)
        other = copy.deepcopy(PAYLOAD)
        other["title"] = "Something else"
        with pytest.raises(MCPError, match="Invalid or expired requestState"):
            await client.session.call_tool(
                "ask_user",
                other,
                input_responses={"ask": types.ElicitResult(action="accept", content={})},
                request_state=first.request_state,
            )


async def test_past_the_deadline_the_form_is_withdrawn_with_timeout(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[behaviour]\nanswer_timeout_s = 1\n", encoding="utf-8")
    monkeypatch.setenv("PI_ASK_CONFIG", str(config))
    host = OpenForm()  # never answers
    async with Client(build_server().server, mode="legacy", elicitation_callback=host) as client:
        with anyio.fail_after(WAIT_CAP_S):
            result = await client.call_tool("ask_user", copy.deepcopy(PAYLOAD))
            await host.closed.wait()  # the server withdrew its form
    assert result.structured_content["reason"] == "timeout"  # type: ignore[index]
    assert "reason: timeout" in result.content[0].text  # type: ignore[union-attr]
    assert log_types() == [PAYLOAD_TYPE]  # the ask stays resumable
