"""What a flow starts right after its first frame, and stops at its end.

The config watcher (edits made elsewhere apply live), the one "question waiting"
notification, and the flow's registration on the event bus (so a trusted bridge can
answer it). None of them is on the first-frame path: they are imported and started once
the first frame is on the terminal.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, cast

from prompt_toolkit.output import Output

from pi_ask.config import Settings, SettingsStore

if TYPE_CHECKING:
    from pi_ask.contract.payload import Question
    from pi_ask.contract.results import ToolResult
    from pi_ask.events import FlowRegistration, RemoteFlow
    from pi_ask.notifications import Dispatch

FlowSource = Literal["tool", "answer", "answer:again", "ask:replay", "ask:resume"]
_SOURCES: tuple[str, ...] = ("tool", "answer", "answer:again", "ask:replay", "ask:resume")
WATCH_INTERVAL_S = 0.25


def given_label(question: Question | None) -> str | None:
    """The label as the payload gave it; ``Q<n>`` labels were made up by normalization."""
    if question is None or (question.label.startswith("Q") and question.label[1:].isdigit()):
        return None
    return question.label


class FlowServices:
    """The watcher, the notification and the bus registration of one flow."""

    def __init__(self, store: SettingsStore, output: Output) -> None:
        self._store = store
        self._output = output
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop_watching: Callable[[], None] | None = None
        self._notification: Dispatch | None = None
        self._registration: FlowRegistration | None = None

    def start(
        self,
        loop: asyncio.AbstractEventLoop,
        flow: RemoteFlow,
        *,
        settings: Settings,
        source: str,
        tool_call_id: str | None,
        title: str | None,
    ) -> None:
        """Start everything (call once, after the first frame)."""
        self._loop = loop
        self._stop_watching = self._store.start_watching(loop, WATCH_INTERVAL_S)
        self._notify(settings, flow.questions)
        self._register(flow, source, tool_call_id, title)

    def _notify(self, settings: Settings, questions: tuple[Question, ...]) -> None:
        # Imported here, after the first frame: channels may pull in heavy libraries.
        from pi_ask.notifications import (
            TITLE,
            dispatch,
            parse_channels,
            subject_for,
            waiting_message,
        )

        notifications = settings.notifications
        channels, _warnings = parse_channels(notifications.channels)
        first = questions[0] if questions else None
        subject = subject_for(given_label(first), first.prompt) if first else ""
        self._notification = dispatch(
            channels,
            title=TITLE,
            message=waiting_message(subject),
            write_terminal=self.write_terminal,
            timeout_s=notifications.timeout_s,
            enabled=notifications.enabled,
        )

    def _register(
        self, flow: RemoteFlow, source: str, tool_call_id: str | None, title: str | None
    ) -> None:
        from pi_ask.events import load_bridges, shared_registry

        registry = shared_registry()
        named = cast(FlowSource, source if source in _SOURCES else "tool")
        self._registration = registry.register(
            flow, source=named, tool_call_id=tool_call_id, title=title
        )
        load_bridges(registry.bus)

    @property
    def notification(self) -> Dispatch | None:
        """The running notification, once started."""
        return self._notification

    def write_terminal(self, text: str) -> None:
        """Notification output, from any thread: written between frames, on the loop."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return

        def write() -> None:
            with contextlib.suppress(OSError):
                self._output.write_raw(text)
                self._output.flush()

        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(write)

    def finished(self, result: ToolResult) -> None:
        """The flow ended with ``result``: tell the bus (once)."""
        if self._registration is not None:
            self._registration.finish(result)

    def stop(self, result: ToolResult | None) -> None:
        """Stop everything; a flow torn down without a result is forgotten by the bus."""
        if self._stop_watching is not None:
            with contextlib.suppress(Exception):
                self._stop_watching()
            self._stop_watching = None
        if self._notification is not None:
            self._notification.close()
        if self._registration is not None:
            if result is None:
                self._registration.dispose()
            else:
                self._registration.finish(result)
