"""The in-process event bus: channels, submission checks, the flow registry, bridge loading."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from pi_ask.contract import LoadedPayload, Question, ResultDetails, ToolResult, load_payload
from pi_ask.events import (
    BRIDGE_GROUP,
    COMPLETED,
    STARTED,
    SUBMIT,
    SUBMIT_RESULT,
    EventBus,
    FlowRegistry,
    RemoteResponse,
    SubmitFailure,
    complete_on_loop,
    load_bridges,
    new_flow_id,
    parse_remote_response,
    parse_submit_request,
    shared_registry,
)
from pi_ask.state import Behaviour, Digit, apply, build_result, new_state
from pi_ask.state.commands import Abort, ReplaceAnswers, SubmittedAnswer

PAYLOAD: dict[str, object] = {
    "title": "Setup",
    "questions": [
        {
            "id": "db",
            "label": "Database",
            "prompt": "Which database?",
            "type": "single",
            "options": [
                {"value": "pg", "label": "PostgreSQL", "recommended": True},
                {"value": "sqlite", "label": "SQLite", "description": "file"},
            ],
        },
        {
            "id": "fw",
            "prompt": "Frameworks?",
            "type": "multi",
            "options": [{"value": "react"}, {"value": "vue"}, {"value": "svelte"}],
        },
    ],
}


def questions(
    payload: dict[str, object] = PAYLOAD, *, as_multi: bool = False
) -> tuple[Question, ...]:
    loaded = load_payload(payload, present_single_as_multi=as_multi)
    assert isinstance(loaded, LoadedPayload)
    return loaded.payload.questions


@dataclass
class Flow:
    """A face's flow: records the commands it is asked to apply and closes on the first."""

    flow_id: str
    questions: tuple[Question, ...]
    received: list[RemoteResponse] = field(default_factory=list)
    closed: bool = False

    def complete(self, response: RemoteResponse) -> ToolResult | None:
        if self.closed:
            return None
        self.closed = True
        self.received.append(response)
        return ToolResult("done", ResultDetails(cancelled=isinstance(response, Abort)))


class Recorder:
    """Every event on the four channels, in emission order."""

    def __init__(self, bus: EventBus) -> None:
        self.events: list[tuple[str, dict[str, object]]] = []
        self._offs = [
            bus.on(channel, self._recorder(channel))
            for channel in (STARTED, COMPLETED, SUBMIT_RESULT)
        ]

    def close(self) -> None:
        for off in self._offs:
            off()

    def _recorder(self, channel: str) -> Callable[[object], None]:
        def record(data: object) -> None:
            assert isinstance(data, dict)
            self.events.append((channel, data))

        return record

    def channels(self) -> list[str]:
        return [c for c, _ in self.events]


def open_flow(tool_call_id: str | None = "call-1") -> tuple[FlowRegistry, Flow, Recorder]:
    bus = EventBus()
    recorder = Recorder(bus)
    registry = FlowRegistry(bus)
    flow = Flow(new_flow_id(tool_call_id), questions())
    registry.register(flow, source="tool", tool_call_id=tool_call_id, title="Setup")
    return registry, flow, recorder


def submit(flow_id: str, response: object, request_id: str = "r1") -> dict[str, object]:
    return {"version": 1, "requestId": request_id, "flowId": flow_id, "response": response}


# --- the bus ---------------------------------------------------------------------------------


def test_handlers_run_in_order_and_unsubscribe() -> None:
    bus = EventBus()
    seen: list[str] = []
    bus.on("a", lambda d: seen.append(f"1:{d}"))
    off = bus.on("a", lambda d: seen.append(f"2:{d}"))
    bus.on("b", lambda d: seen.append(f"b:{d}"))
    bus.emit("a", "x")
    off()
    off()
    bus.emit("a", "y")
    assert seen == ["1:x", "2:x", "1:y"]


def test_a_failing_handler_is_reported_and_the_others_still_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bus = EventBus()
    seen: list[object] = []

    def broken(data: object) -> None:
        raise ValueError("boom")

    bus.on("a", broken)
    bus.on("a", seen.append)
    bus.emit("a", 1)
    assert seen == [1]
    err = capsys.readouterr().err
    assert "'a'" in err and "ValueError: boom" in err


