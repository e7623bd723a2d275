"""The registry of open flows that trusted bridges may observe and complete.

A face registers its open flow (:class:`RemoteFlow`); the registry emits ``started`` and
``completed`` and answers ``submit`` requests with ``submit-result`` on its
:class:`~pi_ask.events.bus.EventBus`.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

from pi_ask.contract.kinds import JsonObject
from pi_ask.contract.payload import Question
from pi_ask.contract.results import ToolResult
from pi_ask.events.bus import COMPLETED, STARTED, SUBMIT, SUBMIT_RESULT, EventBus
from pi_ask.events.submissions import (
    RemoteResponse,
    SubmitFailure,
    parse_remote_response,
    parse_submit_request,
)

if TYPE_CHECKING:
    import asyncio

FlowSource = Literal["tool", "answer", "answer:again", "ask:replay", "ask:resume"]

FLOW_NOT_ACTIVE = "Ask flow is not active."
_WAIT_TICK_S = 0.05


def question_to_event(question: Question) -> JsonObject:
    """A question as ``started`` carries it: a plain, independent copy of the normalized form."""
    out: JsonObject = {
        "id": question.id,
        "label": question.label,
        "prompt": question.prompt,
        "type": question.type,
        "required": question.required,
    }
    if question.presented_type is not None:
        out["requestedType"] = question.requested_type
        out["presentedType"] = question.presented_type
    options: list[JsonObject] = []
    for option in question.options:
        item: JsonObject = {"value": option.value, "label": option.label}
        for key, value in (
            ("description", option.description),
            ("preview", option.preview),
            ("recommended", option.recommended),
        ):
            if value is not None:
                item[key] = value
        if option.freeform:
            item["freeform"] = True
        options.append(item)
    out["options"] = options
    return out


def new_flow_id(tool_call_id: str | None = None) -> str:
    """``tool:<toolCallId>`` when the flow answers a tool call, else ``flow:<ms>:<base36>``."""
    if tool_call_id:
        return f"tool:{tool_call_id}"
    number = int.from_bytes(os.urandom(8), "big")
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    suffix = ""
    while number:
        number, rest = divmod(number, 36)
        suffix = digits[rest] + suffix
    return f"flow:{_now_ms()}:{suffix or '0'}"


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


# --- the registry of open flows ----------------------------------------------------------------


class RemoteFlow(Protocol):
    """What a face registers: an open flow a trusted bridge may complete.

    ``questions`` must reflect the currently presented types (a TUI type change alters which
    answers are valid). ``complete`` is called from whatever thread submitted; the face applies
    the command on its own loop (``state.apply(state, response, behaviour)``), closes the flow
    and returns its result, or returns ``None`` when the flow had already finished. It must not
    deadlock when called from the face's own thread.
    """

    @property
    def flow_id(self) -> str: ...

    @property
    def questions(self) -> tuple[Question, ...]: ...

    def complete(self, response: RemoteResponse) -> ToolResult | None: ...


@dataclass(frozen=True, slots=True)
class _Entry:
    flow: RemoteFlow
    source: FlowSource
    tool_call_id: str | None


def _envelope(flow_id: str, entry: _Entry) -> JsonObject:
    out: JsonObject = {"version": 1, "flowId": flow_id}
    if entry.tool_call_id is not None:
        out["toolCallId"] = entry.tool_call_id
    out["source"] = entry.source
    return out


def complete_on_loop(
    loop: asyncio.AbstractEventLoop, apply: Callable[[], ToolResult | None]
) -> ToolResult | None:
    """Run ``apply`` on ``loop``'s thread and return what it returns: a ``complete`` helper.

    Called on the loop's own thread (a bridge that submits from a handler the loop runs), it
    calls ``apply`` directly. From any other thread it hands ``apply`` to the loop and waits;
    if the loop stops or closes before running it, the flow is over and the answer is ``None``.

    Example:
        >>> def complete(self, response):
        ...     return complete_on_loop(self.loop, lambda: self.apply_remote(response))
    """
    # Only faces that own a loop get here; they imported these long ago, and a bare
    # `import pi_ask.events` should not pay for them (concurrent.futures pulls in logging).
    import asyncio
    from concurrent.futures import Future
    from concurrent.futures import TimeoutError as FutureTimeout

    try:
        on_loop = asyncio.get_running_loop() is loop
    except RuntimeError:
        on_loop = False
    if on_loop:
        return apply()
    done: Future[ToolResult | None] = Future()

    def run() -> None:
        if done.set_running_or_notify_cancel():
            try:
                done.set_result(apply())
            except BaseException as err:  # re-raised in the submitting thread
                done.set_exception(err)

    try:
        loop.call_soon_threadsafe(run)
    except RuntimeError:  # the loop is closed: the flow has ended
        return None
    while True:
        try:
            return done.result(timeout=_WAIT_TICK_S)
        except FutureTimeout:
            if not loop.is_running() and done.cancel():
                return None


class FlowRegistration:
    """The face's side of a registered flow: report how it ended, exactly once."""

    def __init__(self, registry: FlowRegistry, entry: _Entry) -> None:
        self._registry = registry
        self._entry = entry

    @property
    def flow_id(self) -> str:
        return self._entry.flow.flow_id

    def finish(self, result: ToolResult) -> None:
        """The flow ended (any outcome): emit ``completed`` unless it was already emitted."""
        self._registry._finish(self._entry, result)

    def dispose(self) -> None:
        """The flow was torn down without a result: forget it, emit nothing."""
        self._registry._forget(self._entry)


