"""``PlainFlow``: the ask flow in line mode (``face.run`` is how a host opens it).

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

import re
import signal
import time
from typing import TYPE_CHECKING

from pi_ask.ask.services import AskServices, Countdown, NoticeLine, now_ms
from pi_ask.config.watcher import signature
from pi_ask.faces.plain import render
from pi_ask.faces.plain.answering import LineAnswers
from pi_ask.faces.plain.handoff import Handoff
from pi_ask.faces.plain.terminal import (
    Aborted,
    EndOfInput,
    LineTerminal,
    Signalled,
    TimedOut,
    Told,
    Woken,
)
from pi_ask.i18n import gettext
from pi_ask.markdown.switch import set_markdown_enabled
from pi_ask.state.commands import Abort, BehaviourChanged, Command, Dismiss
from pi_ask.state.dispatcher import apply
from pi_ask.state.model import AskState
from pi_ask.state.results import build_result
from pi_ask.state.selectors import current_question, footer_notice, is_draft_change, is_review_tab
from pi_ask.state.summary import transcript_lines
from pi_ask.terminal_text import sanitize_block, sanitize_line

if TYPE_CHECKING:
    from pi_ask.ask.face import FaceRequest
    from pi_ask.contract.results import ToolResult
    from pi_ask.events.submissions import RemoteResponse

BELL = "\a"
LIVE_NOTICE_S = 1.0
COUNTDOWN_MARKS = (20, 10, 5)
"""Seconds before the deadline at which the plain face says how long is left."""
ESCAPES = re.compile("[\x1b\x9b]")


class PlainFlow(LineAnswers):
    """One ask flow in line mode on a ``LineTerminal``; build it, then ``run()`` it once.

    Args:
        state: The starting state (``state.opening.new_state``, maybe with resumed answers).
        request: What the host asks for (``pi_ask.ask.face.FaceRequest``). Its store gives
            the live behaviour (re-read when the file changes); ``stop`` ends the flow as
            aborted; the deadline's time left is said at 20, 10 and 5 seconds, then the flow
            ends with reason ``timeout``; the live notice is asked about once a second and a
            new text is said as a notice (the inbox's "2 more waiting").
        terminal: Where lines are read and text written.
    """

    def __init__(self, state: AskState, request: FaceRequest, *, terminal: LineTerminal) -> None:
        store = request.store
        self._store = store
        self._request = request
        self._live_said: str | None = None
        self._prompted = False
        self._countdown = (
            Countdown(request.deadline_ms, COUNTDOWN_MARKS)
            if request.deadline_ms is not None
            else None
        )
        # Made by ``run``: submissions are applied on the thread that runs the flow.
        self._handoff: Handoff | None = None
        self._terminal = terminal
        self._notice = NoticeLine(store, request.notice)
        self._signature = signature(store.path)
        self._behaviour = store.snapshot().behaviour
        set_markdown_enabled(store.snapshot().ui.markdown)
        self.interrupted_by: int | None = None
        # The custom row was chosen without text: the next line is that text.
        self._awaiting_text = False
        self._shown: object = None
        self._said_notice: str | None = None
        # A terminal channel's escape sequence (OSC 9, 777, 99) becomes a plain bell here: the
        # plain face writes no escape sequence, and a bell is what every terminal can ring.
        self.services = AskServices(request, write_raw=self._ring, bell_only=True)
        self.state = self._apply(state, BehaviourChanged(config_notice=self._notice.text()))

    # --- running ------------------------------------------------------------------------------

    def run(self) -> ToolResult:
        """Ask until the flow completes; returns the result.

        A signal that ended the flow is left in ``interrupted_by`` (``face.run`` raises
        ``FlowInterrupted`` for it once the terminal is let go).
        """
        self._say(*render.title_lines(self.state))
        self._show()
        self._handoff = handoff = Handoff(self._terminal.reader.wake)
        result: ToolResult | None = None
        try:
            self.services.start(
                questions=lambda: self.state.questions,
                complete=self.complete,
                title=self.state.title,
            )
            self._ask()
            result = build_result(self.state)
        finally:
            # Submissions still waiting get no result: the flow is over.
            handoff.drain(lambda _response: None)
            self.services.stop(result)
        self._say("", *(sanitize_block(text) for _role, text in transcript_lines(result, gettext)))
        return result

    def _ask(self) -> None:
        if self._request.wakeups:
            self._tick()  # what the host says already; then only when it tells
        while not self.state.completed:
            self._show()
            if not self._prompted:
                self._terminal.write(self._prompt())
                self._prompted = True
            event = self._terminal.reader.read(
                self._request.stop, until=self._next_tick(), wakeups=self._request.wakeups
            )
            if not isinstance(event, TimedOut | Woken | Told):
                self._prompted = False  # a line was entered (or the flow ends): prompt anew
            if isinstance(event, TimedOut | Told):
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
        if self._countdown is not None:
            # A mark already passed and not said yet comes at once (an ask resumed late).
            times.append(time.time() + self._countdown.wake_in_s(now_ms()))
        if self._request.live_notice is not None and not self._request.wakeups:
            times.append(time.time() + LIVE_NOTICE_S)  # a host that cannot tell: look
        return min(times) if times else None

    def _tick(self) -> None:
        if self._request.live_notice is not None:
            notice = self._request.live_notice()
            if notice and notice != self._live_said:
                self._say("", gettext("Notice: ") + sanitize_line(notice))
            self._live_said = notice
        if self._countdown is not None:
            self._tick_deadline(self._countdown)

    def _tick_deadline(self, countdown: Countdown) -> None:
        now = now_ms()
        if countdown.passed(now):
            self._terminal.write("\n")
            self._send(Abort(reason="timeout"))
            return
        text = countdown.due(now)
        if text is not None:
            # On a line of its own: the user may be half-way through typing one.
            self._say("", gettext("Notice: ") + text)

    # --- the event bus (the services register the flow) ---------------------------------------

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

    def _ring(self, text: str) -> None:
        self._terminal.write(BELL if ESCAPES.search(text) else text)

    def _prompt(self) -> str:
        if is_review_tab(self.state):
            return gettext(render.REVIEW_PROMPT)
        return gettext(render.TEXT_PROMPT if self._awaiting_text else render.QUESTION_PROMPT)

    def _show(self) -> None:
        """Print the question or the review when it changed, and any new notice."""
        notice = footer_notice(self.state)
        if notice is not None and notice != self._said_notice:
            self._say(gettext("Notice: ") + sanitize_line(render.notice_text(notice)))
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
        if self._request.on_commit is not None and is_draft_change(before, after):
            self._request.on_commit(after)
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
        set_markdown_enabled(self._store.snapshot().ui.markdown)
        self._send(BehaviourChanged(config_notice=self._notice.text()))
