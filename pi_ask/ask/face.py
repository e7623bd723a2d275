"""The faces an answering terminal (``attach``, ``inbox``) runs one ask in.

A face is called as ``face(state, request)`` and returns the flow's final state; it commits
drafts through ``request.on_commit`` and ends promptly once ``request.stop`` is set (the
ask ended elsewhere: the state it returns then is ignored). ``--ui tui`` is the full ask
flow; ``--ui plain`` the line-mode face.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol

from pi_ask.state import AskState

if TYPE_CHECKING:
    from pi_ask.config import SettingsStore

FaceName = Literal["tui", "plain"]
FACE_NAMES: tuple[FaceName, ...] = ("tui", "plain")


@dataclass
class FaceRequest:
    """What the answering terminal hands a face besides the state."""

    store: SettingsStore
    ask_id: str
    on_commit: Callable[[AskState], None]
    stop: threading.Event = field(default_factory=threading.Event)
    notice: str | None = None
    # Epoch milliseconds at which the ask times out, for a countdown.
    deadline_ms: int | None = None
    # Asked every tenth of a second for the notice to show now ("2 more waiting").
    live_notice: Callable[[], str | None] | None = None
    # Given by the inbox: the user put the ask back (the TUI's Ctrl+D); it stays pending.
    deferred: threading.Event | None = None


class Face(Protocol):
    def __call__(self, state: AskState, request: FaceRequest) -> AskState: ...


def face_named(name: FaceName) -> Face:
    """The face for ``--ui name``."""
    return plain_face if name == "plain" else tui_face


def tui_face(state: AskState, request: FaceRequest) -> AskState:
    """The full ask flow on the controlling terminal.

    Raises:
        FlowInterrupted: A signal or a hang-up ended it (the ask stays pending).
        OSError: No terminal could be opened.
    """
    from pi_ask.state import Abort
    from pi_ask.tui.flow import AskFlow

    flow = AskFlow(
        state,
        store=request.store,
        source="attach",
        tool_call_id=request.ask_id,
        notice=request.notice,
        on_commit=request.on_commit,
        deadline_ms=request.deadline_ms,
    )
    finished = threading.Event()

    def close_when_stopped() -> None:
        while not finished.is_set():
            if request.stop.wait(0.1):
                # The flow may not be running yet: keep trying until it has ended.
                flow.complete(Abort())
            elif request.live_notice is not None:
                flow.set_notice(request.live_notice())

    deferred = request.deferred
    if deferred is not None:

        def defer() -> None:
            deferred.set()
            flow.complete(Abort())

        flow.on_defer = defer
    threading.Thread(target=close_when_stopped, name="pi-ask face stop", daemon=True).start()
    try:
        flow.run()
    finally:
        finished.set()
    return flow.state


def plain_face(state: AskState, request: FaceRequest) -> AskState:
    """The line-mode face on the controlling terminal (``pi_ask.plain``).

    Its ``on_commit`` sees every committed change, the completion included, so the last
    state it saw is the final one. It says the time left before the deadline; the asker
    ends it through the stop event.

    Raises:
        FlowInterrupted: A signal ended it (the ask stays pending).
        OSError: No terminal could be opened.
    """
    from pi_ask.plain import run_plain_flow

    final = [state]

    def commit(changed: AskState) -> None:
        final[0] = changed
        request.on_commit(changed)

    run_plain_flow(
        state,
        store=request.store,
        notice=request.notice,
        on_commit=commit,
        abort=request.stop,
        source="attach",
        tool_call_id=request.ask_id,
        deadline_ms=request.deadline_ms,
        live_notice=request.live_notice,
    )
    return final[0]
