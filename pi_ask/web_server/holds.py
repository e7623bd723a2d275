"""The asks the web server holds open for its pages, one ``relay.client.Session`` each.

Every page open on an ask shares the server's one state of it: a page's action is read by the
face (``faces.web.actions``), applied with ``state.apply``, a change of answers goes back as a
draft, and a finished flow claims the ask with its outcome, first answer wins. The asker
rebuilds and checks the result from its own payload, as for ``pi-ask attach``. An ask that
ended elsewhere (answered in a terminal, timed out, its asker gone) stays known here as ended,
with why, so a page still open on it can say so.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from pi_ask.contract.attachments import Attachment
from pi_ask.contract.kinds import JsonObject
from pi_ask.faces.web.actions import BadAction, commands_for, typing_commands
from pi_ask.faces.web.view import view_model
from pi_ask.i18n import N_, gettext
from pi_ask.relay import forms
from pi_ask.relay.asks import AskSummary
from pi_ask.relay.attached_files import AskFiles, name_problem
from pi_ask.relay.client import AskGone, Session, list_pending
from pi_ask.relay.pending import ANSWERED_ELSEWHERE
from pi_ask.state.attachments import all_attachments
from pi_ask.state.commands import AttachFile
from pi_ask.state.dispatcher import apply
from pi_ask.state.model import AskState, Behaviour
from pi_ask.state.selectors import is_draft_change

ANSWERED_HERE = N_("answered in pi-ask web")
CANCELLED_HERE = N_("cancelled in pi-ask web")
TIME_UP = N_("the time to answer this ask is up")
UNKNOWN = N_("no such pending ask")
_KEEP_ENDED = 256


class Ended(Exception):
    """The ask is no longer answerable; ``str()`` says why."""


class OverLimit(BadAction):
    """A file would take the ask past its asker's ``[attachments]`` limits (nothing
    changed)."""


class Reply(NamedTuple):
    """What a page gets back: the ask's view, or why it ended (``here`` when by this server)."""

    ask_id: str
    view: JsonObject | None
    ended: str | None = None
    here: bool = False

    def to_json(self, summary: AskSummary | None) -> JsonObject:
        out: JsonObject = {"id": self.ask_id, "now": _now_ms()}
        if summary is not None:
            out["ask"] = summary.to_json()
        if self.view is not None:
            out["view"] = self.view
        if self.ended is not None:
            # Said to the person at the page, in their language (a reason we did not word,
            # such as an asker's own, stays as it came).
            out["ended"] = {"why": gettext(self.ended), "here": self.here}
        return out


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def outcome_of(state: AskState) -> forms.Outcome | None:
    """What the user chose at the end of the flow (``None``: not finished by them)."""
    if not state.completed or state.cancel_reason in ("aborted", "timeout"):
        return None
    if state.cancelled:
        return "cancel"
    return "elaborate" if state.mode == "elaborate" else "submit"


class _Held:
    def __init__(self, session: Session, state: AskState) -> None:
        self.session = session
        self.state = state
        self.lock = threading.Lock()


