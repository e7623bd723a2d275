"""What runs beside a face: started after its first frame, stopped at its end.

- live settings: the config watcher, so edits made elsewhere apply while the flow is open;
- the one "question waiting" notification (``notifications.waiting``) and its reminders;
- the flow's registration on the event bus, so a trusted bridge can answer it;
- the notice line (``NoticeLine``: the config's notice, the host's, the countdown);
- the deadline (``Countdown``: what to say in the last seconds, and when it has passed).

None of them is on the first-frame path. A face on an event loop (the TUI) starts them with
its loop: the watcher at once, and, since their imports (notifications, the event bus,
``importlib.metadata``) and the scan of the bridge entry points take some 25-40 ms that would
hold up the first key, a worker thread does that part and hands the result back to the loop,
which sends the notification, schedules the reminders and registers the flow, unless the flow
ended meanwhile. A face without a loop (the plain face) gets the notification and the
registration at once, on its own thread. Each face uses what it used before these were
shared: the watcher and the reminders only with a loop.
"""

import asyncio
import contextlib
import math
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, NamedTuple, cast

from pi_ask.i18n import N_, gettext

if TYPE_CHECKING:
    from pi_ask.ask.face import FaceRequest
    from pi_ask.config.settings import Settings
    from pi_ask.config.store import SettingsStore
    from pi_ask.contract.payload import Question
    from pi_ask.contract.results import ToolResult
    from pi_ask.events.bridges import EntryPointLike
    from pi_ask.events.registry import FlowRegistration, FlowSource
    from pi_ask.events.submissions import RemoteResponse
    from pi_ask.notifications.dispatcher import Dispatch

WATCH_INTERVAL_S = 0.25
COUNTDOWN_TEXT = N_("Time left to answer: {seconds} s.")

Complete = Callable[["RemoteResponse"], "ToolResult | None"]


def now_ms() -> int:
    """The time now in epoch milliseconds, as deadlines are given."""
    return time.time_ns() // 1_000_000


class NoticeLine:
    """The notice a face shows beside its flow: the config's, the host's and the countdown.

    Args:
        store: Where the config's notice (a file that did not load) is read, each time.
        host: The host's notice from the start (drafts being off); ``host`` may change.
    """

    def __init__(self, store: "SettingsStore", host: str | None = None) -> None:
        self._store = store
        self.host = host
        self.countdown: str | None = None

    def text(self) -> str | None:
        """The parts that are there, one after the other; ``None`` when none is."""
        config = self._store.notice
        parts = (config.text if config else None, self.host, self.countdown)
        return " ".join(part for part in parts if part) or None


class Countdown:
    """The last seconds before an ask's deadline, said once as each of ``marks`` is passed.

    Args:
        deadline_ms: When the ask times out (epoch ms).
        marks: Seconds left at which to say the time left (the TUI: every second of the
            last 20; the plain face: 20, 10 and 5).
    """

    def __init__(self, deadline_ms: int, marks: Iterable[int]) -> None:
        self.deadline_ms = deadline_ms
        self._marks = sorted(set(marks), reverse=True)
        self._said: set[int] = set()

    def passed(self, now: int) -> bool:
        """True once the deadline has come."""
        return now >= self.deadline_ms

    def due(self, now: int) -> str | None:
        """The time left, worded, when a mark not said yet has been passed; else ``None``.

        A mark passed while nobody looked (an ask resumed late) is said at once, and the
        marks passed with it are not said after it.
        """
        left_ms = self.deadline_ms - now
        passed = {mark for mark in self._marks if left_ms <= mark * 1000}
        if not passed - self._said:
            return None
        self._said |= passed
        return gettext(COUNTDOWN_TEXT).format(seconds=max(1, math.ceil(left_ms / 1000)))

    def wake_in_s(self, now: int) -> float:
        """Seconds until the next mark not said yet (none: a passed one), or the deadline."""
        left_ms = self.deadline_ms - now
        unsaid = [mark * 1000 for mark in self._marks if mark not in self._said]
        if any(mark >= left_ms for mark in unsaid):
            return 0.0
        return max(0.0, (left_ms - max(unsaid, default=0)) / 1000)


