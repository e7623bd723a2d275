"""The flow registry: started/completed/submit-result, flow ids, completing on a face's loop."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from pi_ask.contract.loading import LoadedPayload, load_payload
from pi_ask.contract.payload import Question
from pi_ask.contract.results import ResultDetails, ToolResult
from pi_ask.events.bus import COMPLETED, STARTED, SUBMIT, SUBMIT_RESULT, EventBus
from pi_ask.events.registry import FlowRegistry, complete_on_loop, new_flow_id, shared_registry
from pi_ask.events.submissions import RemoteResponse
from pi_ask.state.commands import Abort, Digit, ReplaceAnswers, SubmittedAnswer
from pi_ask.state.dispatcher import apply
from pi_ask.state.model import Behaviour
from pi_ask.state.opening import new_state
from pi_ask.state.results import build_result
from tests.events.flows import PAYLOAD, Flow, Recorder, open_flow, questions, submit


def test_unknown_flow_is_not_found() -> None:
    registry, flow, recorder = open_flow()
    reply = registry.submit(submit("tool:other", {"kind": "cancel"}))
    assert reply["error"] == "flow_not_found"
    assert reply["message"] == "Ask flow is not active."
    assert flow.received == []
    assert registry.active_flow_ids() == (flow.flow_id,)
    assert recorder.channels() == [STARTED, SUBMIT_RESULT]


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
    assert flow.received == [Abort(reason="cancelled")]
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
    assert flow.received == [Abort(reason="cancelled")]
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
        assert done.wait(60)
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
    bridge.join(60)
    face.join(60)
    assert flow.applied_on == ["face-loop"]
    assert recorder.channels() == [STARTED, COMPLETED, SUBMIT_RESULT]


# --- flow ids, the shared registry -----------------------------------------------------------


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
    assert list(result.details.answers) == ["db"]


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
        runner.join(60)
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

    from pi_ask.ask.face import FaceRequest
    from pi_ask.config.store import SettingsStore
    from pi_ask.faces.tui.flow import AskFlow

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
                FaceRequest(SettingsStore(tmp_path / "config.toml")),
                input=pipe,
                output=DummyOutput(),
                cwd=tmp_path,
            )
            mine.append(flow.services.flow_id)

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