def test_clear_drops_every_handler() -> None:
    bus = EventBus()
    seen: list[object] = []
    bus.on("a", seen.append)
    bus.clear()
    bus.emit("a", 1)
    assert seen == []


# --- request envelope ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "ids", "message"),
    [
        (None, ("", ""), "Submit event must be an object."),
        ([1], ("", ""), "Submit event must be an object."),
        ({"requestId": "r", "flowId": "f"}, ("r", "f"), "Submit event version must be 1."),
        ({"version": "1", "requestId": "r"}, ("r", ""), "Submit event version must be 1."),
        ({"version": True, "flowId": "f"}, ("", "f"), "Submit event version must be 1."),
        ({"version": 1, "flowId": "f"}, ("", "f"), "Submit event requestId is required."),
        (
            {"version": 1, "requestId": 7, "flowId": "f"},
            ("", "f"),
            "Submit event requestId is required.",
        ),
        (
            {"version": 1, "requestId": "r", "flowId": ""},
            ("r", ""),
            "Submit event flowId is required.",
        ),
        (submit("f", None), ("r1", "f"), "Submit response must be an object."),
        (submit("f", "cancel"), ("r1", "f"), "Submit response must be an object."),
        (submit("f", {}), ("r1", "f"), 'Submit response kind must be "answer" or "cancel".'),
        (
            submit("f", {"kind": "ok"}),
            ("r1", "f"),
            'Submit response kind must be "answer" or "cancel".',
        ),
    ],
)
def test_invalid_requests_are_refused_in_order(
    data: object, ids: tuple[str, str], message: str
) -> None:
    parsed = parse_submit_request(data)
    assert parsed == (*ids, SubmitFailure("invalid_request", message))
    registry, _, recorder = open_flow()
    reply = registry.submit(data)
    assert reply == {
        "version": 1,
        "requestId": ids[0],
        "flowId": ids[1],
        "ok": False,
        "error": "invalid_request",
        "message": message,
    }
    assert recorder.events[-1] == (SUBMIT_RESULT, reply)


def test_unknown_flow_is_not_found() -> None:
    registry, flow, recorder = open_flow()
    reply = registry.submit(submit("tool:other", {"kind": "cancel"}))
    assert reply["error"] == "flow_not_found"
    assert reply["message"] == "Ask flow is not active."
    assert flow.received == []
    assert registry.active_flow_ids() == (flow.flow_id,)
    assert recorder.channels() == [STARTED, SUBMIT_RESULT]


# --- answer validation -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("response", "message"),
    [
        ({"kind": "answer"}, "Answer response must include an answers object."),
        ({"kind": "answer", "answers": []}, "Answer response must include an answers object."),
        (
            {"kind": "answer", "answers": {}, "mode": "review"},
            'Answer mode must be "submit" or "elaborate".',
        ),
        ({"kind": "answer", "answers": {"nope": {}}}, 'Unknown question id "nope".'),
        (
            {"kind": "answer", "answers": {"db": "pg"}},
            'Answer for question "db" must be an object.',
        ),
        (
            {"kind": "answer", "answers": {"db": {"values": "pg"}}},
            'Answer values for question "db" must be strings.',
        ),
        (
            {"kind": "answer", "answers": {"db": {"values": None}}},
            'Answer values for question "db" must be strings.',
        ),
        (
            {"kind": "answer", "answers": {"db": {"values": [1]}}},
            'Answer values for question "db" must be strings.',
        ),
        (
            {"kind": "answer", "answers": {"fw": {"values": ["vue", "vue"]}}},
            'Answer values for question "fw" must be unique.',
        ),
        (
            {"kind": "answer", "answers": {"db": {"values": ["pg", "sqlite"]}}},
            'Question "db" accepts only one selected value.',
        ),
        (
            {"kind": "answer", "answers": {"db": {"customText": 3}}},
            'Custom text for question "db" must be a string.',
        ),
        (
            {"kind": "answer", "answers": {"db": {"values": ["pg"], "customText": "x"}}},
            'Question "db" cannot combine a selected value and custom text.',
        ),
        (
            {"kind": "answer", "answers": {"db": {"note": ["x"]}}},
            'Note for question "db" must be a string.',
        ),
        (
            {"kind": "answer", "answers": {"db": {"optionNotes": {"pg": 1}}}},
            'Option notes for question "db" must be string values.',
        ),
        (
            {"kind": "answer", "answers": {"db": {"optionNotes": ["pg"]}}},
            'Option notes for question "db" must be string values.',
        ),
        (
            {"kind": "answer", "answers": {"db": {"values": ["PostgreSQL"]}}},
            'Unknown option value "PostgreSQL" for question "db".',
        ),
        (
            {"kind": "answer", "answers": {"db": {"optionNotes": {"mysql": "why"}}}},
            'Unknown option note value "mysql" for question "db".',
        ),
        # The first failing question wins, in the order the submission lists them.
        (
            {"kind": "answer", "answers": {"fw": {"values": ["x"]}, "db": 1}},
            'Unknown option value "x" for question "fw".',
        ),
    ],
)
def test_invalid_answers_leave_the_flow_open(response: dict[str, object], message: str) -> None:
    registry, flow, recorder = open_flow()
    reply = registry.submit(submit(flow.flow_id, response))
    assert reply == {
        "version": 1,
        "requestId": "r1",
        "flowId": flow.flow_id,
        "ok": False,
        "error": "invalid_answer",
        "message": message,
    }
    assert flow.received == []
    assert registry.active_flow_ids() == (flow.flow_id,)
    assert COMPLETED not in recorder.channels()


