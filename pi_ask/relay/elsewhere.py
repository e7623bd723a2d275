"""``ask_elsewhere``: one ask, answered from another terminal (python-port.md §11).

The ask becomes a pending ask (``PendingAsk``); a running inbox is poked, or inside tmux a
popup (or window) opens on it; with neither, the caller gets ``None`` at once and answers
``no_terminal`` itself, unless ``wait`` asks to wait for a ``pi-ask attach``. The first valid
answer wins; a deadline ends the ask with ``timeout``, the ``cancel`` event with ``aborted``.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pi_ask.relay.inboxes import inbox_sockets, poke_inboxes
from pi_ask.relay.paths import NoPrivateFolder, runtime_dir
from pi_ask.relay.tmux import TmuxMode, open_in_tmux, tmux_client_attached

if TYPE_CHECKING:
    from pi_ask.config.store import SettingsStore
    from pi_ask.contract.loading import LoadedPayload
    from pi_ask.contract.results import ToolResult
    from pi_ask.notifications.dispatcher import Dispatch
    from pi_ask.relay.pending import PendingAsk
    from pi_ask.state.model import Answer, AskState

HEARTBEAT_S = 5.0
_TICK_S = 0.1
WAITING_NOTICE = "Question waiting — run `pi-ask attach`"


@dataclass
class ElsewhereHooks:
    """What the caller can see and do while an ask waits elsewhere.

    Attributes:
        cancel: Set it to give up (a client cancel, a signal): the result is ``aborted``.
        on_draft: Called with the state of every draft an answering terminal commits.
        on_progress: Told ``published``, ``inbox``, ``popup``, ``window``, ``waiting``,
            ``attached``, ``detached`` and, every few seconds of waiting, ``heartbeat``.
        announce: Told the one human line saying how to answer, when ``wait`` waits.
    """

    cancel: threading.Event = field(default_factory=threading.Event)
    on_draft: Callable[[AskState], None] | None = None
    on_progress: Callable[[str], None] | None = None
    announce: Callable[[str], None] | None = None


def ask_elsewhere(
    loaded: LoadedPayload,
    ask_id: str,
    *,
    wait: bool = False,
    timeout_s: float | None = None,
    tmux: TmuxMode = "popup",
    hooks: ElsewhereHooks | None = None,
    initial_answers: tuple[tuple[str, Answer], ...] = (),
    store: SettingsStore | None = None,
) -> ToolResult | None:
    """Route one ask to a terminal elsewhere and wait for its result.

    Args:
        loaded: The valid payload.
        ask_id: The ask's id (``pi-ask attach ID``).
        wait: Wait for an attach even when no inbox or tmux client can take the ask.
        timeout_s: A hard deadline from now; when it passes the result is ``timeout``.
        tmux: ``[inbox] tmux``: open a ``popup`` or ``window`` inside tmux, or ``off``.
        hooks: Cancellation and progress (see ``ElsewhereHooks``).
        initial_answers: Answers to start from (a resumed draft).
        store: Settings for the "question waiting" notification when ``wait`` waits.

    Returns:
        The result, or ``None`` at once when nobody can be reached and ``wait`` is false
        (the caller then answers ``no_terminal``).
    """
    hooks = hooks or ElsewhereHooks()
    started = time.monotonic()
    deadline = started + timeout_s if timeout_s is not None else None
    try:
        folder = runtime_dir()
    except NoPrivateFolder:
        return None
    if not wait and not inbox_sockets(folder) and not (tmux != "off" and os.environ.get("TMUX")):
        # Nobody can be reached: answer at once, before loading anything to serve the ask.
        return None
    from pi_ask.relay.pending import PendingAsk
    from pi_ask.state.opening import new_state

    deadline_ms = (
        time.time_ns() // 1_000_000 + int(timeout_s * 1000) if timeout_s is not None else None
    )
    pending = PendingAsk(
        loaded,
        ask_id,
        folder=folder,
        state=new_state(loaded.payload, answers=initial_answers),
        on_draft=hooks.on_draft,
        deadline_ms=deadline_ms,
    )
    try:
        pending.publish()
    except OSError:
        return None
    try:
        route = _route(folder, ask_id, tmux, pending.cwd)
        if route is None and not wait:
            return None
        _progress(hooks, "published")
        _progress(hooks, route or "waiting")
        notification = None
        if route is None:
            if hooks.announce is not None:
                hooks.announce(
                    f"pi-ask: question waiting (ask {ask_id}); answer it from any terminal "
                    f"with: pi-ask attach {ask_id}"
                )
            notification = _notify(store)
        try:
            return _wait(pending, hooks, deadline)
        finally:
            if notification is not None:
                notification.close()
    finally:
        pending.close()


def _route(folder: Path, ask_id: str, tmux: TmuxMode, cwd: str) -> str | None:
    if poke_inboxes(folder):
        return "inbox"
    if tmux != "off" and tmux_client_attached() and open_in_tmux(ask_id, tmux, cwd):
        return tmux
    return None


def _wait(pending: PendingAsk, hooks: ElsewhereHooks, deadline: float | None) -> ToolResult:
    from pi_ask.relay import forms

    last_beat = time.monotonic()
    attached = 0
    while True:
        now = time.monotonic()
        tick = _TICK_S if deadline is None else max(0.0, min(_TICK_S, deadline - now))
        result = pending.wait(tick)
        if result is not None:
            return result
        if hooks.cancel.is_set():
            return pending.end(forms.ended(pending.state, "aborted"), "aborted")
        if deadline is not None and time.monotonic() >= deadline:
            return pending.end(forms.ended(pending.state, "timeout"), "timeout")
        now_attached = pending.attached
        if now_attached != attached:
            _progress(hooks, "attached" if now_attached > attached else "detached")
            attached = now_attached
        if time.monotonic() - last_beat >= HEARTBEAT_S:
            last_beat = time.monotonic()
            _progress(hooks, "heartbeat")


def _progress(hooks: ElsewhereHooks, what: str) -> None:
    if hooks.on_progress is not None:
        with contextlib.suppress(Exception):
            hooks.on_progress(what)


def _notify(store: SettingsStore | None) -> Dispatch | None:
    """The "question waiting" notification, through the configured channels (best effort)."""
    if store is None:
        return None
    from pi_ask.notifications.waiting import notify_waiting

    # No terminal of our own: bell/OSC channels have nowhere to write.
    return notify_waiting(
        store.snapshot().notifications, WAITING_NOTICE, write_terminal=lambda _text: None
    )


async def ask_elsewhere_async(
    loaded: LoadedPayload, ask_id: str, **options: object
) -> ToolResult | None:
    """``ask_elsewhere`` on a worker thread; cancelling the task aborts the ask."""
    import asyncio

    hooks = options.pop("hooks", None) or ElsewhereHooks()
    assert isinstance(hooks, ElsewhereHooks)
    task = asyncio.to_thread(ask_elsewhere, loaded, ask_id, hooks=hooks, **options)  # type: ignore[arg-type]
    try:
        return await task
    except asyncio.CancelledError:
        hooks.cancel.set()
        raise
