"""``PlainFlow``: the ask flow in line mode, and ``run_plain_flow``.

The flow reads lines and other events (signals, the abort event, a bridge's submission, the
deadline) and drives the engine; what each typed line does is in ``answering.py``, how the
state is worded in ``render.py``. The engine decides everything (advancing, the
dirty-dismiss guard, auto-submit, the type-change confirmation), exactly as in the TUI.

Input rules (python-port.md §11): a number or a list of numbers (``1,3``) replaces the
selection; ``/`` starts a command; any other line is the custom answer (``\\`` escapes a
leading ``/``); an empty line keeps the answer and moves on; the review offers 1 Submit,
2 Elaborate, 3 Cancel; Ctrl+C is dismiss through the guard; end of input aborts.
"""

from __future__ import annotations

import math
import re
import signal
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from pi_ask.config.watcher import signature
from pi_ask.errors import FlowInterrupted
from pi_ask.plain import render
from pi_ask.plain.answering import LineAnswers
from pi_ask.plain.remote import Handoff, register
from pi_ask.plain.terminal import (
    Aborted,
    AbortSignal,
    EndOfInput,
    LineTerminal,
    Signalled,
    TimedOut,
    Woken,
    open_line_terminal,
)
from pi_ask.state import (
    Abort,
    AskState,
    BehaviourChanged,
    Command,
    Dismiss,
    apply,
    build_result,
    current_question,
    footer_notice,
    is_draft_change,
    is_review_tab,
    transcript_lines,
)
from pi_ask.terminal_text import sanitize_block, sanitize_line

if TYPE_CHECKING:
    from pi_ask.config import SettingsStore
    from pi_ask.contract.payload import Question
    from pi_ask.contract.results import ToolResult
    from pi_ask.events import RemoteResponse
    from pi_ask.notifications import Dispatch

OnCommit = Callable[[AskState], None]
BELL = "\a"
LIVE_NOTICE_S = 1.0
COUNTDOWN_MARKS = (20, 10, 5)
"""Seconds before the deadline at which the plain face says how long is left."""
ESCAPES = re.compile("[\x1b\x9b]")