def test_blank_text_passes_the_checks_that_only_concern_real_text() -> None:
    parsed = parse_remote_response(
        questions(),
        {
            "kind": "answer",
            "answers": {
                "db": {"values": ["pg"], "customText": "  ", "optionNotes": {"ghost": " "}},
            },
        },
    )
    assert parsed == ReplaceAnswers(
        (("db", SubmittedAnswer(values=("pg",), custom_text="  ", note="")),), "submit"
    )


def test_single_presented_as_multi_accepts_several_values_and_text() -> None:
    answers = {"db": {"values": ["sqlite", "pg"], "customText": "duckdb"}}
    parsed = parse_remote_response(
        questions(as_multi=True), {"kind": "answer", "answers": answers, "mode": "elaborate"}
    )
    assert parsed == ReplaceAnswers(
        (("db", SubmittedAnswer(values=("sqlite", "pg"), custom_text="duckdb", note="")),),
        "elaborate",
    )


def test_freeform_rows_are_not_choices() -> None:
    form = {
        "questions": [
            {"id": "a", "prompt": "Name?", "options": [{"value": "free", "freeform": True}]}
        ]
    }
    loaded = load_payload(form, allow_freeform=True)
    assert isinstance(loaded, LoadedPayload)
    parsed = parse_remote_response(
        loaded.payload.questions, {"kind": "answer", "answers": {"a": {"values": ["free"]}}}
    )
    assert parsed == SubmitFailure(
        "invalid_answer", 'Unknown option value "free" for question "a".'
    )


# --- completing a flow -----------------------------------------------------------------------


def test_an_answer_completes_the_flow_and_completed_comes_first() -> None:
    registry, flow, recorder = open_flow()
    response = {
        "kind": "answer",
        "answers": {
            "fw": {
                "values": ["svelte", "react"],
                "note": " keep it small ",
                "optionNotes": {"react": "v18", "vue": ""},
            },
        },
    }
    reply = registry.submit(submit(flow.flow_id, response, request_id="abc"))
    assert reply == {"version": 1, "requestId": "abc", "flowId": flow.flow_id, "ok": True}
    assert flow.received == [
        ReplaceAnswers(
            (
                (
                    "fw",
                    SubmittedAnswer(
                        values=("svelte", "react"),
                        custom_text="",
                        note=" keep it small ",
                        option_notes=(("react", "v18"),),
                    ),
                ),
            ),
            "submit",
        )
    ]
    assert recorder.channels() == [STARTED, COMPLETED, SUBMIT_RESULT]
    completed = recorder.events[1][1]
    assert completed["flowId"] == flow.flow_id
    assert completed["toolCallId"] == "call-1"
    assert completed["source"] == "tool"
    assert completed["result"] == ToolResult("done", ResultDetails(cancelled=False)).to_json()
    assert isinstance(completed["completedAt"], int)
    assert registry.active_flow_ids() == ()
    again = registry.submit(submit(flow.flow_id, {"kind": "cancel"}, request_id="r2"))
    assert again["error"] == "flow_not_found"