class Holds:
    """The asks held for pages, by id."""

    def __init__(self, asks: Path, behaviour: Callable[[], Behaviour]) -> None:
        self._asks = asks
        self._behaviour = behaviour
        self._lock = threading.Lock()
        self._held: dict[str, _Held] = {}
        self._ended: dict[str, tuple[str, bool]] = {}

    def summary(self, ask_id: str) -> AskSummary | None:
        held = self._held.get(ask_id)
        if held is not None:
            return held.session.info
        return next((info for info in list_pending(self._asks) if info.ask_id == ask_id), None)

    def view(self, ask_id: str) -> Reply:
        """The ask's current view, opening it first."""
        return self._on_open(ask_id, lambda held: self._reply(ask_id, held))

    def act(self, ask_id: str, message: object) -> Reply:
        """Apply one page action.

        Raises:
            faces.web.actions.BadAction: The action is malformed or does not fit the state
                (nothing changed).
        """

        def run(held: _Held) -> Reply:
            before = held.state
            after = before
            for command in commands_for(before, message):
                after = apply(after, command, self._behaviour())
            held.state = after
            if after.completed:
                return self._finish(ask_id, held)
            if is_draft_change(before, after):
                held.session.send_draft(after)
            return self._reply(ask_id, held)

        return self._on_open(ask_id, run)

    def typing(self, ask_id: str, message: object) -> Reply:
        """Keep the open editor's text as the ask's draft (the page sends it on a debounce),
        so a closed page loses nothing; the flow's own state is unchanged.

        Raises:
            faces.web.actions.BadAction: The draft is malformed.
        """

        def run(held: _Held) -> Reply:
            drafted = held.state
            for command in typing_commands(held.state, message):
                drafted = apply(drafted, command, self._behaviour())
            if drafted.answers != held.state.answers:
                held.session.send_draft(drafted, typing=True)
            return Reply(ask_id, None)

        return self._on_open(ask_id, run)

    def files(self, ask_id: str) -> tuple[AskFiles, tuple[Attachment, ...]] | None:
        """The ask's files and its asker's limits, written in its summary (``AskFiles``:
        its ``room`` and ``problem``), and the files its answers carry now; ``None`` when it
        can no longer be answered."""
        try:
            held = self._hold(ask_id)
        except Ended:
            return None
        with held.lock:
            if self._why_ended(held) is not None:
                return None
            return held.session.info.files(), all_attachments(held.state)

    def attach(self, ask_id: str, question_id: str, name: str, data: bytes) -> Reply:
        """Copy a file sent from the page into the pending ask's attachments folder, as an
        answering terminal copies one (``ask.attachments.keep_copy``), and attach it to the
        question's answer (``AttachFile``), within the asker's limits
        (``relay.attached_files``).

        Raises:
            faces.web.actions.BadAction: The name or the question will not do (nothing
                changed); ``OverLimit`` when the ask's limits refuse the file.
        """
        from pi_ask.ask.attachments import AttachRefused, keep_copy, limit_text, not_attached

        problem = name_problem(name)
        if problem is not None:
            raise BadAction(f"the file name {name[:80]!r} cannot be used: {problem}")

        def run(held: _Held) -> Reply:
            if not any(question.id == question_id for question in held.state.questions):
                raise BadAction(f"the ask has no question {question_id[:40]!r}")
            over = held.session.info.files().problem(all_attachments(held.state), len(data))
            if over is not None:
                raise OverLimit(not_attached(name[:80], limit_text(over)))
            try:
                item = keep_copy(held.session.folder.attachments, name, data)
            except AttachRefused as refused:
                raise BadAction(str(refused)) from None
            held.state = apply(held.state, AttachFile(question_id, item), self._behaviour())
            held.session.send_draft(held.state)
            return self._reply(ask_id, held)

        return self._on_open(ask_id, run)

    def sweep(self, pending: set[str]) -> list[str]:
        """End the holds of asks no longer pending (seen in a new listing); their ids."""
        with self._lock:
            gone = [ask_id for ask_id in self._held if ask_id not in pending]
        for ask_id in gone:
            held = self._held.get(ask_id)
            if held is not None:
                with held.lock:
                    why = self._why_ended(held) or N_("the ask is no longer pending")
                    self._end(ask_id, held, why)
        return gone

    def close(self) -> None:
        with self._lock:
            held, self._held = list(self._held.values()), {}
        for one in held:
            one.session.close()

    # --- inside -------------------------------------------------------------------------

    def _on_open(self, ask_id: str, run: Callable[[_Held], Reply]) -> Reply:
        """``run`` on the ask, opened if need be, under its lock; why it ended instead, when
        it can no longer be answered (looked at first on every request)."""
        try:
            held = self._hold(ask_id)
        except Ended as gone:
            return self._ended_reply(ask_id, str(gone))
        with held.lock:
            why = self._why_ended(held)
            if why is not None:
                return self._end(ask_id, held, why)
            return run(held)

    def _hold(self, ask_id: str) -> _Held:
        with self._lock:
            held = self._held.get(ask_id)
            if held is not None:
                return held
            if ask_id in self._ended:
                raise Ended(self._ended[ask_id][0])
            info = next((i for i in list_pending(self._asks) if i.ask_id == ask_id), None)
            if info is None:
                raise Ended(UNKNOWN)
            session = Session(info)
            try:
                session.open()
            except AskGone as gone:
                raise Ended(str(gone)) from None
            assert session.state is not None
            held = self._held[ask_id] = _Held(session, session.state)
            return held

    def _why_ended(self, held: _Held) -> str | None:
        """Why the ask can no longer be answered here (``None``: it still can). Looked at
        on every request, so a page never waits for the watch to learn it."""
        session = held.session
        if session.ended.is_set():
            return session.why or ANSWERED_ELSEWHERE
        if session.folder.is_claimed():
            return ANSWERED_ELSEWHERE
        if not session.folder.exists():
            return N_("the ask is no longer pending")
        deadline = session.info.deadline_ms
        if deadline is not None and _now_ms() >= deadline:
            return TIME_UP
        return None

    def _finish(self, ask_id: str, held: _Held) -> Reply:
        outcome = outcome_of(held.state)
        if outcome is None:
            return self._end(ask_id, held, held.session.why or ANSWERED_ELSEWHERE)
        if not held.session.send_answer(held.state, outcome):
            return self._end(ask_id, held, held.session.why or ANSWERED_ELSEWHERE)
        why = CANCELLED_HERE if outcome == "cancel" else ANSWERED_HERE
        return self._end(ask_id, held, why, here=True)

    def _end(self, ask_id: str, held: _Held, why: str, *, here: bool = False) -> Reply:
        held.session.close()
        with self._lock:
            if self._held.get(ask_id) is held:
                del self._held[ask_id]
            if ask_id not in self._ended:
                self._ended[ask_id] = (why, here)
                while len(self._ended) > _KEEP_ENDED:
                    del self._ended[next(iter(self._ended))]
            why, here = self._ended[ask_id]
        return Reply(ask_id, None, why, here)

    def _ended_reply(self, ask_id: str, why: str) -> Reply:
        with self._lock:
            why, here = self._ended.get(ask_id, (why, False))
        return Reply(ask_id, None, why, here)

    def _reply(self, ask_id: str, held: _Held) -> Reply:
        return Reply(ask_id, view_model(held.state, self._behaviour()))
