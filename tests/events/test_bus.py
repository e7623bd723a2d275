"""The event bus: handler order, unsubscribing, failing handlers, a cheap import."""

from __future__ import annotations

import pytest

from pi_ask.events.bus import EventBus
from tests.child_processes import python_output


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


def test_importing_the_bus_stays_cheap() -> None:
    code = (
        "import sys, pi_ask.events\n"
        "heavy = {'prompt_toolkit', 'pydantic', 'pydantic_settings', 'apprise',\n"
        "         'importlib.metadata', 'asyncio', 'concurrent.futures', 'logging'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    assert python_output(code).strip() == "[]"
