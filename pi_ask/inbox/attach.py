"""``pi-ask attach``: answer one pending ask in this terminal, then exit.

The ask opens with its current draft (what an earlier terminal committed); every committed
change goes back to the asker as a draft (files attached are copied into the ask's folder,
and the draft names them); Submit, Elaborate and Cancel send the answer. If
the ask ends elsewhere first (answered in another terminal, timed out, its asker gone) the
flow closes and says so. A terminal that goes away mid-answer sends nothing more: the ask
stays pending with its drafts.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from pi_ask.ask.face import FaceRequest, load_face
from pi_ask.ask.routing import terminal_problem
from pi_ask.i18n import N_, gettext
from pi_ask.relay import forms
from pi_ask.relay.client import AskGone, Session

if TYPE_CHECKING:
    from pi_ask.config.store import SettingsStore
    from pi_ask.face_table import TerminalFace
    from pi_ask.relay.asks import AskSummary
    from pi_ask.state.model import AskState

EXIT_ANSWERED = 0
EXIT_NOT_ANSWERED = 1


NO_TERMINAL_LINES = {
    "attach": N_("attach needs a terminal to draw on (/dev/tty: {why})"),
    "inbox": N_("the inbox needs a terminal to draw on (/dev/tty: {why})"),
}


def why_no_terminal(command: Literal["attach", "inbox"]) -> str | None:
    """Why ``command`` has no terminal to draw on, or ``None``: run in the background (an
    agent's tool, a service), it says so in one line, never a traceback."""
    why = terminal_problem()
    return None if why is None else gettext(NO_TERMINAL_LINES[command]).format(why=why)


def outcome_of(state: AskState) -> forms.Outcome | None:
    """What the user chose at the end of a flow; ``None`` when the flow was not finished
    by them (aborted: a signal, or the ask ended elsewhere)."""
    if not state.completed or state.cancel_reason in ("aborted", "timeout"):
        return None
    if state.cancelled:
        return "cancel"
    return "elaborate" if state.mode == "elaborate" else "submit"


def answer_one(
    info: AskSummary,
    *,
    store: SettingsStore,
    face: TerminalFace = "tui",
    notice: str | None = None,
    live_notice: Callable[[], str | None] | None = None,
    notice_wakeups: tuple[int, ...] | None = (),
    deferred: threading.Event | None = None,
) -> int:
    """Open ``info``'s ask in ``face`` and send the user's answer; the exit status.

    ``notice_wakeups``: what becomes readable when ``live_notice`` may say something new
    (``None``: nothing does, the face asks it now and then). ``deferred`` (the inbox's) is
    set when the user put the ask back: nothing is sent, the ask stays pending with its
    drafts.

    Raises:
        FlowInterrupted: A signal or hang-up ended the flow (nothing was sent).
    """
    missing = why_no_terminal("attach")
    if missing is not None:
        print(f"pi-ask: {missing}; the ask stays pending", file=sys.stderr)
        return EXIT_NOT_ANSWERED
    run_face = load_face(face).run
    session = Session(info)
    try:
        session.open()
    except AskGone as gone:
        print(f"pi-ask: {gone}", file=sys.stderr)
        return EXIT_NOT_ANSWERED
    try:
        assert session.state is not None
        request = FaceRequest(
            store,
            ask_id=info.ask_id,
            source="attach",
            on_commit=session.send_draft,
            stop=session.ended,
            notice=notice,
            deadline_ms=info.deadline_ms,
            live_notice=live_notice,
            wakeups=() if notice_wakeups is None else (*session.wakeups(), *notice_wakeups),
            deferred=deferred,
            # Into the ask's own folder: the asker takes files from there alone.
            attachments_folder=session.folder.attachments,
            # Held to the asker's limits, which it keeps the files by: a refusal said here.
            attachment_limits=info.files(),
        )
        final = run_face(session.state, request)
        if deferred is not None and deferred.is_set():
            return EXIT_NOT_ANSWERED
        outcome = outcome_of(final)
        if session.why is not None or outcome is None:
            why = session.why or gettext("the ask was not answered")
            print(f"pi-ask: {why}", file=sys.stderr)
            return EXIT_NOT_ANSWERED
        if not session.send_answer(final, outcome):
            why = session.why or gettext("answered elsewhere")
            print(f"pi-ask: {why}", file=sys.stderr)
            return EXIT_NOT_ANSWERED
        return EXIT_ANSWERED
    finally:
        session.close()
