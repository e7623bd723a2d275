"""What happens around the keys: the event bridge, the notification, the transcript."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

from prompt_toolkit.output import DummyOutput

from pi_ask.ask.face import FaceRequest
from pi_ask.ask.services import AskServices
from pi_ask.config.store import SettingsStore
from pi_ask.contract.payload import Question
from pi_ask.contract.results import ToolResult
from pi_ask.events.bus import COMPLETED, STARTED
from pi_ask.events.registry import shared_registry
from pi_ask.events.submissions import RemoteResponse
from pi_ask.state.commands import Abort
from tests.faces.tui.driver import Driver, run, state_for


def test_a_bridge_completes_the_open_flow(store: SettingsStore) -> None:
    registry = shared_registry()
    events: list[tuple[str, object]] = []
    offs = [
        registry.bus.on(ch, lambda d, ch=ch: events.append((ch, d))) for ch in (STARTED, COMPLETED)
    ]

    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        flow_id = driver.flow.services.flow_id
        await driver.until(lambda: flow_id in registry.active_flow_ids())
        started = [d for ch, d in events if ch == STARTED and d["flowId"] == flow_id]  # type: ignore[index]
        assert started and started[0]["title"] == "Project setup"  # type: ignore[index]
        request = {
            "version": 1,
            "requestId": "r1",
            "flowId": flow_id,
            "response": {"kind": "answer", "answers": {"lang": {"values": ["go"]}}},
        }
        # A bridge submits from its own thread and waits for the flow's answer.
        reply = await asyncio.to_thread(registry.submit, request)
        assert reply["ok"] is True
        result = await driver.result()
        assert not result.details.cancelled
        assert result.details.answers["lang"].values == ("go",)
        assert flow_id not in registry.active_flow_ids()
        completed = [d for ch, d in events if ch == COMPLETED and d["flowId"] == flow_id]  # type: ignore[index]
        assert len(completed) == 1
        await driver.close()

    try:
        run(scenario())
    finally:
        for off in offs:
            off()


def test_a_flow_ended_locally_reports_completed_once(store: SettingsStore) -> None:
    registry = shared_registry()
    completed: list[object] = []
    off = registry.bus.on(COMPLETED, completed.append)

    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        flow_id = driver.flow.services.flow_id
        await driver.until(lambda: flow_id in registry.active_flow_ids())
        await driver.press("esc")
        await driver.result()
        mine = [d for d in completed if d["flowId"] == flow_id]  # type: ignore[index]
        assert len(mine) == 1
        assert mine[0]["result"]["details"]["cancelled"] is True  # type: ignore[index]
        await driver.close()

    try:
        run(scenario())
    finally:
        off()


def test_the_notification_fires_once_after_the_first_frame(store: SettingsStore) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        await driver.until(lambda: "\x07" in "".join(driver.stream.written))
        written = "".join(driver.stream.written)
        assert written.count("\x07") == 1
        # The bell comes after the whole first frame (its last line is the closing rule).
        assert written.index("\x07") > written.index("≡ Review")
        assert written.index("\x07") > written.index("? settings")
        await driver.press("down", "up", "right")
        assert "".join(driver.stream.written).count("\x07") == 1
        await driver.close()

    run(scenario())


def test_notifications_off_rings_nothing(store: SettingsStore) -> None:
    assert store.set("notifications.enabled", False).ok

    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        await driver.press("down", "up")
        # The notification starts once the services' imports are done, off the loop.
        await driver.until(lambda: driver.flow.services.notification is not None)
        assert driver.flow.services.notification is not None
        assert driver.flow.services.notification.attempts[0].status == "skipped"
        assert "\x07" not in "".join(driver.stream.written)
        await driver.close()

    run(scenario())


def test_elaborate_transcript(store: SettingsStore) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        await driver.press("shift+n", "text:why?", "enter", "left", "2", "2")
        await driver.result()
        screen = "".join(driver.raw_lines()).rstrip()  # the long line wraps at 80 columns
        assert screen == (
            'User asked to elaborate on question "Which language should the new '
            'command-line tool be written in?" with note "why?"'
        )
        await driver.close()

    run(scenario())


def test_an_aborted_flow_is_cancelled(store: SettingsStore) -> None:
    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store).start()
        driver.flow.dispatch(Abort())
        result = await driver.result()
        assert result.details.cancelled
        await driver.close()

    run(scenario())


def test_an_error_ends_the_flow_and_releases_everything(store: SettingsStore) -> None:
    registry = shared_registry()

    def broken(_state: object) -> None:
        raise RuntimeError("disk on fire")

    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store, on_commit=broken).start()
        flow_id = driver.flow.services.flow_id
        await driver.until(lambda: flow_id in registry.active_flow_ids())
        driver.pipe.send_text("\r")
        assert driver.task is not None
        try:
            await asyncio.wait_for(driver.task, 5)
        except RuntimeError as error:
            assert str(error) == "disk on fire"
        else:
            raise AssertionError("the error was swallowed")
        assert not driver.flow.app.is_running
        assert flow_id not in registry.active_flow_ids()
        await driver.close()

    run(scenario())


def test_a_recorded_ask_is_addressed_by_its_id(store: SettingsStore) -> None:
    registry = shared_registry()
    started: list[dict[str, object]] = []
    off = registry.bus.on(STARTED, started.append)

    async def scenario() -> None:
        driver = await Driver(state_for("payload_a.json"), store, tool_call_id="ask-1").start()
        assert driver.flow.services.flow_id == "tool:ask-1"
        await driver.until(lambda: "tool:ask-1" in registry.active_flow_ids())
        mine = [d for d in started if d["flowId"] == "tool:ask-1"]
        assert mine and mine[0]["toolCallId"] == "ask-1"
        await driver.press("esc")
        await driver.result()
        await driver.close()

    try:
        run(scenario())
    finally:
        off()


def test_a_startup_notice_shows_in_the_footer(store: SettingsStore) -> None:
    async def scenario() -> None:
        notice = "Drafts are off: /nowhere/log.jsonl: not a directory"
        driver = await Driver(state_for("payload_a.json"), store, notice=notice).start()
        assert any(notice in line for line in driver.lines())
        await driver.press("tab")
        assert not any("Drafts are off" in line for line in driver.lines())
        await driver.press("esc")
        await driver.result()
        await driver.close()

    run(scenario())


class _StillFlow:
    """An open flow that no one answers: just enough for the bus."""

    def __init__(self, flow_id: str) -> None:
        self._flow_id = flow_id
        self._questions = state_for("payload_a.json").questions

    @property
    def flow_id(self) -> str:
        return self._flow_id

    @property
    def questions(self) -> tuple[Question, ...]:
        return self._questions

    def complete(self, response: RemoteResponse) -> ToolResult | None:
        return None


async def _loop_caught_up() -> None:
    """Return once the loop has run every callback other threads queued before this call."""
    loop = asyncio.get_running_loop()
    done = loop.create_future()
    loop.call_soon_threadsafe(done.set_result, None)
    await done


async def _services_settled() -> None:
    """Wait for the services' worker thread, then for the loop to run what it handed back."""
    for thread in threading.enumerate():
        if thread.name == "pi-ask-flow-services":
            await asyncio.to_thread(thread.join, 30)
            assert not thread.is_alive()
    # The worker queued its hand-back before it ended, so it runs before this one.
    await _loop_caught_up()


