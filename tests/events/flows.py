"""Test doubles for the event package: a sample payload, a recording flow and a bus recorder."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from pi_ask.contract.loading import LoadedPayload, load_payload
from pi_ask.contract.payload import Question
from pi_ask.contract.results import ResultDetails, ToolResult
from pi_ask.events.bus import COMPLETED, STARTED, SUBMIT_RESULT, EventBus
from pi_ask.events.registry import FlowRegistry, new_flow_id
from pi_ask.events.submissions import RemoteResponse
from pi_ask.state.commands import Abort

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
