"""The in-process ask event bus: lifecycle events and remote submissions for trusted bridges.

pi-ask keeps pi's ``pi.events`` contract (protocols.md §4, behaviour.md §13) inside one Python
process. Nothing here listens on a network or types keys into a terminal:

- :class:`EventBus` is the plain pub/sub (``on`` returns an unsubscribe function, ``emit``
  calls handlers synchronously in registration order; a failing handler is reported on stderr
  and never reaches the emitter).
- :class:`FlowRegistry` holds the open flows a face registered. It emits ``started`` and
  ``completed``, and answers ``submit`` requests with ``submit-result``.
- :func:`load_bridges` calls each installed ``pi_ask.bridges`` entry point's ``register(bus)``
  once per bus.

Checking a remote answer is pure (:func:`parse_remote_response`); a valid one reaches the face
as the engine command it applies (``ReplaceAnswers`` or ``Abort``), so labels and indices are
recomputed by the same engine code the TUI uses.

Only the standard library and pi-ask's engine values are imported here, so importing this
module costs next to nothing.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

from pi_ask.contract.payload import Question
from pi_ask.contract.results import JsonObject, ToolResult
from pi_ask.state.commands import Abort, ReplaceAnswers, SubmittedAnswer

if TYPE_CHECKING:
    import asyncio

STARTED = "@geoqiao/pi-ask:started"
COMPLETED = "@geoqiao/pi-ask:completed"
SUBMIT = "@geoqiao/pi-ask:submit"
SUBMIT_RESULT = "@geoqiao/pi-ask:submit-result"
BRIDGE_GROUP = "pi_ask.bridges"

FlowSource = Literal["tool", "answer", "answer:again", "ask:replay", "ask:resume"]
SubmitErrorCode = Literal["invalid_request", "flow_not_found", "invalid_answer"]
Handler = Callable[[object], object]
Unsubscribe = Callable[[], None]

FLOW_NOT_ACTIVE = "Ask flow is not active."
_WAIT_TICK_S = 0.05


class EventBus:
    """Process-local pub/sub with pi's ``pi.events`` semantics; safe to use from any thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._handlers: list[tuple[str, Handler]] = []
        self._bridges_loaded = False

    def on(self, channel: str, handler: Handler) -> Unsubscribe:
        """Subscribe ``handler`` to ``channel``.

        Returns:
            A function that removes this subscription (calling it twice is harmless).

        Example:
            >>> bus = EventBus()
            >>> off = bus.on(STARTED, print)
            >>> off()
        """
        entry = (channel, handler)
        with self._lock:
            self._handlers.append(entry)

        def unsubscribe() -> None:
            with self._lock:
                if entry in self._handlers:
                    self._handlers.remove(entry)

        return unsubscribe

    def emit(self, channel: str, data: object) -> None:
        """Call every handler of ``channel`` with ``data``, in the emitting thread.

        A handler that raises is reported on stderr; the other handlers still run.
        """
        with self._lock:
            handlers = [h for c, h in self._handlers if c == channel]
        for handler in handlers:
            try:
                handler(data)
            except Exception as err:  # a bridge's bug must never reach the flow
                print(
                    f"pi-ask events: a handler of {channel!r} raised "
                    f"{type(err).__name__}: {err}; the other handlers still ran",
                    file=sys.stderr,
                )

    def clear(self) -> None:
        """Drop every subscription (for embedders tearing a runtime down)."""
        with self._lock:
            self._handlers.clear()

    def _claim_bridge_loading(self) -> bool:
        with self._lock:
            first = not self._bridges_loaded
            self._bridges_loaded = True
            return first


# --- remote responses -------------------------------------------------------------------------

# A validated submission is handed to the face as the engine command it applies.
RemoteResponse = ReplaceAnswers | Abort


@dataclass(frozen=True, slots=True)
class SubmitFailure:
    """Why a submission was refused: the ``error`` code and exact ``message`` of §13."""

    error: SubmitErrorCode
    message: str


def _invalid(message: str) -> SubmitFailure:
    return SubmitFailure("invalid_answer", message)


def _submitted(question: Question, raw: Mapping[str, object]) -> SubmittedAnswer | SubmitFailure:
    """One question's answer, checked in the fixed order of behaviour.md §13."""
    qid = question.id
    values = raw.get("values", [])
    if not (isinstance(values, list) and all(isinstance(v, str) for v in values)):
        return _invalid(f'Answer values for question "{qid}" must be strings.')
    if len(set(values)) != len(values):
        return _invalid(f'Answer values for question "{qid}" must be unique.')
    if question.type != "multi" and len(values) > 1:
        return _invalid(f'Question "{qid}" accepts only one selected value.')
    custom = raw.get("customText", "")
    if not isinstance(custom, str):
        return _invalid(f'Custom text for question "{qid}" must be a string.')
    if custom.strip() and question.type != "multi" and values:
        return _invalid(f'Question "{qid}" cannot combine a selected value and custom text.')
    note = raw.get("note", "")
    if not isinstance(note, str):
        return _invalid(f'Note for question "{qid}" must be a string.')
    notes = raw.get("optionNotes", {})
    if not (isinstance(notes, dict) and all(isinstance(n, str) for n in notes.values())):
        return _invalid(f'Option notes for question "{qid}" must be string values.')
    # Freeform rows of `pi-ask answer` forms stand for the editor, not for a choice.
    known = {o.value for o in question.options if not o.freeform}
    for value in values:
        if value not in known:
            return _invalid(f'Unknown option value "{value}" for question "{qid}".')
    for value, text in notes.items():
        if text.strip() and value not in known:
            return _invalid(f'Unknown option note value "{value}" for question "{qid}".')
    return SubmittedAnswer(
        values=tuple(values),
        custom_text=custom,
        note=note,
        option_notes=tuple((v, t) for v, t in notes.items() if t.strip()),
    )


