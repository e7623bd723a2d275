"""``ask_user`` as an MCP task (the Tasks extension), through the SDK's own client.

The client is the SDK's ``Client`` with a client extension of the test's own: it declares
``io.modelcontextprotocol/tasks`` and claims the ``"task"`` result shape, whose resolver
polls ``tasks/get`` until the task ends, as a host does. The ask is answered through the
relay, as ``pi-ask attach`` does, or in a real ``pi-ask inbox`` on a pty.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import anyio
import anyio.abc
import pytest
from mcp import Client, types
from mcp.client import ClaimContext, ClientExtension, ResultClaim
from mcp.shared.exceptions import MCPError

from pi_ask.mcp_server.server import build_server
from pi_ask.mcp_server.tasks import EXTENSION, POLL_INTERVAL_MS
from pi_ask.relay.client import list_pending
from pi_ask.session.entries import DISMISSED_TYPE, PAYLOAD_TYPE
from tests.mcp_server.helpers import PAYLOAD, log_types
from tests.mcp_server.test_detached_tools import answer_first_option, structured
from tests.mcp_server.test_stdio import pi_ask_mcp
from tests.mcp_server.test_terminal_route import ONE_QUESTION, answer_in, inbox

pytestmark = pytest.mark.anyio
WAIT_CAP_S = 60
__all__ = ["inbox"]  # the fixture, used by name


class Task(types.Result):
    """A task as the extension describes it."""

    task_id: str
    status: str
    created_at: str
    last_updated_at: str
    ttl_ms: int | None = None
    poll_interval_ms: int | None = None


class CreatedTask(Task):
    """A ``tools/call`` answered with a task handle."""

    result_type: Literal["task"] = "task"


class TaskState(Task):
    """A ``tasks/get`` answer: the task, with the call's result once it is completed."""

    result: dict[str, Any] | None = None


class Tasks(ClientExtension):
    """The host's side of the extension: poll ``tasks/get`` until the task ends."""

    identifier = EXTENSION

    def __init__(self) -> None:
        self.handles: list[CreatedTask] = []
        self.polls: list[TaskState] = []

    def claims(self) -> Sequence[ResultClaim[Any]]:
        return [ResultClaim(result_type="task", model=CreatedTask, resolve=self._resolve)]

    async def _resolve(self, handle: CreatedTask, ctx: ClaimContext) -> types.CallToolResult:
        self.handles.append(handle)
        while True:
            state = await get_task(ctx.session, handle.task_id)
            self.polls.append(state)
            if state.status == "completed":
                return types.CallToolResult.model_validate(state.result)
            if state.status != "working":
                raise AssertionError(f"the task ended {state.status}")
            # The server's poll interval, as a host honours it; the status is what is awaited.
            await anyio.sleep((state.poll_interval_ms or POLL_INTERVAL_MS) / 1000)


async def get_task(session: Any, task_id: str) -> TaskState:
    request = types.GetTaskRequest(params=types.GetTaskRequestParams(task_id=task_id))
    state: TaskState = await session.send_request(request, TaskState)
    return state


async def cancel_task(session: Any, task_id: str) -> None:
    request = types.CancelTaskRequest(params=types.CancelTaskRequestParams(task_id=task_id))
    await session.send_request(request, types.EmptyResult)


def settings(text: str) -> None:
    path = Path(os.environ["PI_ASK_CONFIG"])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


WAIT_FOR_ATTACH = '[behaviour]\nno_terminal = "wait"\n'
TASKS_ON = "[mcp]\ntasks = true\n"  # off by default


def call_soon(
    group: anyio.abc.TaskGroup, client: Client, arguments: dict[str, Any]
) -> list[types.CallToolResult]:
    """``ask_user`` called in ``group``; its result lands in the list returned."""
    results: list[types.CallToolResult] = []

    async def call() -> None:
        results.append(await client.call_tool("ask_user", copy.deepcopy(arguments)))

    group.start_soon(call)
    return results


