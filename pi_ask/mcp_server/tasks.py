"""``ask_user`` as an MCP task: the Tasks extension (``io.modelcontextprotocol/tasks``).

On a 2026-07-28 request whose client capabilities list the extension, an ask that goes to
the terminal route is handed over as a detached ask (the one ``ask_user_start`` makes) and
the call returns a task handle (``resultType: "task"``) at once instead of waiting: the
host polls ``tasks/get`` (the answer as the call's ``CallToolResult`` once it exists) and
may send ``tasks/cancel``; no tool timeout runs meanwhile. The task id is the ask id, a
random UUID, so the same ask also shows in ``pi-ask attach --list`` and answers
``ask_user_result``. The host's form (a 2026-07-28 ``input_required`` round) is still
asked synchronously first, as the extension recommends.

The 2025-11-25 experimental tasks (``execution.taskSupport``, ``tasks/result``) are not
offered: the SDK serves 2025-11-25 results only in that revision's core shapes, so a task
handle cannot be returned on such a connection through its public interfaces.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from typing import Any, Final

import anyio
from mcp import types
from mcp.server import Server, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types.version import is_version_at_least

from pi_ask.contract.results import ToolResult
from pi_ask.mcp_server.tool_table import MODERN_VERSION, TASKS_EXTENSION
from pi_ask.relay.asks import KEEP_AT_MOST_S, now_ms

EXTENSION: Final = TASKS_EXTENSION
POLL_INTERVAL_MS: Final = 2000
TTL_MS: Final = KEEP_AT_MOST_S * 1000
MISSING_CAPABILITY: Final = -32021


class TaskParams(types.RequestParams):
    """``tasks/get``, ``tasks/cancel``: which task."""

    task_id: str


class TaskUpdateParams(TaskParams):
    """``tasks/update``: answers to the task's input requests (an ask as a task has none)."""

    input_responses: dict[str, Any] | None = None


def offers_tasks(ctx: ServerRequestContext[Any]) -> bool:
    """True when this request's client takes a task handle (2026-07-28, extension listed)."""
    if not is_version_at_least(ctx.protocol_version, MODERN_VERSION):
        return False
    capabilities = ctx.session.client_capabilities
    extensions = capabilities.extensions if capabilities is not None else None
    return isinstance(extensions, dict) and EXTENSION in extensions


def task_created(ask_id: str) -> dict[str, Any]:
    """The ``CreateTaskResult`` for a task just handed over."""
    now = _iso(now_ms())
    return {"resultType": "task", **_task(ask_id, "working", now, now)}


def _task(task_id: str, status: str, created: str, updated: str) -> dict[str, Any]:
    return {
        "taskId": task_id,
        "status": status,
        "createdAt": created,
        "lastUpdatedAt": updated,
        "ttlMs": TTL_MS,
        "pollIntervalMs": POLL_INTERVAL_MS,
    }


def _iso(epoch_ms: int) -> str:
    return datetime.fromtimestamp(epoch_ms / 1000, UTC).isoformat(timespec="milliseconds")


class TaskMethods:
    """``tasks/get``, ``tasks/update`` and ``tasks/cancel`` for asks handed over as tasks.

    ``render`` makes the ``CallToolResult`` of an ask's result (the server's own);
    ``settle`` records a result in its session log the first time it is handed out.
    """

    def __init__(
        self,
        render: Callable[[ToolResult], types.CallToolResult],
        settle: Callable[[str, Any], None],
    ) -> None:
        self._render = render
        self._settle = settle

    def install(self, server: Server[Any]) -> None:
        """Register the methods on ``server`` and advertise the extension."""
        server.extensions[EXTENSION] = {}
        server.add_request_handler("tasks/get", TaskParams, self._get)
        server.add_request_handler("tasks/update", TaskUpdateParams, self._update)
        server.add_request_handler("tasks/cancel", TaskParams, self._cancel)

    async def _get(self, ctx: ServerRequestContext[Any], params: TaskParams) -> dict[str, Any]:
        from pi_ask.relay.elsewhere import UnknownAsk, fetch_result

        _require_extension(ctx)
        created = await anyio.to_thread.run_sync(_created_ms, params.task_id)
        try:
            fetched = await anyio.to_thread.run_sync(partial(fetch_result, params.task_id))
        except UnknownAsk:
            raise _not_found() from None
        if created is None:
            raise _not_found()
        if fetched is None:
            return _task(params.task_id, "working", _iso(created), _iso(created))
        self._settle(params.task_id, fetched)
        updated = _iso(now_ms())
        if fetched.result.details.reason == "aborted":
            # Ended by tasks/cancel (or its asker gave up): the request was cancelled.
            return _task(params.task_id, "cancelled", _iso(created), updated)
        result = self._render(fetched.result)
        return {
            **_task(params.task_id, "completed", _iso(created), updated),
            "result": result.model_dump(by_alias=True, mode="json", exclude_none=True),
        }

    async def _update(
        self, ctx: ServerRequestContext[Any], params: TaskUpdateParams
    ) -> dict[str, Any]:
        # An ask as a task never asks the host for input: responses are ignored, as the
        # extension says of keys that are not outstanding.
        _require_extension(ctx)
        if await anyio.to_thread.run_sync(_created_ms, params.task_id) is None:
            raise _not_found()
        return {}

    async def _cancel(self, ctx: ServerRequestContext[Any], params: TaskParams) -> dict[str, Any]:
        from pi_ask.relay.elsewhere import UnknownAsk, abort_detached

        _require_extension(ctx)
        try:
            await anyio.to_thread.run_sync(abort_detached, params.task_id)
        except UnknownAsk:
            raise _not_found() from None
        return {}


def _created_ms(task_id: str) -> int | None:
    """When the task's ask was created, or ``None`` when there is no such ask."""
    from pi_ask.relay.asks import AskFolder, is_ask_id
    from pi_ask.relay.paths import NoPrivateFolder, asks_dir

    if not is_ask_id(task_id):
        return None
    try:
        summary = AskFolder(asks_dir() / task_id).summary()
    except NoPrivateFolder:
        return None
    return None if summary is None else summary.created_ms


def _require_extension(ctx: ServerRequestContext[Any]) -> None:
    if not offers_tasks(ctx):
        raise MCPError(
            code=MISSING_CAPABILITY,
            message="Missing required client capability",
            data={"requiredCapabilities": {"extensions": {EXTENSION: {}}}},
        )


def _not_found() -> MCPError:
    return MCPError(code=types.INVALID_PARAMS, message="Failed to retrieve task: Task not found")