def parse_remote_response(
    questions: Iterable[Question], response: Mapping[str, object]
) -> RemoteResponse | SubmitFailure:
    """Validate a submission's ``response`` against the flow's questions (pure).

    Values must equal the questions' normalized option values (never guessed from labels);
    the engine recomputes labels and indices when it applies the command. The first failure
    wins, questions checked in the order the submission lists them.

    Args:
        questions: the flow's questions, with their currently presented types.
        response: ``{kind: "cancel"}`` or ``{kind: "answer", answers, mode?}``.

    Returns:
        ``Abort()`` for a cancel, ``ReplaceAnswers`` for an answer, or the failure.

    Example:
        >>> parse_remote_response((), {"kind": "answer", "answers": {"q9": {}}}).message
        'Unknown question id "q9".'
    """
    if response.get("kind") == "cancel":
        return Abort()
    answers = response.get("answers")
    if not isinstance(answers, dict):
        return _invalid("Answer response must include an answers object.")
    mode = response.get("mode")
    if mode is not None and mode not in ("submit", "elaborate"):
        return _invalid('Answer mode must be "submit" or "elaborate".')
    by_id = {q.id: q for q in questions}
    submitted: list[tuple[str, SubmittedAnswer]] = []
    for qid, raw in answers.items():
        question = by_id.get(qid)
        if question is None:
            return _invalid(f'Unknown question id "{qid}".')
        if not isinstance(raw, dict):
            return _invalid(f'Answer for question "{qid}" must be an object.')
        answer = _submitted(question, raw)
        if isinstance(answer, SubmitFailure):
            return answer
        submitted.append((qid, answer))
    return ReplaceAnswers(tuple(submitted), "elaborate" if mode == "elaborate" else "submit")


# --- wire payloads -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SubmitRequest:
    """A request that passed the ``invalid_request`` checks."""

    request_id: str
    flow_id: str
    response: Mapping[str, object]


def parse_submit_request(data: object) -> SubmitRequest | tuple[str, str, SubmitFailure]:
    """Check a ``submit`` event's envelope (behaviour.md §13, first failure wins).

    Returns:
        The request, or ``(requestId, flowId, failure)`` with the ids echoed as given or ``""``.
    """

    def refuse(
        message: str, request_id: str = "", flow_id: str = ""
    ) -> tuple[str, str, SubmitFailure]:
        return request_id, flow_id, SubmitFailure("invalid_request", message)

    if not isinstance(data, dict):
        return refuse("Submit event must be an object.")
    request_id = data.get("requestId")
    flow_id = data.get("flowId")
    rid = request_id if isinstance(request_id, str) else ""
    fid = flow_id if isinstance(flow_id, str) else ""
    if data.get("version") != 1 or isinstance(data.get("version"), bool):
        return refuse("Submit event version must be 1.", rid, fid)
    if not rid:
        return refuse("Submit event requestId is required.", rid, fid)
    if not fid:
        return refuse("Submit event flowId is required.", rid, fid)
    response = data.get("response")
    if not isinstance(response, dict):
        return refuse("Submit response must be an object.", rid, fid)
    if response.get("kind") not in ("answer", "cancel"):
        return refuse('Submit response kind must be "answer" or "cancel".', rid, fid)
    return SubmitRequest(rid, fid, response)


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


# --- trusted bridges ---------------------------------------------------------------------------


class EntryPointLike(Protocol):
    """The part of :class:`importlib.metadata.EntryPoint` that bridge loading uses."""

    @property
    def name(self) -> str: ...

    def load(self) -> object: ...


def load_bridges(
    bus: EventBus, *, entry_points: Iterable[EntryPointLike] | None = None
) -> tuple[str, ...]:
    """Call ``register(bus)`` of every installed ``pi_ask.bridges`` entry point, once per bus.

    A bridge that fails to load or register is reported on stderr and skipped; the ask goes
    on without it.

    Args:
        bus: the bus the bridges subscribe to and submit on.
        entry_points: the entry points to load; defaults to the installed ones.

    Returns:
        The names of the bridges registered by this call (empty on every later call).
    """
    if not bus._claim_bridge_loading():
        return ()
    if entry_points is None:
        # Imported here: importlib.metadata scans site-packages, which no flow should wait for
        # unless a bridge might be installed.
        from importlib.metadata import entry_points as installed

        entry_points = installed(group=BRIDGE_GROUP)
    loaded: list[str] = []
    for entry_point in entry_points:
        try:
            register = entry_point.load()
            if not callable(register):
                raise TypeError(f"{register!r} is not callable")
            register(bus)
        except Exception as err:  # a broken plugin must not break the ask
            print(
                f"pi-ask events: bridge {entry_point.name!r} (entry point group "
                f"{BRIDGE_GROUP}) failed: {type(err).__name__}: {err}; continuing without it",
                file=sys.stderr,
            )
            continue
        loaded.append(entry_point.name)
    return tuple(loaded)