def test_a_cancel_completes_the_flow_as_cancelled() -> None:
    registry, flow, recorder = open_flow(tool_call_id=None)
    registry.bus.emit(SUBMIT, submit(flow.flow_id, {"kind": "cancel"}))
    assert flow.received == [Abort()]
    assert recorder.channels() == [STARTED, COMPLETED, SUBMIT_RESULT]
    completed = recorder.events[1][1]
    assert "toolCallId" not in completed
    assert completed["result"]["details"]["cancelled"] is True  # type: ignore[index]


def test_an_invalid_submission_then_a_valid_one() -> None:
    registry, flow, recorder = open_flow()
    registry.submit(submit(flow.flow_id, {"kind": "answer", "answers": {"zz": {}}}))
    reply = registry.submit(
        submit(flow.flow_id, {"kind": "answer", "answers": {"db": {"values": ["pg"]}}})
    )
    assert reply["ok"] is True
    assert recorder.channels() == [STARTED, SUBMIT_RESULT, COMPLETED, SUBMIT_RESULT]


def test_a_flow_that_already_closed_is_not_found() -> None:
    registry, flow, recorder = open_flow()
    flow.closed = True  # the user finished it on screen while the request was on its way
    reply = registry.submit(submit(flow.flow_id, {"kind": "cancel"}))
    assert reply["error"] == "flow_not_found"
    assert COMPLETED not in recorder.channels()


def test_finish_emits_completed_once_and_dispose_emits_nothing() -> None:
    bus = EventBus()
    recorder = Recorder(bus)
    registry = FlowRegistry(bus)
    first = Flow("flow:1:a", questions())
    second = Flow("flow:2:b", questions())
    done = registry.register(first, source="ask:replay")
    gone = registry.register(second, source="answer")
    result = ToolResult("User cancelled the ask flow", ResultDetails(cancelled=True))
    done.finish(result)
    done.finish(result)
    gone.dispose()
    gone.finish(result)
    assert recorder.channels() == [STARTED, STARTED, COMPLETED]
    assert recorder.events[2][1]["source"] == "ask:replay"
    assert registry.active_flow_ids() == ()


def test_started_carries_an_independent_copy_of_the_questions() -> None:
    bus = EventBus()
    recorder = Recorder(bus)
    registry = FlowRegistry(bus)
    flow = Flow("tool:c9", questions(as_multi=True))
    registration = registry.register(flow, source="tool", tool_call_id="c9", title="Setup")
    assert registration.flow_id == "tool:c9"
    channel, started = recorder.events[0]
    assert channel == STARTED
    assert started["version"] == 1
    assert started["flowId"] == "tool:c9"
    assert started["toolCallId"] == "c9"
    assert started["source"] == "tool"
    assert started["title"] == "Setup"
    assert isinstance(started["createdAt"], int)
    assert started["questions"] == [
        {
            "id": "db",
            "label": "Database",
            "prompt": "Which database?",
            "type": "multi",
            "required": False,
            "requestedType": "single",
            "presentedType": "multi",
            "options": [
                {"value": "pg", "label": "PostgreSQL", "recommended": True},
                {"value": "sqlite", "label": "SQLite", "description": "file"},
            ],
        },
        {
            "id": "fw",
            "label": "Q2",
            "prompt": "Frameworks?",
            "type": "multi",
            "required": False,
            "options": [
                {"value": "react", "label": "React"},
                {"value": "vue", "label": "Vue"},
                {"value": "svelte", "label": "Svelte"},
            ],
        },
    ]


def test_a_started_handler_may_submit_at_once() -> None:
    bus = EventBus()
    recorder = Recorder(bus)
    registry = FlowRegistry(bus)

    def auto_cancel(data: object) -> None:
        assert isinstance(data, dict)
        bus.emit(SUBMIT, submit(str(data["flowId"]), {"kind": "cancel"}))

    bus.on(STARTED, auto_cancel)
    flow = Flow("tool:x", questions())
    registry.register(flow, source="tool", tool_call_id="x")
    assert flow.received == [Abort()]
    assert recorder.channels() == [STARTED, COMPLETED, SUBMIT_RESULT]


