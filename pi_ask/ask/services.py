"""What a flow starts right after its first frame, and stops at its end.

The config watcher (edits made elsewhere apply live), the one "question waiting"
notification, and the flow's registration on the event bus (so a trusted bridge can
answer it). None of them is on the first-frame path: they are imported and started once
the first frame is on the terminal.

Their imports (notifications, the event bus, ``importlib.metadata``) and the scan of the
installed bridge entry points take some 25-40 ms: done on the loop, they would hold up the
key the user presses right after the first frame. So a worker thread does that part, which
needs neither the loop nor the flow, and hands the result back to the loop, which sends the
notification, registers the flow and loads the bridges, unless the flow ended meanwhile.
"""

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, NamedTuple, cast

from prompt_toolkit.output import Output

from pi_ask.config import Settings, SettingsStore

if TYPE_CHECKING:
    from pi_ask.contract.payload import Question
    from pi_ask.contract.results import ToolResult
    from pi_ask.events import EntryPointLike, FlowRegistration, RemoteFlow
    from pi_ask.notifications import Channel, Dispatch
    from pi_ask.tui.terminal_reports import TerminalReports

FlowSource = Literal["tool", "answer", "answer:again", "ask:replay", "ask:resume"]
_SOURCES: tuple[str, ...] = ("tool", "answer", "answer:again", "ask:replay", "ask:resume")
WATCH_INTERVAL_S = 0.25


class _Prepared(NamedTuple):
    """What the worker thread readied: the notification to send and the bridges to load."""

    channels: "tuple[Channel, ...]"
    title: str
    message: str
    reminder: str
    bridges: "tuple[EntryPointLike, ...]"


def _prepare(settings: Settings, questions: "tuple[Question, ...]") -> _Prepared:
    """Import the services and scan the bridge entry points (any thread; no loop, no flow)."""
    # Imported here, after the first frame: channels may pull in heavy libraries, and
    # importlib.metadata scans site-packages.
    from importlib.metadata import entry_points

    from pi_ask.events import BRIDGE_GROUP  # the whole bus: registry, bridges
    from pi_ask.notifications import (
        TITLE,
        given_label,
        parse_channels,
        reminder_message,
        subject_for,
        waiting_message,
    )
    from pi_ask.notifications import dispatcher as _dispatcher  # noqa: F401 - off the loop too

    # What the first frame left for the first key: the bindings and the engine's commands and
    # transitions, the result classes (tui.flow imports them where they are used), the
    # editors' completion and the review tab.
    from pi_ask.state import flow as _engine  # noqa: F401
    from pi_ask.state import results as _results  # noqa: F401
    from pi_ask.tui import file_completer as _completer  # noqa: F401
    from pi_ask.tui import file_index as _index  # noqa: F401
    from pi_ask.tui import flow_bindings as _bindings  # noqa: F401
    from pi_ask.tui import review_screen as _review  # noqa: F401

    channels, _warnings = parse_channels(settings.notifications.channels)
    first = questions[0] if questions else None
    subject = subject_for(given_label(first.label), first.prompt) if first else ""
    bridges = tuple(entry_points(group=BRIDGE_GROUP))
    return _Prepared(channels, TITLE, waiting_message(subject), reminder_message(subject), bridges)


