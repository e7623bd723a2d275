"""The ``ask_user`` MCP server, on the SDK's low-level ``Server``.

The low-level server lets the tool advertise the contract's own input schema (option
``label`` optional, so the label derivation works) and take the arguments as they came, so
every problem with them is the contract's ``invalid_input`` result rather than an SDK error.

Each call picks its route (``[mcp] face``):

- **elicitation**: one form (``form.py``). On a 2026-07-28 connection the first round returns
  an ``InputRequiredResult`` and the client's retry carries the reply; on older connections
  the form goes out as a back-channel ``elicitation/create`` request while the call waits.
- **terminal**: the full TUI through ``terminal_route.ask_in_terminal``; for a client that
  takes MCP tasks (``tasks.py``), the ask is handed over detached and the call returns a
  task handle at once.
- **page**: a running ``pi-ask web``'s page of the ask as a URL-mode elicitation, before
  the form (``page_route``).
- none: the non-interactive "Needs user input" result.

Once a call waits (a form sent, or a terminal reached) it sends a progress notification and
then one every ``PROGRESS_INTERVAL_S`` (when the client gave a progress token), so hosts that
reset their tool timeout on progress keep waiting; a call that reaches nobody says no
"waiting" before its answer. A ``notifications/cancelled`` cancels the waiting
task: the flow closes and the ask stays resumable in the session log.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

import anyio
import pydantic
from mcp import types
from mcp.server import Server, ServerRequestContext
from mcp.server.request_state import RequestStateBoundary, RequestStateSecurity
from mcp.server.session import ServerSession
from mcp.shared.exceptions import MCPError
from mcp_types.version import is_version_at_least

from pi_ask.config.settings import McpFace as Face
from pi_ask.config.store import SettingsStore, open_store
from pi_ask.contract.loading import InvalidPayload, LoadedPayload, load_payload
from pi_ask.contract.rejection import invalid_result
from pi_ask.contract.results import ToolResult
from pi_ask.faces.mcp.form import build_form, form_result
from pi_ask.guarded_parse import load_json
from pi_ask.mcp_server.guidance import structured, unreached_result
from pi_ask.mcp_server.page_route import NotOnPage, ask_on_page, page_offered
from pi_ask.mcp_server.tasks import TaskMethods, offers_tasks, task_created
from pi_ask.mcp_server.terminal_route import TerminalRoute, ask_in_terminal, why_unreached
from pi_ask.mcp_server.tool_table import (
    DEFAULT_WAIT_S,
    INSTRUCTIONS,
    MAX_WAIT_S,
    MODERN_VERSION,
    RESULT_SUFFIX,
    SERVER_NAME,
    SERVER_TITLE,
    START_SUFFIX,
    published_tools,
)
from pi_ask.session.recorder import AskRecorder
from pi_ask.state.model import AskState
from pi_ask.state.results import non_interactive_result
from pi_ask.version import __version__

if TYPE_CHECKING:
    from pi_ask.relay.elsewhere import Fetched

FORM_KEY = "ask"
PROGRESS_INTERVAL_S = 10.0
PROGRESS_MESSAGE = "Waiting for the user's answer"
# A form may stay open for a long time; the sealed round state must outlive it.
REQUEST_STATE_TTL_S = 24 * 3600.0

Route = Literal["elicitation", "terminal", "page"]


def call_result(result: ToolResult) -> types.CallToolResult:
    """A contract result as MCP returns it: the text in ``content``; the details and the same
    text structured (``guidance.structured``).

    Cancelled and ``invalid_input`` results are regular results (``isError`` false), as in pi.
    """
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=result.text)],
        structured_content=structured(result),
        is_error=False,
    )


def error_result(text: str) -> types.CallToolResult:
    """A tool error the model reads (``isError``), for calls that cannot be an ask result."""
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)


def pending_result(ask_id: str) -> types.CallToolResult:
    """``{"id", "status": "pending"}``, as text and structured."""
    pending = {"id": ask_id, "status": "pending"}
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=json.dumps(pending))],
        structured_content=pending,
        is_error=False,
    )


class AskUserServer:
    """The handlers of the ``ask_user`` server; ``server`` is what to run or connect to.

    Args:
        store: the settings, read again on every call (``[mcp] face``, presentation).
        session: the session log to record into (the working directory's by default).
        face: overrides ``[mcp] face`` for every call (``pi-ask mcp --face``).
        tool_name: the published name (``--tool-name``); ``[mcp] tool_name`` when ``None``,
            read once: a host caches the list.
        terminal: the terminal route (tests stand a real one in).
    """

    def __init__(
        self,
        store: SettingsStore,
        *,
        session: Path | None = None,
        face: Face | None = None,
        tool_name: str | None = None,
        terminal: TerminalRoute = ask_in_terminal,
    ) -> None:
        self._store = store
        self.tool_name = tool_name or store.snapshot().mcp.tool_name
        self._session = session
        self._face = face
        self._terminal = terminal
        self.server: Server[Any] = Server(
            SERVER_NAME,
            version=__version__,
            title=SERVER_TITLE,
            instructions=INSTRUCTIONS,
            on_list_tools=self._list_tools,
        )
        # Registered as a plain request handler: besides the SDK's result shapes, a call may
        # return a task handle (an extension's result shape).
        self.server.add_request_handler("tools/call", types.CallToolRequestParams, self._call_tool)
        TaskMethods(call_result, self._settle_fetched).install(self.server)
        # The 2026-07-28 round state is sealed and bound to the call's arguments by the SDK.
        security = RequestStateSecurity.ephemeral(ttl=REQUEST_STATE_TTL_S)
        self.server.middleware.append(RequestStateBoundary(security, default_audience=SERVER_NAME))

    async def _list_tools(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(
            tools=[types.Tool.model_validate(tool) for tool in published_tools(self.tool_name)]
        )

    async def _call_tool(
        self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult | types.InputRequiredResult | TaskHandle:
        if params.name == self.tool_name:
            return await self._ask_and_wait(ctx, params)
        if params.name == self.tool_name + START_SUFFIX:
            return await self._start(params)
        if params.name == self.tool_name + RESULT_SUFFIX:
            return await self._result(params)
        return error_result(f"Unknown tool: {params.name}")

    async def _start(self, params: types.CallToolRequestParams) -> types.CallToolResult:
        """``X_start``: record and publish the ask with nobody waiting; its id at once."""
        loaded = self._load(params.arguments)
        if isinstance(loaded, InvalidPayload):
            return call_result(invalid_result(loaded))
        try:
            ask_id = await anyio.to_thread.run_sync(self._detach, loaded)
        except OSError as err:  # NoPrivateFolder among them
            _report(f"an ask could not be started detached: {err}")
            return error_result(f"The ask cannot be kept detached: {err}")
        return pending_result(ask_id)

    def _load(self, arguments: dict[str, Any] | None) -> LoadedPayload | InvalidPayload:
        """The call's arguments as the command line reads a payload: from JSON text, so the
        same 1 MiB limit and the same messages hold (issue 31 #4)."""
        text = json.dumps(arguments if arguments is not None else {}, ensure_ascii=False)
        present = self._store.snapshot().behaviour.present_single_as_multi
        return load_payload(text, present_single_as_multi=present)

    def _detach(self, loaded: LoadedPayload) -> str:
        from pi_ask.relay.elsewhere import start_detached

        settings = self._store.snapshot()
        recorder = AskRecorder.open(self._session)
        ask_id = recorder.start(loaded.params, "tool")
        recorder.sync()
        start_detached(
            loaded,
            ask_id,
            timeout_s=settings.routing.answer_timeout_s,
            tmux=settings.routing.tmux,
            log=recorder.path,
            limits=settings.attachments,
        )
        return ask_id

    async def _result(self, params: types.CallToolRequestParams) -> types.CallToolResult:
        """``X_result``: a started ask's result, waiting at most ``wait_s`` for it."""
        from pi_ask.relay.elsewhere import UnknownAsk, fetch_result

        arguments = params.arguments or {}
        ask_id = arguments.get("id")
        wait_s = arguments.get("wait_s", DEFAULT_WAIT_S)
        if not isinstance(ask_id, str) or not ask_id:
            return error_result(
                f"{params.name}: id must be the string {self.tool_name}_start returned"
            )
        if (
            isinstance(wait_s, bool)
            or not isinstance(wait_s, int | float)
            or not 0 <= wait_s <= MAX_WAIT_S
        ):
            return error_result(f"{params.name}: wait_s must be a number from 0 to {MAX_WAIT_S:g}")
        try:
            fetched = await anyio.to_thread.run_sync(
                partial(fetch_result, ask_id, wait_s=float(wait_s)), abandon_on_cancel=True
            )
        except UnknownAsk:
            return error_result(
                f"No ask {ask_id!r}: it was never started, or was fetched too long ago"
            )
        if fetched is None:
            return pending_result(ask_id)
        self._settle_fetched(ask_id, fetched)
        return call_result(fetched.result)

    @staticmethod
    def _settle_fetched(ask_id: str, fetched: Fetched) -> None:
        """Record a detached ask's result in its session log the first time it is handed out."""
        if fetched.first and fetched.log is not None:
            recorder = AskRecorder.open(fetched.log)
            recorder.start(None, "tool", ask_id=ask_id)
            recorder.settle(fetched.result)

    async def _ask_and_wait(
        self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult | types.InputRequiredResult | TaskHandle:
        """``X``: ask and wait for the answer (the blocking path), or hand the ask over as a
        task to a host that takes tasks."""
        settings = self._store.snapshot()
        loaded = self._load(params.arguments)
        if isinstance(loaded, InvalidPayload):
            return call_result(invalid_result(loaded))
        routes = self._routes(ctx, self._face or settings.mcp.face)
        round_state = _round_state(params.request_state) if _is_mrtr(ctx) else None
        reply = (params.input_responses or {}).get(FORM_KEY) if round_state else None
        recorder = AskRecorder.open(self._session)
        if round_state is not None and reply is not None:
            # The retry of our 2026-07-28 form round: the ask was recorded by the first round.
            ask_id = recorder.start(loaded.params, "tool", ask_id=round_state.ask_id)
            ask = _Ask(loaded, ask_id, recorder)
            read = self._read_reply(ask, reply, round_state.sent_ms)
            outcome: _Outcome | list[str]
            if isinstance(read, _HostAnswered):
                later = routes[routes.index("elicitation") + 1 :] if "elicitation" in routes else ()
                outcome = await self._ask(ctx, ask, later, [read.why])
            else:
                outcome = read
        else:
            ask_id = recorder.start(loaded.params, "tool")
            ask = _Ask(loaded, ask_id, recorder)
            outcome = await self._ask(ctx, ask, routes, [])
        if isinstance(outcome, types.InputRequiredResult | TaskHandle):
            # A form round, or a task: the ask is settled later (a retry, its first fetch).
            return outcome
        result = outcome if isinstance(outcome, ToolResult) else self._unreached(ask, outcome)
        recorder.settle(result)
        from pi_ask.ask.attachments import settle_attachments
        from pi_ask.config.paths import kept_attachments_dir

        settle_attachments(kept_attachments_dir(ask_id), result)
        return call_result(result)

    def _routes(self, ctx: ServerRequestContext[Any], face: Face) -> tuple[Route, ...]:
        """The routes to try, in order, for this client and face."""
        form: tuple[Route, ...] = ("elicitation",) if _offers_forms(ctx.session) else ()
        if face == "terminal":
            return ("terminal", *form)
        if page_offered(ctx.session, self._store, mrtr=_is_mrtr(ctx)):
            form = ("page", *form)
        return form if face == "elicitation" else (*form, "terminal")

    async def _ask(
        self,
        ctx: ServerRequestContext[Any],
        ask: _Ask,
        routes: tuple[Route, ...],
        whys: list[str],
    ) -> _Outcome | list[str]:
        """The first route's answer, the 2026-07-28 form round, a task handle, or why
        nobody was reached."""
        if "elicitation" not in routes and not whys and not _offers_forms(ctx.session):
            whys.append("the host shows no forms")
        try:
            async with _progress(ctx.session) as waiting:
                for route in routes:
                    answered = await self._try(ctx, ask, route, whys, waiting)
                    if answered is not None:
                        return answered
        except anyio.get_cancelled_exc_class():
            # notifications/cancelled (or the host went away): aborted, no reply is sent,
            # and the ask stays resumable in the session log.
            _report(f"the client cancelled ask {ask.ask_id}; it stays resumable")
            raise
        return whys

    async def _try(
        self,
        ctx: ServerRequestContext[Any],
        ask: _Ask,
        route: Route,
        whys: list[str],
        waiting: Callable[[], None],
    ) -> _Outcome | None:
        """One route: its answer, or ``None`` with the reason appended to ``whys``.

        ``waiting`` starts the progress beats: called once a form is out or a terminal
        took the ask (from the terminal route's worker thread too); a task handed over
        returns at once and needs none.
        """
        if route == "terminal":
            answered: ToolResult | TaskHandle | None
            if offers_tasks(ctx) and self._store.snapshot().mcp.tasks:
                answered = await anyio.to_thread.run_sync(self._hand_over, ask)
            else:
                answered = await self._terminal(
                    ask.loaded,
                    ask_id=ask.ask_id,
                    store=self._store,
                    on_draft=ask.on_draft,
                    on_waiting=waiting,
                )
            if answered is None:
                why = why_unreached(self._store)
                _report(f"the terminal route reached nobody for ask {ask.ask_id}: {why}")
                whys.append(why)
            return answered
        if route == "page":
            on_page = await ask_on_page(
                ctx.session, ask.loaded, ask_id=ask.ask_id, store=self._store,
                on_draft=ask.on_draft, related_request_id=ctx.request_id,
            )  # fmt: skip
            if isinstance(on_page, NotOnPage):
                _report(f"ask {ask.ask_id}: {on_page.why}; trying the next route")
                whys.append(on_page.why)
                return None
            return on_page
        if _is_mrtr(ctx):
            return _form_round(ask)
        waiting()
        outcome = await self._elicit(ctx, ask)
        if isinstance(outcome, _HostAnswered):
            whys.append(outcome.why)
            return None
        return outcome

    def _hand_over(self, ask: _Ask) -> TaskHandle | None:
        """The terminal route as a task: the ask detached, kept only when an inbox or tmux
        took it (or ``no_terminal = "wait"`` waits for an attach); its task handle."""
        from pi_ask.relay.elsewhere import Unreached, start_detached
        from pi_ask.relay.paths import NoPrivateFolder

        settings = self._store.snapshot()
        routing = settings.routing
        ask.recorder.sync()
        try:
            start_detached(
                ask.loaded,
                ask.ask_id,
                timeout_s=routing.answer_timeout_s,
                tmux=routing.tmux,
                log=ask.recorder.path,
                limits=settings.attachments,
                wait=routing.no_terminal == "wait",
            )
        except (Unreached, NoPrivateFolder):
            return None
        except OSError as err:
            _report(f"ask {ask.ask_id} could not be handed over as a task: {err}")
            return None
        return TaskHandle(task_created(ask.ask_id))

    async def _elicit(self, ctx: ServerRequestContext[Any], ask: _Ask) -> _FormOutcome:
        """The form over the back-channel (before 2026-07-28).

        Past ``[behaviour] answer_timeout_s`` the form is withdrawn and the result is
        ``timeout``. (A 2026-07-28 form waits on the client's side, out of the server's reach.)
        """
        form = build_form(ask.loaded.payload)
        deadline_s = self._store.snapshot().routing.answer_timeout_s
        sent_ms = _now_ms()
        try:
            with anyio.move_on_after(deadline_s) as deadline:
                reply = await ctx.session.elicit_form(
                    form.message, form.schema, related_request_id=ctx.request_id
                )
        except MCPError as err:
            _report(f"the client could not show the form ({err}); trying the next route")
            return _HostAnswered(f"the host could not show the form: {err.error.message}")
        except pydantic.ValidationError as err:
            # e.g. action "ACCEPT", a list for content, a list in a text field (issue 31 #9)
            first = err.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "the reply"
            why = f"the host's reply to the form was malformed ({where}: {first['msg']})"
            _report(f"ask {ask.ask_id}: {why}; trying the next route")
            return _HostAnswered(why)
        if deadline.cancelled_caught:
            return non_interactive_result(ask.loaded.payload, "timeout")
        return self._read_reply(ask, reply, sent_ms)

    def _read_reply(self, ask: _Ask, reply: object, sent_ms: int | None) -> _FormOutcome:
        """A form reply as a result, or the host's answer for the user (python-port.md §12)."""
        if not isinstance(reply, types.ElicitResult):
            _report("the client answered the form with something that is not a form reply")
            return non_interactive_result(ask.loaded.payload, "aborted")
        fields = build_form(ask.loaded.payload).schema["properties"]
        assert isinstance(fields, dict)
        if reply.action == "accept" and not set(reply.content or {}) & set(fields):
            return self._host_answered(ask, "the host accepted the form without any of its fields")
        min_ms = self._store.snapshot().mcp.min_human_ms
        elapsed_ms = None if sent_ms is None else _now_ms() - sent_ms
        if reply.action != "accept" and elapsed_ms is not None and elapsed_ms < min_ms:
            verb = "declined" if reply.action == "decline" else "cancelled"
            why = f"the host {verb} the form {max(elapsed_ms, 0)} ms after it was sent"
            return self._host_answered(ask, why)
        return _reply_result(ask.loaded, reply)

    def _host_answered(self, ask: _Ask, why: str) -> _HostAnswered:
        _report(f"ask {ask.ask_id}: {why}, faster than a person could; trying the terminal")
        return _HostAnswered(why)

    def _unreached(self, ask: _Ask, whys: list[str]) -> ToolResult:
        why = "; ".join(whys) or "no route was tried"
        return unreached_result(ask.loaded.payload, why, self.tool_name)


class _Ask(NamedTuple):
    """One call's ask: its payload, its id in the session log, the log's recorder."""

    loaded: LoadedPayload
    ask_id: str
    recorder: AskRecorder

    @property
    def on_draft(self) -> Callable[[AskState], None]:
        return self.recorder.draft


class TaskHandle(dict[str, Any]):
    """A call's ``CreateTaskResult`` (``resultType: "task"``), as the wire carries it."""


class _HostAnswered(NamedTuple):
    """The host answered the form for the user (or could not show it): why, in words."""

    why: str


_FormOutcome = ToolResult | _HostAnswered
_Outcome = ToolResult | types.InputRequiredResult | TaskHandle


class _RoundState(NamedTuple):
    """What our first 2026-07-28 round sealed into ``requestState``."""

    ask_id: str
    sent_ms: int | None


def _form_round(ask: _Ask) -> types.InputRequiredResult:
    """The 2026-07-28 form: an ``input_required`` result; the client retries with the reply.

    The send time travels in the sealed round state, so the retry can tell a decline the
    host made at once from the user's.
    """
    form = build_form(ask.loaded.payload)
    request = types.ElicitRequest(
        params=types.ElicitRequestFormParams(message=form.message, requested_schema=form.schema)
    )
    state = json.dumps({"askId": ask.ask_id, "sentMs": _now_ms()})
    return types.InputRequiredResult(input_requests={FORM_KEY: request}, request_state=state)


def _reply_result(loaded: LoadedPayload, reply: types.ElicitResult) -> ToolResult:
    result, problems = form_result(loaded.payload, reply.action, reply.content)
    for problem in problems:
        _report(problem)
    return result


def _now_ms() -> int:
    # Wall time: a 2026-07-28 retry may reach another server process than the first round.
    return time.time_ns() // 1_000_000


def _offers_forms(session: ServerSession) -> bool:
    """True when the client declared form elicitation (an empty ``elicitation`` means form)."""
    capabilities = session.client_capabilities
    elicitation = capabilities.elicitation if capabilities is not None else None
    if elicitation is None:
        return False
    return elicitation.form is not None or elicitation.url is None


def _is_mrtr(ctx: ServerRequestContext[Any]) -> bool:
    return is_version_at_least(ctx.protocol_version, MODERN_VERSION)


def _round_state(request_state: str | None) -> _RoundState | None:
    """What our first round sealed into the round state, if it is there and well formed."""
    if request_state is None:
        return None
    try:
        state = load_json(request_state)
    except ValueError:  # not JSON, or nested too deeply
        return None
    if not isinstance(state, dict):
        return None
    ask_id = state.get("askId")
    sent_ms = state.get("sentMs")
    if not (isinstance(ask_id, str) and 0 < len(ask_id) <= 64):
        return None
    valid_time = isinstance(sent_ms, int) and not isinstance(sent_ms, bool)
    return _RoundState(ask_id, sent_ms if valid_time else None)


@asynccontextmanager
async def _progress(session: ServerSession) -> AsyncIterator[Callable[[], None]]:
    """Progress notifications from the moment the call waits until it ends.

    Yields the function that says it now waits; safe to call from a worker thread and more
    than once. Nothing is sent when it is never called, or without a progress token.
    """
    import asyncio

    loop = asyncio.get_running_loop()
    started = anyio.Event()

    def waiting() -> None:
        loop.call_soon_threadsafe(started.set)

    async with anyio.create_task_group() as group:
        group.start_soon(_send_progress, session, started)
        try:
            yield waiting
        finally:
            group.cancel_scope.cancel()


async def _send_progress(session: ServerSession, started: anyio.Event) -> None:
    await started.wait()
    beat = 0
    while True:
        beat += 1
        await session.report_progress(beat, None, PROGRESS_MESSAGE)
        await anyio.sleep(PROGRESS_INTERVAL_S)


def _report(line: str) -> None:
    # stderr is the server's log in every MCP host; stdout carries the protocol.
    print(f"pi-ask mcp: {line}", file=sys.stderr, flush=True)


def build_server(
    config: Path | None = None,
    *,
    session: Path | None = None,
    face: Face | None = None,
    tool_name: str | None = None,
) -> AskUserServer:
    """The server with the settings of ``config`` (the default file when ``None``)."""
    return AskUserServer(open_store(config), session=session, face=face, tool_name=tool_name)


async def serve_stdio(server: AskUserServer) -> None:
    """Serve one host over the SDK's own stdio transport (no front; tests compare with it)."""
    from mcp.server.stdio import stdio_server

    lowlevel = server.server
    async with stdio_server() as (read_stream, write_stream):
        await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())
