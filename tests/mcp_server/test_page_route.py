"""URL-mode elicitation: the real SDK client, declaring URL mode, is sent a running
``pi-ask web``'s page of the ask; the answer given on the page (over HTTP, as the page sends
it) is the tool's result, and the client hears that the elicitation is complete."""

from __future__ import annotations

import copy
import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, types

from pi_ask.relay.client import list_pending
from tests.e2e.terminal import pi_ask_command
from tests.mcp_server.helpers import FormHost
from tests.mcp_server.test_stdio import pi_ask_mcp
from tests.mcp_server.test_terminal_route import ONE_QUESTION
from tests.web.conftest import Client as PageClient
from tests.web.conftest import WebServer
from tests.web.test_uploads import send_file

pytestmark = pytest.mark.anyio
WAIT_CAP_S = 120  # a generous cap on waits for a condition, never the thing under test


@pytest.fixture
def web(tmp_path: Path) -> Iterator[WebServer]:
    """``pi-ask web`` with this test's folders (those the MCP server gets too)."""
    stderr = tmp_path / "web.err"
    with stderr.open("wb") as err:
        process = subprocess.Popen(
            [*pi_ask_command(), "web", "--port", "0"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
            env=dict(os.environ),
            cwd=tmp_path,
            start_new_session=True,
        )
    try:
        yield WebServer(process, stderr)
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class PageHost:
    """A client that opens the page it is sent (the user agreeing to go), and the user
    answering there: the page's own requests from a paired device."""

    def __init__(self, device: PageClient, action: str = "accept") -> None:
        self.device = device
        self.action = action
        self.links: list[types.ElicitRequestURLParams] = []
        self.completed: list[str] = []
        self.answering: list[Any] = []

    async def elicit(self, context: Any, params: Any) -> types.ElicitResult:
        assert isinstance(params, types.ElicitRequestURLParams), params
        self.links.append(params)
        return types.ElicitResult(action=self.action)  # type: ignore[arg-type]

    async def on_message(self, message: Any) -> None:
        if isinstance(message, types.ElicitCompleteNotification):
            self.completed.append(message.params.elicitation_id)

    def answer(self, ask_id: str) -> None:
        """On the page: SQLite (a single choice moves on), then Submit."""
        assert self.device.act(ask_id, {"do": "choose", "row": 1}).status == 200
        done = self.device.act(ask_id, {"do": "review", "action": "submit"}).json()
        assert done["ended"]["here"] is True


async def _wait_for_link(host: PageHost) -> types.ElicitRequestURLParams:
    while not host.links:
        await anyio.sleep(0.02)  # a polling interval; the link arriving is what is waited for
    return host.links[0]


async def _answered_on_page(
    cwd: Path, host: PageHost, on_page: Callable[[str], None]
) -> tuple[types.CallToolResult, types.ElicitRequestURLParams]:
    """``ask_user`` called by a client that is sent the page, ``on_page(ask_id)`` doing the
    user's part there: the call's result, and the link the client was sent (once the client
    heard the elicitation is complete)."""
    results: list[types.CallToolResult] = []
    async with Client(
        pi_ask_mcp(cwd),
        mode="legacy",
        elicitation_callback=host.elicit,
        message_handler=host.on_message,
    ) as client:

        async def call() -> None:
            results.append(await client.call_tool("ask_user", copy.deepcopy(ONE_QUESTION)))

        with anyio.fail_after(WAIT_CAP_S):
            async with anyio.create_task_group() as group:
                group.start_soon(call)
                link = await _wait_for_link(host)
                await anyio.to_thread.run_sync(on_page, link.url.rpartition("#ask=")[2])
            while not host.completed:  # the notification may trail the result
                await anyio.sleep(0.02)
    [result] = results
    return result, link


async def test_the_page_is_sent_and_answered_there(tmp_path: Path, web: WebServer) -> None:
    host = PageHost(web.paired())
    result, link = await _answered_on_page(tmp_path, host, host.answer)
    ask_id = link.url.rpartition("#ask=")[2]
    # The ask's page, nothing pre-authenticated in it (no pairing code, no token).
    assert link.url == f"http://127.0.0.1:{web.port}/#ask={ask_id}"
    assert all(code not in link.url for code in web.codes())
    assert link.elicitation_id == ask_id
    assert link.message == "Pick a database: Answer on the pi-ask web page"
    details: Any = result.structured_content
    assert details["cancelled"] is False
    assert details["answers"]["db"]["values"] == ["sqlite"]
    assert host.completed == [ask_id]


async def test_a_file_sent_on_the_page_is_held_to_the_settings_and_outlives_the_ask(
    tmp_path: Path, web: WebServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page's ask carries the user's ``[attachments]`` (one file here), and the file
    of the answer is kept where the result says once the ask's folder is gone."""
    monkeypatch.setenv("PI_ASK_ATTACHMENTS__MAX_FILES", "1")
    host = PageHost(web.paired())
    sent: list[int] = []

    def attach_then_answer(ask_id: str) -> None:
        sent.append(send_file(host.device, ask_id, "notes.txt", b"one").status)
        sent.append(send_file(host.device, ask_id, "more.txt", b"two").status)
        host.answer(ask_id)

    result, link = await _answered_on_page(tmp_path, host, attach_then_answer)
    ask_id = link.url.rpartition("#ask=")[2]
    assert sent == [200, 413]  # the second is past the user's max_files
    details: Any = result.structured_content
    assert details["answers"]["db"]["values"] == ["sqlite"]
    (attached,) = details["answers"]["db"]["attachments"]
    path = Path(attached["path"])
    assert path.parent == Path(os.environ["PI_ASK_STATE_DIR"]) / "attachments" / ask_id
    assert path.read_bytes() == b"one"
    asks = Path(os.environ["PI_ASK_STATE_DIR"]) / "asks"
    assert list_pending(asks) == []


async def test_the_user_declining_the_page_cancels_the_ask(tmp_path: Path, web: WebServer) -> None:
    host = PageHost(web.paired(), action="decline")
    async with Client(
        pi_ask_mcp(tmp_path), mode="legacy", elicitation_callback=host.elicit
    ) as client:
        with anyio.fail_after(WAIT_CAP_S):
            result = await client.call_tool("ask_user", copy.deepcopy(ONE_QUESTION))
    details: Any = result.structured_content
    assert details["cancelled"] is True and details["reason"] == "cancelled"
    assert len(host.links) == 1
    asks = Path(os.environ["PI_ASK_STATE_DIR"]) / "asks"
    assert list_pending(asks) == []  # the page's ask was taken back


async def test_a_host_declining_at_once_gets_the_form(
    tmp_path: Path, web: WebServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A decline faster than a person could is the host's, not the user's: the form next."""
    monkeypatch.setenv("PI_ASK_MCP__MIN_HUMAN_MS", "600000")
    form = FormHost("accept", {"q1": "pg"})

    async def both(context: Any, params: Any) -> types.ElicitResult:
        if isinstance(params, types.ElicitRequestURLParams):
            return types.ElicitResult(action="decline")
        return await form(context, params)

    async with Client(pi_ask_mcp(tmp_path), mode="legacy", elicitation_callback=both) as client:
        with anyio.fail_after(WAIT_CAP_S):
            result = await client.call_tool("ask_user", copy.deepcopy(ONE_QUESTION))
    details: Any = result.structured_content
    assert details["answers"]["db"]["values"] == ["pg"]
    assert len(form.forms) == 1


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_without_a_running_page_or_on_2026_07_28_the_form_goes(
    tmp_path: Path, mode: str, request: pytest.FixtureRequest
) -> None:
    """No ``pi-ask web`` (legacy), or one running but a 2026-07-28 connection (auto)."""
    if mode == "auto":
        request.getfixturevalue("web")
    form = FormHost("accept", {"q1": "sqlite"})
    async with Client(pi_ask_mcp(tmp_path), mode=mode, elicitation_callback=form) as client:
        with anyio.fail_after(WAIT_CAP_S):
            result = await client.call_tool("ask_user", copy.deepcopy(ONE_QUESTION))
    details: Any = result.structured_content
    assert details["answers"]["db"]["values"] == ["sqlite"]
    assert len(form.forms) == 1
