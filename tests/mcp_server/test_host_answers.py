"""Never a false submit (python-port.md §12): a host that answers its form for the user.

An accept carrying none of the form's fields, or a decline / cancel faster than
``[mcp] min_human_ms``, is the host answering: the terminal route is tried, and when it reaches
nobody the result is ``no_terminal`` with a text saying what happened. Both eras, through the
SDK's own client against the server in-process.
"""

from __future__ import annotations

import copy
from typing import Any

import anyio
import jsonschema
import pytest
from mcp import Client, types

from pi_ask.config.store import open_store
from pi_ask.contract.loading import LoadedPayload, load_payload
from pi_ask.contract.result_schema import RESULT_DETAILS_SCHEMA
from pi_ask.contract.results import ToolResult
from pi_ask.mcp_server.server import AskUserServer
from pi_ask.session.entries import PAYLOAD_TYPE, UNREACHED_TYPE
from pi_ask.state.results import non_interactive_result
from pi_ask.state.summary import PENDING_FOOTER, PENDING_HEADING
from tests.mcp_server.helpers import ERAS, PAYLOAD, FormHost, log_types

pytestmark = pytest.mark.anyio


@pytest.fixture
def strict(monkeypatch: pytest.MonkeyPatch) -> None:
    """A person needs ten minutes to decline: every test host's decline is the host's."""
    monkeypatch.setenv("PI_ASK_MCP__MIN_HUMAN_MS", "600000")


class Terminal:
    """A stand-in terminal route: records each try, answers with ``result`` (``None``: nobody)."""

    def __init__(self, result: ToolResult | None = None) -> None:
        self.result = result
        self.tried: list[str] = []

    async def __call__(self, loaded: Any, *, ask_id: str, **hooks: Any) -> ToolResult | None:
        self.tried.append(ask_id)
        return self.result


async def call(server: AskUserServer, mode: str, host: Any) -> types.CallToolResult:
    async with Client(server.server, mode=mode, elicitation_callback=host) as client:  # type: ignore[arg-type]
        return await client.call_tool("ask_user", copy.deepcopy(PAYLOAD))


def details(result: types.CallToolResult) -> dict[str, Any]:
    structured = result.structured_content
    assert isinstance(structured, dict)
    jsonschema.validate(structured, RESULT_DETAILS_SCHEMA)
    text = result.content[0]
    assert isinstance(text, types.TextContent)
    assert structured["text"] == text.text  # the model reads the same from either half
    return structured


@pytest.mark.parametrize("mode", ERAS)
@pytest.mark.parametrize(
    "content", [None, {}, {"unknown": "x"}], ids=["no content", "empty", "no form field"]
)
async def test_an_accept_without_fields_is_not_a_submit(
    mode: str, content: dict[str, Any] | None, capsys: pytest.CaptureFixture[str]
) -> None:
    terminal = Terminal()
    server = AskUserServer(open_store(), terminal=terminal)
    result = await call(server, mode, FormHost("accept", content))
    got = details(result)
    assert got["cancelled"] is True and got["reason"] == "no_terminal"
    assert got["answers"] == {}
    assert len(terminal.tried) == 1  # the terminal route was tried after the form
    text = result.content[0].text  # type: ignore[union-attr]
    assert text.startswith("\n".join(PENDING_HEADING))
    assert "the host accepted the form without any of its fields" in text
    assert "Do not assume any answer" in text
    # The questions come with their options, for a host that forwards only structuredContent.
    assert [option["value"] for option in got["questions"][0]["options"]] == ["postgres", "sqlite"]
    assert log_types() == [PAYLOAD_TYPE, UNREACHED_TYPE]  # not settled as an answer: resumable
    stderr = capsys.readouterr().err
    assert "the terminal route reached nobody" in stderr
    assert "no pi-ask inbox or web face is running" in stderr


@pytest.mark.parametrize("mode", ERAS)
@pytest.mark.parametrize("action", ["decline", "cancel"])
async def test_an_instant_decline_is_the_hosts(strict: None, mode: str, action: str) -> None:
    server = AskUserServer(open_store(), terminal=Terminal())
    result = await call(server, mode, FormHost(action))
    got = details(result)
    assert got["reason"] == "no_terminal"
    verb = "declined" if action == "decline" else "cancelled"
    assert f"the host {verb} the form" in result.content[0].text  # type: ignore[union-attr]


@pytest.mark.parametrize("mode", ERAS)
async def test_when_the_host_answers_the_terminal_route_asks(strict: None, mode: str) -> None:
    loaded = load_payload(PAYLOAD)
    assert isinstance(loaded, LoadedPayload)
    answered = non_interactive_result(loaded.payload, "timeout")
    terminal = Terminal(answered)
    server = AskUserServer(open_store(), terminal=terminal)
    result = await call(server, mode, FormHost("decline"))
    assert details(result)["reason"] == "timeout"  # the terminal's own result
    assert len(terminal.tried) == 1


class SlowDecline:
    """A person: declines only after a moment has passed since the form arrived."""

    async def __call__(self, context: Any, params: Any) -> types.ElicitResult:
        await anyio.sleep(0.05)
        return types.ElicitResult(action="decline")


@pytest.mark.parametrize("mode", ERAS)
async def test_a_persons_decline_stays_cancelled(
    monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    monkeypatch.setenv("PI_ASK_MCP__MIN_HUMAN_MS", "1")
    terminal = Terminal()
    server = AskUserServer(open_store(), terminal=terminal)
    result = await call(server, mode, SlowDecline())
    assert details(result)["reason"] == "cancelled"
    assert terminal.tried == []


async def test_a_submit_with_a_field_is_a_submit(strict: None) -> None:
    server = AskUserServer(open_store(), terminal=Terminal())
    result = await call(server, "legacy", FormHost("accept", {"q3_text": "mine"}))
    got = details(result)
    assert got["cancelled"] is False
    assert got["answers"]["layout"]["customText"] == "mine"
    assert "options" not in got["questions"][0]  # only no_terminal results carry options


async def test_without_forms_the_text_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    server = AskUserServer(open_store(), face="auto", terminal=Terminal())
    result = await call(server, "legacy", None)
    text = result.content[0].text  # type: ignore[union-attr]
    assert "the host shows no forms" in text
    assert PENDING_FOOTER in text