def test_dispose_stops_answering() -> None:
    registry, flow, recorder = open_flow()
    registry.dispose()
    registry.bus.emit(SUBMIT, submit(flow.flow_id, {"kind": "cancel"}))
    assert flow.received == []
    assert recorder.channels() == [STARTED]


class LoopFlow:
    """A face whose state lives on its own thread: ``complete`` hands work over and waits."""

    def __init__(self, flow_id: str) -> None:
        self.flow_id = flow_id
        self.questions = questions()
        self.work: list[Callable[[], None]] = []
        self.wake = threading.Condition()
        self.applied_on: list[str] = []

    def complete(self, response: RemoteResponse) -> ToolResult | None:
        done = threading.Event()
        box: list[ToolResult] = []

        def apply() -> None:
            self.applied_on.append(threading.current_thread().name)
            box.append(ToolResult("ok", ResultDetails(cancelled=False)))
            done.set()

        with self.wake:
            self.work.append(apply)
            self.wake.notify()
        assert done.wait(5)
        return box[0]

    def run_once(self) -> None:
        with self.wake:
            assert self.wake.wait_for(lambda: self.work, 5)
            job = self.work.pop()
        job()


def test_submit_from_another_thread_is_applied_on_the_face_thread() -> None:
    bus = EventBus()
    recorder = Recorder(bus)
    registry = FlowRegistry(bus)
    flow = LoopFlow("tool:t")
    registry.register(flow, source="tool", tool_call_id="t")
    face = threading.Thread(target=flow.run_once, name="face-loop")
    face.start()
    bridge = threading.Thread(
        target=bus.emit,
        args=(SUBMIT, submit("tool:t", {"kind": "answer", "answers": {}})),
        name="bridge",
    )
    bridge.start()
    bridge.join(5)
    face.join(5)
    assert flow.applied_on == ["face-loop"]
    assert recorder.channels() == [STARTED, COMPLETED, SUBMIT_RESULT]


# --- flow ids, the shared registry, bridges ----------------------------------------------------


def test_flow_ids() -> None:
    assert new_flow_id("call_1") == "tool:call_1"
    made = new_flow_id()
    prefix, ms, suffix = made.split(":")
    assert prefix == "flow"
    assert ms.isdigit()
    assert suffix and set(suffix) <= set("0123456789abcdefghijklmnopqrstuvwxyz")
    assert new_flow_id() != made


def test_the_shared_registry_is_one_per_process() -> None:
    assert shared_registry() is shared_registry()


@dataclass
class EntryPoint:
    name: str
    target: object

    def load(self) -> object:
        if isinstance(self.target, Exception):
            raise self.target
        return self.target