def _started_ids(events: list[object]) -> list[object]:
    return [event.get("flowId") for event in events if isinstance(event, dict)]


def _services(store: SettingsStore, write_raw: Callable[[str], None] = print) -> AskServices:
    return AskServices(FaceRequest(store), write_raw=write_raw)


def _start(services: AskServices, flow: _StillFlow) -> None:
    services.start(
        questions=lambda: flow.questions,
        complete=flow.complete,
        title="Project setup",
        loop=asyncio.get_running_loop(),
    )


def test_services_come_up_off_the_loop_then_register_and_notify(store: SettingsStore) -> None:
    registry = shared_registry()
    started: list[object] = []
    off = registry.bus.on(STARTED, started.append)

    async def scenario() -> None:
        services = _services(store)
        flow = _StillFlow(services.flow_id)
        _start(services, flow)
        await _services_settled()
        assert services.notification is not None
        assert flow.flow_id in registry.active_flow_ids()
        assert _started_ids(started).count(flow.flow_id) == 1
        services.stop(None)
        assert flow.flow_id not in registry.active_flow_ids()

    try:
        run(scenario())
    finally:
        off()


def test_a_flow_ended_before_its_services_are_up_starts_none_of_them(
    store: SettingsStore,
) -> None:
    registry = shared_registry()
    started: list[object] = []
    off = registry.bus.on(STARTED, started.append)

    async def scenario() -> None:
        services = _services(store)
        flow = _StillFlow(services.flow_id)
        _start(services, flow)
        services.stop(None)  # same loop step: the worker cannot have handed back yet
        await _services_settled()
        assert services.notification is None
        assert flow.flow_id not in registry.active_flow_ids()
        assert flow.flow_id not in _started_ids(started)

    try:
        run(scenario())
    finally:
        off()


def test_notification_output_queued_before_the_end_is_dropped_after_it(
    store: SettingsStore,
) -> None:
    """A bell queued on the loop just before the flow ends must not hit the closed terminal."""
    written: list[str] = []
    errors: list[object] = []
    closed = threading.Event()

    class Terminal(DummyOutput):
        def write_raw(self, data: str) -> None:
            written.append(data)

        def flush(self) -> None:
            if closed.is_set():
                raise ValueError("write to closed file")

    async def scenario() -> None:
        asyncio.get_running_loop().set_exception_handler(lambda _l, c: errors.append(c))
        services = _services(store, Terminal().write_raw)
        _start(services, _StillFlow(services.flow_id))
        services.write_terminal("\a")  # queued on the loop, as a channel thread does
        services.stop(None)
        closed.set()  # the flow closes its terminal right after stopping the services
        await _loop_caught_up()
        await _services_settled()

    run(scenario())
    assert written == []
    assert errors == []
