"""Trusted bridges: loading entry points once per bus, skipping broken ones."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from pi_ask.events.bridges import BRIDGE_GROUP, load_bridges
from pi_ask.events.bus import STARTED, SUBMIT, SUBMIT_RESULT, EventBus
from pi_ask.events.registry import FlowRegistry
from pi_ask.state.commands import ReplaceAnswers
from tests.events.flows import Flow, questions, submit


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