class PlainFlow(LineAnswers):
    """One ask flow in line mode on a ``LineTerminal``; build it, then ``run()`` it once.

    Args:
        state: The starting state (``pi_ask.state.new_state``, maybe with resumed answers).
        store: The settings store: the live behaviour (re-read when the file changes).
        terminal: Where lines are read and text written.
        notice: A notice to show from the start, beside the config's (drafts being off).
        on_commit: Called with the state after every committed change (the draft hook).
        abort: Once set, the flow ends as aborted (a host or client gave up).
        source: Who asked (``tool``, ``answer``, ``ask:replay``...), for the event bus.
        tool_call_id: The ask's id; bridges then address the flow as ``tool:<id>``.
        deadline_ms: When the ask times out (epoch ms): the time left is said at 20, 10 and
            5 seconds, then the flow ends with reason ``timeout``.
        live_notice: Asked about once a second; a new text is said as a notice (the inbox's
            "2 more waiting").
    """

    def __init__(
        self,
        state: AskState,
        *,
        store: SettingsStore,
        terminal: LineTerminal,
        notice: str | None = None,
        on_commit: OnCommit | None = None,
        abort: AbortSignal | None = None,
        source: str = "tool",
        tool_call_id: str | None = None,
        deadline_ms: int | None = None,
        live_notice: Callable[[], str | None] | None = None,
    ) -> None:
        self._store = store
        self._live_notice = live_notice
        self._live_said: str | None = None
        self._prompted = False
        self._deadline = deadline_ms / 1000 if deadline_ms is not None else None
        self._countdown_said: set[int] = set()
        self._source = source
        self._tool_call_id = tool_call_id
        self._flow_id: str | None = None
        # Made by ``run``: submissions are applied on the thread that runs the flow.
        self._handoff: Handoff | None = None
        self._terminal = terminal
        self._notice = notice
        self._on_commit = on_commit
        self._abort = abort
        self._signature = signature(store.path)
        self._behaviour = store.snapshot().behaviour
        self.interrupted_by: int | None = None
        # The custom row was chosen without text: the next line is that text.
        self._awaiting_text = False
        self._shown: object = None
        self._said_notice: str | None = None
        self.state = self._apply(state, BehaviourChanged(config_notice=self._startup_notice()))

    # --- running ------------------------------------------------------------------------------

    def run(self) -> ToolResult:
        """Ask until the flow completes; returns the result (see ``run_plain_flow``)."""
        self._say(*render.title_lines(self.state))
        self._show()
        notification = self._notify()
        self._handoff = handoff = Handoff(self._terminal.reader.wake)
        registration = register(
            self, source=self._source, tool_call_id=self._tool_call_id, title=self.state.title
        )
        try:
            self._ask()
        finally:
            notification.close()
            # Submissions still waiting get no result: the flow is over.
            handoff.drain(lambda _response: None)
        result = build_result(self.state)
        registration.finish(result)
        self._say("", *(sanitize_block(text) for _role, text in transcript_lines(result)))
        return result

    def _ask(self) -> None:
        while not self.state.completed:
            self._show()
            if not self._prompted:
                self._terminal.write(self._prompt())
                self._prompted = True
            event = self._terminal.reader.read(self._abort, until=self._next_tick())
            if not isinstance(event, TimedOut | Woken):
                self._prompted = False  # a line was entered (or the flow ends): prompt anew
            if isinstance(event, TimedOut):
                self._tick()
            elif isinstance(event, str):
                self._reload_settings()
                self._line(event)
            elif isinstance(event, Signalled) and event.number == signal.SIGINT:
                self._terminal.write("\n")
                self._send(Dismiss())
            elif isinstance(event, Signalled):
                self.interrupted_by = event.number
                self._send(Abort())
            elif isinstance(event, Woken) and self._handoff is not None:
                self._handoff.drain(self._complete_now)
            elif isinstance(event, Aborted | EndOfInput):
                self._terminal.write("\n")
                self._send(Abort())

    # --- the deadline and the live notice ------------------------------------------------------

    def _next_tick(self) -> float | None:
        """When to look again: a countdown mark not yet said, the deadline, the live notice."""
        times = []
        if self._deadline is not None:
            # A mark already passed and not said yet comes at once (an ask resumed late).
            times += [self._deadline - s for s in COUNTDOWN_MARKS if s not in self._countdown_said]
            times.append(self._deadline)
        if self._live_notice is not None:
            times.append(time.time() + LIVE_NOTICE_S)
        return min(times) if times else None

    def _tick(self) -> None:
        if self._live_notice is not None:
            notice = self._live_notice()
            if notice and notice != self._live_said:
                self._say("", f"Notice: {sanitize_line(notice)}")
            self._live_said = notice
        if self._deadline is not None:
            self._tick_deadline(self._deadline)

    def _tick_deadline(self, deadline: float) -> None:
        left = deadline - time.time()
        if left <= 0:
            self._terminal.write("\n")
            self._send(Abort(reason="timeout"))
            return
        passed = {s for s in COUNTDOWN_MARKS if left <= s}
        if passed - self._countdown_said:
            self._countdown_said |= passed
            # On a line of its own: the user may be half-way through typing one.
            self._say("", f"Notice: Time left to answer: {math.ceil(left)} s.")

    # --- the event bus (pi_ask.events.RemoteFlow) ---------------------------------------------

    @property
    def flow_id(self) -> str:
        """The id bridges address this flow by."""
        if self._flow_id is None:
            from pi_ask.events import new_flow_id

            self._flow_id = new_flow_id(self._tool_call_id)
        return self._flow_id

    @property
    def questions(self) -> tuple[Question, ...]:
        """The questions as currently presented."""
        return self.state.questions

    def complete(self, response: RemoteResponse) -> ToolResult | None:
        """Apply a validated remote submission from any thread; the result, or ``None``."""
        if self._handoff is None:
            return None
        return self._handoff.submit(response, self._complete_now)

    def _complete_now(self, response: RemoteResponse) -> ToolResult | None:
        if self.state.completed:
            return None
        self._send(response)
        return build_result(self.state) if self.state.completed else None

    def _notify(self) -> Dispatch:
        """The one "question waiting" notification, as the TUI sends it.

        A terminal channel's escape sequence (OSC 9, 777, 99) becomes a plain bell here: the
        plain face writes no escape sequence, and a bell is what every terminal can ring.
        """
        from pi_ask.notifications import (
            TITLE,
            dispatch,
            given_label,
            parse_channels,
            subject_for,
            waiting_message,
        )

        settings = self._store.snapshot().notifications
        first = self.state.questions[0] if self.state.questions else None
        subject = subject_for(given_label(first.label), first.prompt) if first else ""
        channels, _warnings = parse_channels(settings.channels)
        return dispatch(
            channels,
            title=TITLE,
            message=waiting_message(subject),
            write_terminal=self._ring,
            timeout_s=settings.timeout_s,
            enabled=settings.enabled,
            bell_only=True,  # so "desktop" is not skipped for an OSC alert never sent
        )

    def _ring(self, text: str) -> None:
        self._terminal.write(BELL if ESCAPES.search(text) else text)

    def _prompt(self) -> str:
        if is_review_tab(self.state):
            return render.REVIEW_PROMPT
        return render.TEXT_PROMPT if self._awaiting_text else render.QUESTION_PROMPT

    def _show(self) -> None:
        """Print the question or the review when it changed, and any new notice."""
        notice = footer_notice(self.state)
        if notice is not None and notice != self._said_notice:
            self._say(f"Notice: {sanitize_line(notice)}{render.NOTICE_HINTS.get(notice, '')}")
        self._said_notice = notice
        if self.state.completed:
            return
        tab = self.state.tab
        shown = (tab, current_question(self.state))
        if shown == self._shown:
            return
        self._shown = shown
        if is_review_tab(self.state):
            self._say(*render.review_lines(self.state))
        else:
            self._say(*render.question_lines(self.state, tab))

    def _say(self, *lines: str) -> None:
        if lines:
            self._terminal.write("".join(line + "\n" for line in lines))
            self._prompted = False

    # --- the engine ---------------------------------------------------------------------------

    def _apply(self, before: AskState, command: Command) -> AskState:
        after = apply(before, command, self._behaviour)
        if self._on_commit is not None and is_draft_change(before, after):
            self._on_commit(after)
        return after

    def _send(self, *commands: Command) -> None:
        for command in commands:
            self.state = self._apply(self.state, command)

    def _reload_settings(self) -> None:
        """Settings edited in the file apply from the next line on (no watcher needed)."""
        now = signature(self._store.path)
        if now == self._signature:
            return
        self._signature = now
        self._store.reload()
        self._behaviour = self._store.snapshot().behaviour
        self._send(BehaviourChanged(config_notice=self._startup_notice()))

    def _startup_notice(self) -> str | None:
        config = self._store.notice
        parts = [text for text in (config.text if config else None, self._notice) if text]
        return " ".join(parts) or None