async def test_an_ask_for_an_attach_is_a_task_polled_to_its_answer() -> None:
    settings(WAIT_FOR_ATTACH + TASKS_ON + "\n[attachments]\nmax_files = 3\n")
    tasks = Tasks()
    async with Client(build_server().server, extensions=[tasks]) as client:
        async with anyio.create_task_group() as group:
            results = call_soon(group, client, PAYLOAD)
            with anyio.fail_after(WAIT_CAP_S):
                while not tasks.polls:
                    await anyio.sleep(0.02)  # a polling interval; the first poll is awaited
            (handle,) = tasks.handles
            assert handle.status == "working" and handle.ttl_ms and handle.poll_interval_ms
            (listed,) = list_pending()  # the task is a pending ask, for inbox, attach, web
            assert listed.ask_id == handle.task_id and listed.detached
            assert listed.files().max_files == 3  # the user's [attachments]
            assert tasks.polls[0].status == "working"
            await anyio.to_thread.run_sync(answer_first_option, handle.task_id)
        (result,) = results
    assert structured(result)["answers"]["db"]["values"] == ["postgres"]
    assert result.content[0].text == structured(result)["text"]  # type: ignore[union-attr]
    assert tasks.polls[-1].status == "completed"
    assert log_types() == [PAYLOAD_TYPE, DISMISSED_TYPE]  # recorded, settled when fetched


async def test_a_cancelled_task_ends_the_ask() -> None:
    settings(WAIT_FOR_ATTACH + TASKS_ON)
    async with Client(build_server().server, extensions=[Tasks()]) as client:
        handle = await client.session.call_tool(
            "ask_user", copy.deepcopy(PAYLOAD), allow_claimed=True
        )
        assert isinstance(handle, CreatedTask)
        await cancel_task(client.session, handle.task_id)
        state = await get_task(client.session, handle.task_id)
    assert state.status == "cancelled" and state.result is None
    assert list_pending() == []  # nobody can answer it any more


async def test_with_nobody_to_take_it_there_is_no_task() -> None:
    settings(TASKS_ON)
    tasks = Tasks()  # no inbox, no tmux, no_terminal = "answer": no_terminal at once
    async with Client(build_server().server, extensions=[tasks]) as client:
        result = await client.call_tool("ask_user", copy.deepcopy(PAYLOAD))
    assert structured(result)["reason"] == "no_terminal"
    assert tasks.handles == []
    assert list_pending() == []


@pytest.mark.parametrize(
    "how", ["the client has no tasks", "[mcp] tasks = false", "[mcp] tasks left at its default"]
)
async def test_without_tasks_the_call_waits_as_before(how: str) -> None:
    with_tasks = how != "the client has no tasks"
    off = "[mcp]\ntasks = false\n" if how == "[mcp] tasks = false" else ""
    settings(WAIT_FOR_ATTACH + (off if with_tasks else TASKS_ON))
    extensions = [Tasks()] if with_tasks else []
    async with Client(build_server().server, extensions=extensions) as client:
        async with anyio.create_task_group() as group:
            results = call_soon(group, client, PAYLOAD)
            with anyio.fail_after(WAIT_CAP_S):
                while not (pending := await anyio.to_thread.run_sync(list_pending)):
                    await anyio.sleep(0.02)  # a polling interval; the listing is awaited
            assert not pending[0].detached  # its asker waits on it
            await anyio.to_thread.run_sync(answer_first_option, pending[0].ask_id)
        if not with_tasks:
            with pytest.raises(MCPError) as refused:
                await get_task(client.session, pending[0].ask_id)
            assert refused.value.code == -32021  # tasks/* only for a client that takes them
    assert structured(results[0])["answers"]["db"]["values"] == ["postgres"]


async def test_an_unknown_task_is_invalid_params() -> None:
    async with Client(build_server().server, extensions=[Tasks()]) as client:
        for task_id in ("no-such-task", "../../etc"):
            with pytest.raises(MCPError) as unknown:
                await get_task(client.session, task_id)
            assert unknown.value.code == -32602
            with pytest.raises(MCPError) as unknown:
                await cancel_task(client.session, task_id)
            assert unknown.value.code == -32602


async def test_a_task_over_stdio_is_answered_in_a_running_inbox(tmp_path: Path, inbox: Any) -> None:
    settings(TASKS_ON)  # the running inbox takes the task
    tasks = Tasks()
    async with Client(pi_ask_mcp(tmp_path), extensions=[tasks]) as client:
        with anyio.fail_after(WAIT_CAP_S * 2):
            async with anyio.create_task_group() as group:
                results = call_soon(group, client, ONE_QUESTION)
                await anyio.to_thread.run_sync(answer_in, inbox)
    assert [handle.status for handle in tasks.handles] == ["working"]
    details: Any = results[0].structured_content
    assert details["answers"]["db"]["labels"] == ["Sqlite"]