def test_bridges_register_once_and_broken_ones_are_skipped(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bus = EventBus()
    calls: list[EventBus] = []

    def broken_register(bus: EventBus) -> None:
        raise RuntimeError("no config")

    points = [
        EntryPoint("good", calls.append),
        EntryPoint("missing", ImportError("No module named 'nowhere'")),
        EntryPoint("not-callable", 42),
        EntryPoint("raises", broken_register),
    ]
    assert load_bridges(bus, entry_points=points) == ("good",)
    assert calls == [bus]
    err = capsys.readouterr().err
    assert f"'missing' (entry point group {BRIDGE_GROUP}) failed: ImportError" in err
    assert "'not-callable'" in err and "is not callable" in err
    assert "'raises'" in err and "RuntimeError: no config" in err
    assert load_bridges(bus, entry_points=points) == ()
    assert calls == [bus]


def test_a_bridge_drives_a_flow_through_the_bus() -> None:
    bus = EventBus()
    registry = FlowRegistry(bus)
    results: list[object] = []

    def register(bus: EventBus) -> None:
        def answer(started: object) -> None:
            assert isinstance(started, dict)
            response = {"kind": "answer", "answers": {"db": {"values": ["sqlite"]}}}
            bus.emit(SUBMIT, submit(str(started["flowId"]), response))

        bus.on(STARTED, answer)
        bus.on(SUBMIT_RESULT, results.append)

    load_bridges(bus, entry_points=[EntryPoint("auto", register)])
    flow = Flow("tool:z", questions())
    registry.register(flow, source="tool", tool_call_id="z")
    assert results == [{"version": 1, "requestId": "r1", "flowId": "tool:z", "ok": True}]
    assert isinstance(flow.received[0], ReplaceAnswers)


def test_installed_bridges_are_looked_up_in_their_group() -> None:
    # No distribution in this environment declares pi_ask.bridges.
    assert load_bridges(EventBus()) == ()


def test_importing_the_bus_stays_cheap() -> None:
    code = (
        "import sys, pi_ask.events\n"
        "heavy = {'prompt_toolkit', 'pydantic', 'pydantic_settings', 'apprise',\n"
        "         'importlib.metadata', 'asyncio', 'concurrent.futures', 'logging'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


class EngineFlow:
    """A headless face: the engine's state, with remote commands applied through ``apply``."""

    def __init__(self, flow_id: str, payload: dict[str, object]) -> None:
        loaded = load_payload(payload)
        assert isinstance(loaded, LoadedPayload)
        self.flow_id = flow_id
        self.state = new_state(loaded.payload)

    @property
    def questions(self) -> tuple[Question, ...]:
        return self.state.questions

    def complete(self, response: RemoteResponse) -> ToolResult | None:
        if self.state.completed:
            return None
        self.state = apply(self.state, response, Behaviour())
        return build_result(self.state)


def test_the_engine_recomputes_labels_and_indices_from_values() -> None:
    bus = EventBus()
    recorder = Recorder(bus)
    registry = FlowRegistry(bus)
    flow = EngineFlow("tool:e", PAYLOAD)
    registry.register(flow, source="tool", tool_call_id="e")
    response = {
        "kind": "answer",
        "mode": "elaborate",
        "answers": {
            "db": {"values": ["sqlite"], "optionNotes": {"pg": "why not?"}},
            "fw": {"values": ["svelte", "react"], "customText": " solid "},
        },
    }
    reply = registry.submit(submit("tool:e", response))
    assert reply["ok"] is True
    assert flow.state.completed and flow.state.mode == "elaborate"
    completed = recorder.events[1][1]
    result = completed["result"]
    assert isinstance(result, dict)
    assert result["details"]["answers"] == {
        "db": {"values": ["sqlite"], "labels": ["SQLite"], "indices": [2]},
        "fw": {
            "values": ["svelte", "react", "solid"],
            "labels": ["Svelte", "React", "solid"],
            "indices": [3, 1],
            "customText": "solid",
        },
    }
    assert result["details"]["mode"] == "elaborate"


def test_a_remote_cancel_keeps_the_answers_given_on_screen() -> None:
    registry = FlowRegistry(EventBus())
    flow = EngineFlow("tool:k", PAYLOAD)
    flow.state = apply(flow.state, Digit(2), Behaviour())  # the user picked SQLite
    registry.register(flow, source="tool", tool_call_id="k")
    registry.submit(submit("tool:k", {"kind": "cancel"}))
    result = build_result(flow.state)
    assert result.text == "User cancelled the ask flow"
    assert result.details.cancelled is True
    assert [qid for qid, _ in result.details.answers] == ["db"]


# --- completing on a face's event loop ----------------------------------------------------------


def test_complete_on_loop_runs_on_the_loop_thread() -> None:
    loop = asyncio.new_event_loop()
    runner = threading.Thread(target=loop.run_forever, name="face-loop")
    runner.start()
    try:
        seen: list[str] = []

        def apply() -> ToolResult | None:
            seen.append(threading.current_thread().name)
            return ToolResult("ok")

        assert complete_on_loop(loop, apply) == ToolResult("ok")
        assert seen == ["face-loop"]

        def broken() -> ToolResult | None:
            raise ValueError("bad state")

        with pytest.raises(ValueError, match="bad state"):
            complete_on_loop(loop, broken)
    finally:
        loop.call_soon_threadsafe(loop.stop)
        runner.join(5)
        loop.close()


def test_complete_on_loop_from_the_loop_itself_does_not_deadlock() -> None:
    async def main() -> ToolResult | None:
        return complete_on_loop(asyncio.get_running_loop(), lambda: ToolResult("direct"))

    assert asyncio.run(main()) == ToolResult("direct")


def test_complete_on_a_loop_that_ended_is_none() -> None:
    stopped = asyncio.new_event_loop()
    assert complete_on_loop(stopped, lambda: ToolResult("never")) is None
    stopped.close()
    assert complete_on_loop(stopped, lambda: ToolResult("never")) is None


# --- a real TUI flow, headless ------------------------------------------------------------------


def run_tui_flow(
    tmp_path: Path, bridge: Callable[[dict[str, object]], threading.Thread | None]
) -> tuple[ToolResult, list[tuple[str, dict[str, object]]]]:
    """Open the prompt_toolkit flow with no terminal; ``bridge`` gets its ``started`` event.

    A bridge that answers from its own thread returns it; it is joined before the events
    are read, since ``submit-result`` may follow the flow's end.
    """
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from pi_ask.config import SettingsStore
    from pi_ask.tui.flow import AskFlow

    loaded = load_payload(PAYLOAD)
    assert isinstance(loaded, LoadedPayload)
    registry = shared_registry()
    recorder = Recorder(registry.bus)
    mine: list[str] = []
    threads: list[threading.Thread] = []

    def on_started(data: object) -> None:
        assert isinstance(data, dict)
        if data["flowId"] in mine and (thread := bridge(data)) is not None:
            threads.append(thread)

    off = registry.bus.on(STARTED, on_started)
    try:
        with create_pipe_input() as pipe:
            flow = AskFlow(
                new_state(loaded.payload),
                store=SettingsStore(tmp_path / "config.toml"),
                input=pipe,
                output=DummyOutput(),
                cwd=tmp_path,
            )
            mine.append(flow.flow_id)

            async def run() -> ToolResult:
                return await asyncio.wait_for(flow.run_async(), 10)

            result = asyncio.run(run())
        for thread in threads:
            thread.join(10)
    finally:
        off()
        recorder.close()
    events = [(c, d) for c, d in recorder.events if d.get("flowId") in mine]
    return result, events


def test_a_bridge_thread_completes_a_tui_flow(tmp_path: Path) -> None:
    bus = shared_registry().bus

    def bridge(started: dict[str, object]) -> threading.Thread:
        response = {"kind": "answer", "answers": {"fw": {"values": ["vue", "react"]}}}
        request = submit(str(started["flowId"]), response, request_id="tui-1")
        thread = threading.Thread(target=bus.emit, args=(SUBMIT, request), name="bridge")
        thread.start()
        return thread

    result, events = run_tui_flow(tmp_path, bridge)
    assert result.details.cancelled is False
    assert result.text == "Database: (no answer)\nQ2: Vue, React"
    assert [c for c, _ in events] == [STARTED, COMPLETED, SUBMIT_RESULT]
    assert events[1][1]["result"] == result.to_json()
    assert {"requestId": "tui-1", "ok": True}.items() <= events[2][1].items()


def test_a_started_handler_cancels_a_tui_flow_on_its_own_thread(tmp_path: Path) -> None:
    bus = shared_registry().bus

    def bridge(started: dict[str, object]) -> None:
        bus.emit(SUBMIT, submit(str(started["flowId"]), {"kind": "cancel"}))

    result, events = run_tui_flow(tmp_path, bridge)
    assert result.details.cancelled is True
    assert result.text == "User cancelled the ask flow"
    assert [c for c, _ in events] == [STARTED, COMPLETED, SUBMIT_RESULT]


def test_an_invalid_submission_leaves_the_tui_flow_open(tmp_path: Path) -> None:
    bus = shared_registry().bus

    def bridge(started: dict[str, object]) -> None:
        flow_id = str(started["flowId"])
        bus.emit(SUBMIT, submit(flow_id, {"kind": "answer", "answers": {"db": {"values": ["x"]}}}))
        bus.emit(SUBMIT, submit(flow_id, {"kind": "answer", "answers": {"db": {"values": ["pg"]}}}))

    result, events = run_tui_flow(tmp_path, bridge)
    assert result.details.cancelled is False
    assert result.text == "Database: PostgreSQL\nQ2: (no answer)"
    assert [c for c, _ in events] == [STARTED, SUBMIT_RESULT, COMPLETED, SUBMIT_RESULT]
    assert events[1][1]["message"] == 'Unknown option value "x" for question "db".'