@contextlib.contextmanager
def deadline_alarm(deadline_ms: int | None, event: threading.Event) -> Iterator[None]:
    """Set ``event`` when the deadline comes, for the length of a ``with``.

    For a face that stops on an event (the RPC dialogs); it tells a timeout from another
    abort by looking at the deadline.
    """
    if deadline_ms is None:
        yield
        return
    timer = threading.Timer(max(0.0, (deadline_ms - now_ms()) / 1000), event.set)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


class _Prepared(NamedTuple):
    """What the worker thread readied: the subject to notify about and the bridges to load."""

    subject: str
    bridges: "tuple[EntryPointLike, ...]"


class _OpenFlow:
    """The flow as the event bus sees it (``events.registry.RemoteFlow``)."""

    def __init__(
        self, flow_id: str, questions: "Callable[[], tuple[Question, ...]]", complete: Complete
    ) -> None:
        self.flow_id = flow_id
        self._questions = questions
        self.complete = complete

    @property
    def questions(self) -> "tuple[Question, ...]":
        return self._questions()


class AskServices:
    """The watcher, the notification and its reminders, and the bus registration of a flow.

    Args:
        request: The face's request: settings, the ask's id (the flow's bus id), who asked.
        write_raw: Writes notification text (a bell, an OSC sequence) to the face's terminal;
            on a loop it is called on the loop, between frames, and never after ``stop``.
        focused: Whether that terminal has focus now (``None``: unknown).
        bell_only: The face takes no escape sequences: terminal channels ring the bell.
    """

    def __init__(
        self,
        request: "FaceRequest",
        *,
        write_raw: Callable[[str], None],
        focused: Callable[[], bool | None] = lambda: None,
        bell_only: bool = False,
    ) -> None:
        self._request = request
        self._store = request.store
        self._write_raw = write_raw
        self._focused = focused
        self._bell_only = bell_only
        self._flow_id: str | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop_watching: Callable[[], None] | None = None
        self._notification: Dispatch | None = None
        self._reminders: list[Dispatch] = []
        self._next_reminder: asyncio.TimerHandle | None = None
        self._registration: FlowRegistration | None = None
        self._ended = False
        self._stopped = False

    @property
    def flow_id(self) -> str:
        """The id bridges address the flow by: ``tool:<ask id>``, or a fresh one."""
        if self._flow_id is None:
            from pi_ask.events.registry import new_flow_id

            self._flow_id = new_flow_id(self._request.ask_id)
        return self._flow_id

    def start(
        self,
        *,
        questions: "Callable[[], tuple[Question, ...]]",
        complete: Complete,
        title: str | None,
        loop: asyncio.AbstractEventLoop | None = None,
        preload: Callable[[], None] | None = None,
    ) -> None:
        """Start everything (call once, after the first frame).

        Args:
            questions: The questions as presented now (a type change alters them).
            complete: Applies a validated remote submission on the face's own thread and
                returns the result, or ``None`` when the flow had already finished; it is
                called from whatever thread submitted.
            title: The flow's title, for the bus.
            loop: The face's event loop: the watcher, the reminders, and the imports on a
                worker thread (see the module docstring). Without one, the notification
                and the registration happen now, on this thread.
            preload: Run on the worker thread too: imports the face's first key needs.
        """
        settings = self._store.snapshot()
        if loop is None:
            prepared = _prepare(questions(), preload)
            self._notify(prepared, settings)
            self._register(_OpenFlow(self.flow_id, questions, complete), title, prepared.bridges)
            return
        self._loop = loop
        self._stop_watching = self._store.start_watching(loop, WATCH_INTERVAL_S)
        asked = questions()

        def begin(prepared: _Prepared | Exception) -> None:
            # On the loop, after the worker: nothing starts for a flow that has already ended.
            if self._ended:
                return
            if isinstance(prepared, Exception):
                raise prepared  # the loop's exception handler reports it, as it did on the loop
            self._notify(prepared, settings)
            # Its id only now: the worker imported the bus it comes from, off the loop.
            self._register(_OpenFlow(self.flow_id, questions, complete), title, prepared.bridges)

        def work() -> None:
            try:
                prepared: _Prepared | Exception = _prepare(asked, preload)
            except Exception as error:  # reported on the loop, not over the frame
                prepared = error
            # The loop may have closed meanwhile: the flow is over, nothing to start.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(begin, prepared)

        threading.Thread(target=work, name="pi-ask-flow-services", daemon=True).start()

    # --- the notification and its reminders ----------------------------------------------

    def _notify(self, prepared: _Prepared, settings: "Settings") -> None:
        from pi_ask.notifications.message import waiting_message

        self._notification = self._send(waiting_message(prepared.subject), settings)
        notifications = settings.notifications
        if notifications.enabled and notifications.remind_times > 0 and self._loop is not None:
            self._next_reminder = self._loop.call_later(
                notifications.remind_after_s, self._remind, prepared, settings
            )

    def _send(self, message: str, settings: "Settings") -> "Dispatch":
        from pi_ask.notifications.waiting import notify_waiting

        return notify_waiting(
            settings.notifications,
            message,
            write_terminal=self.write_terminal,
            focused=self._focused,
            bell_only=self._bell_only,
        )

    def _remind(self, prepared: _Prepared, settings: "Settings") -> None:
        """On the loop, when the ask has waited ``remind_after_s``: remind, maybe again."""
        from pi_ask.notifications.message import reminder_message

        self._next_reminder = None
        if self._ended:
            return
        self._reminders.append(self._send(reminder_message(prepared.subject), settings))
        notifications = settings.notifications
        if len(self._reminders) < notifications.remind_times and self._loop is not None:
            self._next_reminder = self._loop.call_later(
                notifications.remind_after_s, self._remind, prepared, settings
            )

    @property
    def notification(self) -> "Dispatch | None":
        """The running notification, once started."""
        return self._notification

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

    def write_terminal(self, text: str) -> None:
        """Notification output, from any thread: on the face's loop when it has one."""
        loop = self._loop
        if loop is None:
            if not self._stopped:
                self._write_raw(text)
            return
        if loop.is_closed():
            return

        def write() -> None:
            # Queued before the flow stopped, run after: the terminal may be closed by now.
            if not self._stopped:
                self._write_raw(text)

        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(write)

    # --- the event bus -------------------------------------------------------------------

    def _register(
        self, flow: _OpenFlow, title: str | None, bridges: "tuple[EntryPointLike, ...]"
    ) -> None:
        from typing import get_args

        from pi_ask.events.bridges import load_bridges
        from pi_ask.events.registry import FlowSource, shared_registry

        registry = shared_registry()
        source = self._request.source
        named = cast("FlowSource", source if source in get_args(FlowSource) else "tool")
        self._registration = registry.register(
            flow, source=named, tool_call_id=self._request.ask_id, title=title
        )
        load_bridges(registry.bus, entry_points=bridges)

    # --- the end -------------------------------------------------------------------------

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


def _prepare(questions: "tuple[Question, ...]", preload: Callable[[], None] | None) -> _Prepared:
    """Import the services and scan the bridge entry points (any thread; no loop, no flow)."""
    # Imported here, after the first frame: channels may pull in heavy libraries, and
    # importlib.metadata scans site-packages.
    # The face's preload first: what its first key needs (and the TUI's Markdown parser,
    # whose frame is redrawn once it is loaded) is on screen sooner than a notification.
    if preload is not None:
        preload()
    from importlib.metadata import entry_points

    from pi_ask.events import registry as _registry  # noqa: F401 - the whole bus, off the loop
    from pi_ask.events.bridges import BRIDGE_GROUP
    from pi_ask.notifications import dispatcher as _dispatcher  # noqa: F401 - off the loop too
    from pi_ask.notifications.waiting import waiting_subject

    bridges = tuple(entry_points(group=BRIDGE_GROUP))
    return _Prepared(waiting_subject(questions), bridges)