class FlowRegistry:
    """Open flows that trusted bridges may observe and complete, on one :class:`EventBus`.

    Example:
        >>> registry = FlowRegistry(EventBus())
        >>> registry.submit({"version": 1})["message"]
        'Submit event requestId is required.'
    """

    def __init__(self, bus: EventBus) -> None:
        self.bus = bus
        self._lock = threading.Lock()
        self._active: dict[str, _Entry] = {}
        self._unsubscribe = bus.on(SUBMIT, self.submit)

    def register(
        self,
        flow: RemoteFlow,
        *,
        source: FlowSource,
        tool_call_id: str | None = None,
        title: str | None = None,
    ) -> FlowRegistration:
        """Make ``flow`` reachable by ``submit`` and emit ``started`` in the calling thread.

        Call it once the flow is on screen (the TUI: from its loop, just after the first
        frame), so handlers of ``started`` find a flow ready to take a submission.
        """
        entry = _Entry(flow, source, tool_call_id)
        with self._lock:
            self._active[flow.flow_id] = entry
        started = _envelope(flow.flow_id, entry)
        if title is not None:
            started["title"] = title
        started["questions"] = [question_to_event(q) for q in flow.questions]
        started["createdAt"] = _now_ms()
        self.bus.emit(STARTED, started)
        return FlowRegistration(self, entry)

    def submit(self, data: object) -> JsonObject:
        """Handle one ``submit`` request; emit and return its ``submit-result``.

        Safe to call from any thread. When the submission completes a flow, ``completed`` is
        emitted before ``submit-result``. Refused submissions leave the flow open.
        """
        request = parse_submit_request(data)
        if isinstance(request, tuple):
            return self._reply(*request)
        with self._lock:
            entry = self._active.get(request.flow_id)
        if entry is None:
            return self._reply(request.request_id, request.flow_id, _not_found())
        response = parse_remote_response(entry.flow.questions, request.response)
        if isinstance(response, SubmitFailure):
            return self._reply(request.request_id, request.flow_id, response)
        result = entry.flow.complete(response)
        if result is None:
            return self._reply(request.request_id, request.flow_id, _not_found())
        self._finish(entry, result)
        return self._reply(request.request_id, request.flow_id, None)

    def active_flow_ids(self) -> tuple[str, ...]:
        """Ids of the flows currently open, in registration order."""
        with self._lock:
            return tuple(self._active)

    def dispose(self) -> None:
        """Forget every flow and stop answering submissions (runtime shutdown)."""
        with self._lock:
            self._active.clear()
        self._unsubscribe()

    def _reply(self, request_id: str, flow_id: str, failure: SubmitFailure | None) -> JsonObject:
        out: JsonObject = {"version": 1, "requestId": request_id, "flowId": flow_id}
        if failure is None:
            out["ok"] = True
        else:
            out.update(ok=False, error=failure.error, message=failure.message)
        self.bus.emit(SUBMIT_RESULT, out)
        return out

    def _take(self, entry: _Entry) -> bool:
        with self._lock:
            flow_id = entry.flow.flow_id
            if self._active.get(flow_id) is not entry:
                return False
            del self._active[flow_id]
            return True

    def _finish(self, entry: _Entry, result: ToolResult) -> None:
        if not self._take(entry):
            return
        completed = _envelope(entry.flow.flow_id, entry)
        completed["result"] = result.to_json()
        completed["completedAt"] = _now_ms()
        self.bus.emit(COMPLETED, completed)

    def _forget(self, entry: _Entry) -> None:
        self._take(entry)


def _not_found() -> SubmitFailure:
    return SubmitFailure("flow_not_found", FLOW_NOT_ACTIVE)


_shared_lock = threading.Lock()
_shared: FlowRegistry | None = None


def shared_registry() -> FlowRegistry:
    """The process's registry and bus (pi has one ``pi.events`` per runtime; so do we)."""
    global _shared  # noqa: PLW0603 - one lazily built registry per process, by design
    with _shared_lock:
        if _shared is None:
            _shared = FlowRegistry(EventBus())
        return _shared
