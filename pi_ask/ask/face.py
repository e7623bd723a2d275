"""A face's one entry, and what it is handed: ``run(state, request) -> AskState``.

Every interactive face named in ``pi_ask.face_table`` has a module
``pi_ask/faces/<name>/face.py`` with a function ``run(state, request)``. It shows the ask,
commits drafts through ``request.on_commit``, ends promptly once ``request.stop`` is set (the
ask ended elsewhere: the state it then returns is ignored), and returns the flow's final
state. The host builds the result from it and settles the ask (the session log's finish); a
face never does. A signal or a hang-up that ends the flow raises ``FlowInterrupted`` once
the terminal is restored.
"""

import importlib
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple, Protocol, cast

if TYPE_CHECKING:
    from pathlib import Path

    from pi_ask.config.store import SettingsStore
    from pi_ask.contract.attachments import FileLimits
    from pi_ask.face_table import FaceName
    from pi_ask.state.model import AskState


class FaceRequest(NamedTuple):
    """What a host hands a face besides the state: the one options object of every face.

    Attributes:
        store: The settings store: live behaviour, keymaps, notifications, the overlay.
        ask_id: The ask's id; bridges then address the flow as ``tool:<id>``.
        source: Who asked (``tool``, ``answer``, ``ask:replay``, ``ask:resume``, ``attach``),
            for the event bus.
        on_commit: Called with the state after every committed change (an answer, a note,
            a type change; the completion included), never for keystrokes inside an editor.
        on_first_frame: Called on a worker thread once the first frame is on the screen
            (the session log's fsync of the payload): by the TUI, whose first frame is
            worth not delaying; the host runs it itself before a face without one.
        notice: A notice to show from the start, beside the config's (drafts being off).
        deadline_ms: When the ask times out (epoch ms): the face counts down, then ends
            with ``reason: "timeout"``.
        stop: Once set (by any thread), the face ends its flow as aborted.
        live_notice: Asked for a notice to show ("2 more waiting"): whenever ``wakeups``
            say so, else now and then.
        wakeups: Descriptors that become readable when ``stop`` is set or ``live_notice``
            may say something new (``live_notice`` takes what made them readable): a face
            waits on them instead of looking every so often. Empty: the host has none.
        deferred: Given by the inbox: the face's defer key sets it and ends the flow (the
            ask goes back, still pending).
        attachments_folder: Where files attached to answers are copied (the ask's private
            folder, python-port.md §12); ``None``: this host cannot carry attachments, and
            the face's attach action says so.
        attachment_limits: The limits files attached here are held to, when they are not
            this process's ``[attachments]``: an answering terminal's are the asker's, as
            its pending ask's summary says (``AskSummary.files``), since the asker keeps
            only the files within them.
    """

    store: "SettingsStore"
    ask_id: str | None = None
    source: str = "tool"
    on_commit: "Callable[[AskState], None] | None" = None
    on_first_frame: Callable[[], None] | None = None
    notice: str | None = None
    deadline_ms: int | None = None
    stop: threading.Event | None = None
    live_notice: Callable[[], str | None] | None = None
    wakeups: tuple[int, ...] = ()
    deferred: threading.Event | None = None
    attachments_folder: "Path | None" = None
    attachment_limits: "FileLimits | None" = None

    def file_limits(self) -> "FileLimits":
        """The limits a file attached now is held to: ``attachment_limits``, else the
        settings' ``[attachments]`` as they are now (this process is the asker)."""
        if self.attachment_limits is not None:
            return self.attachment_limits
        return self.store.snapshot().attachments


class FlowInterrupted(Exception):
    """A signal (SIGTERM, SIGHUP, a SIGINT from outside) or a hang-up ended the flow.

    Raised once the terminal is restored. ``state`` is the flow's last state (aborted); the
    host prints its result if it can and exits with ``128 + signal_number``. The ask is not
    settled: it stays resumable.
    """

    def __init__(self, state: "AskState", signal_number: int) -> None:
        super().__init__(f"ask flow ended by signal {signal_number}")
        self.state = state
        self.signal_number = signal_number


if TYPE_CHECKING:

    class Face(Protocol):
        """A face module: ``pi_ask.faces.<name>.face``."""

        def run(self, state: AskState, request: FaceRequest) -> AskState: ...


def load_face(name: "FaceName") -> "Face":
    """The face ``name`` of the face table (imported now: a face costs nothing until used)."""
    from pi_ask.face_table import face_module

    return cast("Face", importlib.import_module(face_module(name)))