class FlowServices:
    """The watcher, the notification and the bus registration of one flow."""

    def __init__(
        self, store: SettingsStore, output: Output, reports: "TerminalReports | None" = None
    ) -> None:
        self._store = store
        self._output = output
        self._reports = reports
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop_watching: Callable[[], None] | None = None
        self._notification: Dispatch | None = None
        self._reminders: list[Dispatch] = []
        self._next_reminder: asyncio.TimerHandle | None = None
        self._registration: FlowRegistration | None = None
        self._ended = False
        self._stopped = False

    def start(
        self,
        loop: asyncio.AbstractEventLoop,
        flow: "RemoteFlow",
        *,
        settings: Settings,
        source: str,
        tool_call_id: str | None,
        title: str | None,
    ) -> None:
        """Start everything (call once, on the loop, after the first frame).

        The watcher starts at once; the notification and the bus registration follow on the
        loop once a worker thread has done their imports, unless the flow has ended by then.
        """
        self._loop = loop
        self._stop_watching = self._store.start_watching(loop, WATCH_INTERVAL_S)
        questions = flow.questions

        def begin(prepared: _Prepared | Exception) -> None:
            # On the loop, after the worker: nothing starts for a flow that has already ended.
            if self._ended:
                return
            if isinstance(prepared, Exception):
                raise prepared  # the loop's exception handler reports it, as it did on the loop
            self._notify(prepared, settings)
            self._register(flow, source, tool_call_id, title, prepared.bridges)

        def work() -> None:
            try:
                prepared: _Prepared | Exception = _prepare(settings, questions)
            except Exception as error:  # reported on the loop, not over the frame
                prepared = error
            # The loop may have closed meanwhile: the flow is over, nothing to start.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(begin, prepared)

        threading.Thread(target=work, name="pi-ask-flow-services", daemon=True).start()

    def _notify(self, prepared: _Prepared, settings: Settings) -> None:
        self._notification = self._dispatch(prepared, prepared.message, settings)
        notifications = settings.notifications
        if notifications.enabled and notifications.remind_times > 0 and self._loop is not None:
            self._next_reminder = self._loop.call_later(
                notifications.remind_after_s, self._remind, prepared, settings
            )

    def _dispatch(self, prepared: _Prepared, message: str, settings: Settings) -> "Dispatch":
        from pi_ask.notifications import dispatch

        notifications = settings.notifications
        return dispatch(
            prepared.channels,
            title=prepared.title,
            message=message,
            write_terminal=self.write_terminal,
            timeout_s=notifications.timeout_s,
            enabled=notifications.enabled,
            focused=self._focused,
        )

    def _focused(self) -> bool | None:
        # Read from the dispatcher's thread: a plain attribute the input filter sets.
        return None if self._reports is None else self._reports.focused

    def _remind(self, prepared: _Prepared, settings: Settings) -> None:
        """On the loop, when the ask has waited ``remind_after_s``: remind, maybe again."""
        self._next_reminder = None
        if self._ended:
            return
        self._reminders.append(self._dispatch(prepared, prepared.reminder, settings))
        notifications = settings.notifications
        if len(self._reminders) < notifications.remind_times and self._loop is not None:
            self._next_reminder = self._loop.call_later(
                notifications.remind_after_s, self._remind, prepared, settings
            )

    @property
    def reminders(self) -> "tuple[Dispatch, ...]":
        """The reminders sent so far."""
        return tuple(self._reminders)

    @property
    def reminder_pending(self) -> bool:
        """True while a reminder is scheduled (no key pressed yet, not all sent)."""
        return self._next_reminder is not None

    def key_pressed(self) -> None:
        """The user pressed a key: they have seen the ask, so no reminder follows."""
        if self._next_reminder is not None:
            self._next_reminder.cancel()
            self._next_reminder = None

    def _register(
        self,
        flow: "RemoteFlow",
        source: str,
        tool_call_id: str | None,
        title: str | None,
        bridges: "tuple[EntryPointLike, ...]",
    ) -> None:
        from pi_ask.events import load_bridges, shared_registry

        registry = shared_registry()
        named = cast(FlowSource, source if source in _SOURCES else "tool")
        self._registration = registry.register(
            flow, source=named, tool_call_id=tool_call_id, title=title
        )
        load_bridges(registry.bus, entry_points=bridges)

    @property
    def notification(self) -> "Dispatch | None":
        """The running notification, once started."""
        return self._notification

    def write_terminal(self, text: str) -> None:
        """Notification output, from any thread: written between frames, on the loop."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return

        def write() -> None:
            # Queued before the flow stopped, run after: the terminal may be closed by now.
            if self._stopped:
                return
            with contextlib.suppress(OSError):
                self._output.write_raw(text)
                self._output.flush()

        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(write)

    def finished(self, result: "ToolResult") -> None:
        """The flow ended with ``result``: tell the bus (once)."""
        self._ended = True
        if self._registration is not None:
            self._registration.finish(result)

    def stop(self, result: "ToolResult | None") -> None:
        """Stop everything; a flow torn down without a result is forgotten by the bus."""
        self._ended = True
        self._stopped = True
        if self._stop_watching is not None:
            with contextlib.suppress(Exception):
                self._stop_watching()
            self._stop_watching = None
        self.key_pressed()  # no reminder after the end
        for running in (self._notification, *self._reminders):
            if running is not None:
                running.close()
        if self._registration is not None:
            if result is None:
                self._registration.dispose()
            else:
                self._registration.finish(result)