def run_plain_flow(
    state: AskState,
    *,
    store: SettingsStore,
    notice: str | None = None,
    on_commit: OnCommit | None = None,
    abort: AbortSignal | None = None,
    terminal: LineTerminal | None = None,
    source: str = "tool",
    tool_call_id: str | None = None,
    deadline_ms: int | None = None,
    live_notice: Callable[[], str | None] | None = None,
) -> ToolResult:
    """Ask the questions of ``state`` line by line on the terminal and return the result.

    Args:
        state: The starting state (``pi_ask.state.new_state(payload)``, maybe with answers).
        store: The settings store (``pi_ask.config.open_store``).
        notice: A notice to show from the start (drafts being off).
        on_commit: Called with the state after every committed change (the draft hook).
        abort: Once set (by any thread), the flow ends as aborted within a fraction of a
            second; the result is cancelled and the ask stays resumable.
        terminal: Where to read and write; by default ``/dev/tty`` (never stdout).
        source: Who asked: ``tool``, ``answer``, ``ask:replay``... (for the event bus).
        tool_call_id: The ask's id; bridges then address the flow as ``tool:<id>``.
        deadline_ms: When the ask times out (epoch ms); it then ends with reason ``timeout``.
        live_notice: Asked about once a second for a notice to say when it changes.

    Returns:
        The tool result, as the TUI would return it for the same answers.

    Raises:
        OSError: No controlling terminal could be opened (``terminal`` not given).
        FlowInterrupted: SIGTERM or SIGHUP ended the flow (main thread only); exit with
            ``128 + signal_number`` after printing its ``result``.
    """
    flow = _run_to_end(
        state,
        store=store,
        notice=notice,
        on_commit=on_commit,
        abort=abort,
        terminal=terminal,
        source=source,
        tool_call_id=tool_call_id,
        deadline_ms=deadline_ms,
        live_notice=live_notice,
    )
    return build_result(flow.state)


def _run_to_end(
    state: AskState,
    *,
    store: SettingsStore,
    notice: str | None,
    on_commit: OnCommit | None,
    abort: AbortSignal | None,
    terminal: LineTerminal | None,
    source: str = "tool",
    tool_call_id: str | None = None,
    deadline_ms: int | None = None,
    live_notice: Callable[[], str | None] | None = None,
) -> PlainFlow:
    from pi_ask.plain.terminal import signals_to

    line_terminal = open_line_terminal() if terminal is None else terminal
    try:
        flow = PlainFlow(
            state,
            store=store,
            terminal=line_terminal,
            notice=notice,
            on_commit=on_commit,
            abort=abort,
            source=source,
            tool_call_id=tool_call_id,
            deadline_ms=deadline_ms,
            live_notice=live_notice,
        )
        with signals_to(line_terminal.reader):
            result = flow.run()
    finally:
        if terminal is None:
            line_terminal.close()
    if flow.interrupted_by is not None:
        raise FlowInterrupted(result, flow.interrupted_by)
    return flow
