"""Asks answered from another terminal (python-port.md §11, §12).

``ask_elsewhere``: the ask becomes a pending ask (``PendingAsk``) and its asker waits for it;
a running inbox is poked, or inside tmux a popup (or window) opens on it; with neither, the
caller gets ``None`` at once and answers ``no_terminal`` itself, unless ``wait`` asks to wait
for a ``pi-ask attach``. The first valid answer wins; a deadline ends the ask with
``timeout``, the ``cancel`` event with ``aborted``.

``start_detached`` publishes an ask nobody waits for (``pi-ask ask --detach``,
``ask_user_start``): it stays pending after its asker has gone, and ``fetch_result`` hands
out its result once someone answered it, or ``None`` while it is pending.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pi_ask.face_table import TmuxMode
from pi_ask.i18n import N_
from pi_ask.relay.inboxes import inbox_sockets, poke_inboxes
from pi_ask.relay.paths import NoPrivateFolder, asks_dir, runtime_dir
from pi_ask.relay.tmux import open_in_tmux, tmux_client_attached, tmux_reachable
from pi_ask.relay.watch import WakeEvent

if TYPE_CHECKING:
    from pi_ask.config.store import SettingsStore
    from pi_ask.contract.attachments import FileLimits
    from pi_ask.contract.loading import LoadedPayload
    from pi_ask.contract.results import ToolResult
    from pi_ask.notifications.dispatcher import Dispatch
    from pi_ask.relay.asks import AskFolder, AskSummary
    from pi_ask.relay.pending import PendingAsk
    from pi_ask.state.model import Answer, AskState

WAITING_NOTICE = N_("Question waiting — run `pi-ask attach`")


class ElsewhereHooks:
    """What the caller can see and do while an ask waits elsewhere.

    (A plain class: a dataclass would load ``dataclasses`` on the ``no_terminal`` path.)

    Attributes:
        cancel: Set it to give up (a client cancel, a signal): the result is ``aborted``.
            Setting it wakes the wait at once.
        on_draft: Called with the state of every draft an answering terminal commits.
        on_published: Called (on the thread that waits) once the ask is published for the
            terminals that will answer it, never when nobody can take it.
        announce: Told the one human line saying how to answer, when ``wait`` waits.
        rest: Given the published ask (not yet answering its terminals) when nobody could be
            reached and it waits for an attach, maybe for hours: the command line replaces
            its image there with a small waiting process (``cli/waiting.py``), which sends
            the "question waiting" notification, and never returns; when it does return (it
            could not), the wait goes on here. An ask an inbox or a tmux popup took is shown
            at once: it waits here, leaving the CPU to the terminal that draws it.
    """

    def __init__(
        self,
        cancel: WakeEvent | None = None,
        on_draft: Callable[[AskState], None] | None = None,
        on_published: Callable[[], None] | None = None,
        announce: Callable[[str], None] | None = None,
        rest: Callable[[PendingAsk], None] | None = None,
    ) -> None:
        self.cancel = WakeEvent() if cancel is None else cancel
        self.on_draft = on_draft
        self.on_published = on_published
        self.announce = announce
        self.rest = rest


class UnknownAsk(LookupError):
    """No pending or answered ask has this id (or it was removed after its keeping)."""


class Unreached(LookupError):
    """Nobody could take the ask now (no inbox, no tmux client), and it was not to wait."""


def ask_elsewhere(
    loaded: LoadedPayload,
    ask_id: str,
    *,
    wait: bool = False,
    timeout_s: float | None = None,
    tmux: TmuxMode = "popup",
    hooks: ElsewhereHooks | None = None,
    initial_answers: tuple[tuple[str, Answer], ...] = (),
    store: SettingsStore | Callable[[], SettingsStore] | None = None,
    limits: FileLimits | None = None,
    keep_files_in: Path | None = None,
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
        store: Settings for the "question waiting" notification when ``wait`` waits, or
            what opens them (only then).
        limits: ``[attachments]``: the files the answers may carry.
        keep_files_in: Where files attached to the answer are kept once the ask is over
            (its pending folder goes then).

    Returns:
        The result, or ``None`` at once when nobody can be reached and ``wait`` is false
        (the caller then answers ``no_terminal``).
    """
    hooks = hooks or ElsewhereHooks()
    deadline = time.monotonic() + timeout_s if timeout_s is not None else None
    try:
        runtime = runtime_dir()
        asks = asks_dir()
    except NoPrivateFolder:
        return None
    if not wait and _nobody_reachable(runtime, tmux):
        # Nobody can be reached: answer at once, before loading anything to serve the ask.
        return None
    pending = _pending(
        loaded,
        ask_id,
        asks,
        runtime,
        timeout_s=timeout_s,
        answers=initial_answers,
        hooks=hooks,
        limits=limits,
        keep_files_in=keep_files_in,
    )
    try:
        pending.publish(serve=False)  # terminals wait in the backlog until it is decided where
    except OSError:
        return None
    try:
        route = _route(runtime, ask_id, tmux, pending.cwd)
        if route is None and not wait:
            return None
        if hooks.on_published is not None:
            with contextlib.suppress(Exception):  # the caller's hook cannot end the ask
                hooks.on_published()
        notification = None
        if route is None:
            if hooks.announce is not None:
                hooks.announce(
                    f"pi-ask: question waiting (ask {ask_id}); answer it from any terminal "
                    f"with: pi-ask attach {ask_id}"
                )
            if hooks.rest is not None:
                hooks.rest(pending)  # returns only when it could not
        pending.serve()
        if route is None:
            notification = notify_waiting_asker(store, hooks.announce, ask_id, runtime)
        try:
            return wait_for_answer(pending, hooks, deadline)
        finally:
            if notification is not None:
                notification.close()
    finally:
        pending.close()


def _nobody_reachable(runtime: Path, tmux: TmuxMode) -> bool:
    """No inbox listens and no tmux server may open a popup: an ask would reach nobody."""
    return not inbox_sockets(runtime) and not (tmux != "off" and tmux_reachable())


def _pending(
    loaded: LoadedPayload,
    ask_id: str,
    asks: Path,
    runtime: Path | None,
    *,
    timeout_s: float | None,
    answers: tuple[tuple[str, Answer], ...],
    hooks: ElsewhereHooks,
    log: Path | None = None,
    limits: FileLimits | None = None,
    keep_files_in: Path | None = None,
) -> PendingAsk:
    from pi_ask.relay.pending import PendingAsk

    deadline_ms = time.time_ns() // 1_000_000 + int(timeout_s * 1000) if timeout_s else None
    state = None  # the payload's own, made when first needed: not before it is published
    if answers:
        from pi_ask.state.opening import new_state

        state = new_state(loaded.payload, answers=answers)
    return PendingAsk(
        loaded,
        ask_id,
        asks=asks,
        runtime=runtime,
        state=state,
        on_draft=hooks.on_draft,
        deadline_ms=deadline_ms,
        wake=hooks.cancel.waker,
        log=log,
        limits=limits,
        keep_files_in=keep_files_in,
    )


def why_unreached(tmux: TmuxMode) -> str:
    """Why the terminal route just reached nobody, in a few words (for stderr and a model).

    Asked after the fact, from the same checks the route makes; a race (an inbox that
    started meanwhile) only makes the words less exact, never the result.
    """
    try:
        runtime = runtime_dir()
    except NoPrivateFolder as err:
        return f"there is no private folder for pending asks: {err}"
    if inbox_sockets(runtime):
        return "a pi-ask inbox is running but did not take the ask"
    if tmux == "off":
        return "no pi-ask inbox or web face is running, and [inbox] tmux is off"
    if not tmux_reachable():
        return "no pi-ask inbox or web face is running, and no tmux server was found"
    if not tmux_client_attached():
        return "no pi-ask inbox or web face is running, and no tmux client is attached"
    return "no pi-ask inbox or web face is running, and tmux could not open the ask"


def _route(runtime: Path, ask_id: str, tmux: TmuxMode, cwd: str) -> str | None:
    if poke_inboxes(runtime):
        return "inbox"
    if tmux != "off" and tmux_client_attached() and open_in_tmux(ask_id, tmux, cwd):
        return tmux
    return None


def wait_for_answer(
    pending: PendingAsk, hooks: ElsewhereHooks, deadline: float | None
) -> ToolResult:
    """Block until an answer, the deadline (``time.monotonic``) or a cancel (nothing wakes
    in between); the ask stays published (``pending.close`` withdraws it)."""
    while True:
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        result = pending.wait(left)
        if result is not None:
            return result
        if hooks.cancel.is_set():
            return _ended(pending, "aborted")
        if deadline is not None and time.monotonic() >= deadline:
            return _ended(pending, "timeout")


def _ended(pending: PendingAsk, outcome: Literal["timeout", "aborted"]) -> ToolResult:
    from pi_ask.relay import forms  # the engine: only once the wait is over

    return pending.end(forms.ended(pending.state, outcome), outcome)


def notify_waiting_asker(
    store: SettingsStore | Callable[[], SettingsStore] | None,
    say: Callable[[str], None] | None,
    ask_id: str,
    runtime: Path,
) -> Dispatch | None:
    """The "question waiting" notification of an asker that reached nobody, through the
    configured channels (best effort), with the ask's page at ``[web] public_url`` when set
    (``relay.web_link``). None while a ``pi-ask web`` runs: it rings for the ask itself.
    ``store``: the settings, or what opens them (only when nothing else rings).

    One that cannot start (out of descriptors, its modules unreadable) is said in one line
    through ``say``; the ask goes on waiting either way.
    """
    if store is None:
        return None
    try:
        from pi_ask.i18n import gettext
        from pi_ask.notifications.waiting import notify_waiting
        from pi_ask.relay.web_link import ask_page, running_base

        if running_base(runtime) is not None:
            return None  # a running pi-ask web rings for every ask that arrives, with its page
        settings = (store() if callable(store) else store).snapshot()
        # No pi-ask web runs (just read): only [web] public_url can give the ask a page.
        link = ask_page(ask_id, settings.web.public_url, None) or ""
        # No terminal of our own: bell/OSC channels have nowhere to write.
        return notify_waiting(
            settings.notifications,
            gettext(WAITING_NOTICE),
            write_terminal=lambda _text: None,
            link=link,
        )
    except OSError as err:
        if say is not None:
            say(f"pi-ask: the question-waiting notification could not start ({err})")
        return None


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


# --- detached asks --------------------------------------------------------------------------


def start_detached(
    loaded: LoadedPayload,
    ask_id: str,
    *,
    timeout_s: float | None = None,
    tmux: TmuxMode = "popup",
    log: Path | None = None,
    limits: FileLimits | None = None,
    wait: bool = True,
) -> str | None:
    """Publish an ask that nobody waits for, and tell an inbox or open a tmux popup on it.

    ``log`` is the session log the ask was recorded in, settled when its result is fetched;
    ``limits`` the ``[attachments]`` its answers may carry (files stay in its folder, kept
    as long as the ask is). ``wait`` false keeps the ask only when an inbox or a tmux popup
    took it at once (as ``ask_elsewhere`` without ``wait``): else nothing is left behind.

    Returns:
        Where it went (``inbox``, ``popup``, ``window``), or ``None`` when it only waits for
        an attach (or the web face).

    Raises:
        NoPrivateFolder: There is no private folder for pending asks.
        OSError: The ask's folder cannot be written.
        Unreached: ``wait`` is false and nobody could take the ask.
    """
    asks = asks_dir()
    runtime: Path | None = None
    if wait:
        # Without a folder for sockets nobody is told, but the ask waits for an attach all
        # the same (or the web face).
        with contextlib.suppress(NoPrivateFolder):
            runtime = runtime_dir()
    else:
        runtime = runtime_dir()
        if _nobody_reachable(runtime, tmux):
            raise Unreached(ask_id)
    hooks = ElsewhereHooks()
    pending = _pending(
        loaded,
        ask_id,
        asks,
        None,
        timeout_s=timeout_s,
        answers=(),
        hooks=hooks,
        log=log,
        limits=limits,
    )
    pending.publish()
    pending.release()
    hooks.cancel.waker.close()
    if runtime is None:
        return None
    route = _route(runtime, ask_id, tmux, pending.cwd)
    if route is None and not wait:
        pending.close()  # removes its folder: nobody will ever see it
        raise Unreached(ask_id)
    return route


def abort_detached(ask_id: str) -> None:
    """End a detached ask that nobody answered yet with ``aborted`` (a host gave up on it);
    an answer that won first stands.

    Raises:
        UnknownAsk: No ask has this id.
    """
    from pi_ask.contract.loading import InvalidPayload, load_payload
    from pi_ask.relay import forms
    from pi_ask.state.opening import new_state

    folder = _ask_folder(ask_id)
    loaded = load_payload(folder.params())
    if folder.summary() is None or isinstance(loaded, InvalidPayload):
        raise UnknownAsk(ask_id)
    aborted = forms.ended(new_state(loaded.payload), "aborted")
    folder.take({"outcome": "aborted"}, aborted.to_json())


def _ask_folder(ask_id: str) -> AskFolder:
    """The folder of ask ``ask_id`` (it may be gone).

    Raises:
        UnknownAsk: The id is no ask id, or there is no private folder for asks.
    """
    from pi_ask.relay.asks import AskFolder, is_ask_id

    if not is_ask_id(ask_id):
        raise UnknownAsk(ask_id)
    try:
        return AskFolder(asks_dir() / ask_id)
    except NoPrivateFolder as err:
        raise UnknownAsk(ask_id) from err


class Fetched:
    """A detached ask's result as ``fetch_result`` hands it out.

    (A plain class: this module's annotations are strings, and a NamedTuple would compile
    each into a ``ForwardRef`` when it is imported, which every asker does.)

    Attributes:
        result: The result.
        first: True the first time it is handed out: the host settles the ask's log then.
        log: The session log the ask was recorded in.
    """

    __slots__ = ("first", "log", "result")

    def __init__(self, result: ToolResult, first: bool, log: Path | None) -> None:
        self.result = result
        self.first = first
        self.log = log


def fetch_result(ask_id: str, *, wait_s: float = 0.0) -> Fetched | None:
    """A detached ask's result once it is answered (or timed out); ``None`` while pending.

    Waits at most ``wait_s`` seconds for it, woken by the answer itself. The result is
    rebuilt from the ask's own payload and the claimed answer; the first fetch starts its
    keeping (a day). A deadline that has passed ends the ask here with ``timeout``.

    Raises:
        UnknownAsk: No ask has this id.
    """
    from pi_ask.relay.asks import now_ms
    from pi_ask.relay.watch import FolderWatch

    folder = _ask_folder(ask_id)
    summary = folder.summary()
    if summary is None:
        raise UnknownAsk(ask_id)
    end = time.monotonic() + max(0.0, wait_s)
    watch = FolderWatch(folder.path)
    try:
        while True:
            result = _answered(folder, summary, now_ms())
            if result is not None:
                return Fetched(result, folder.mark_fetched(), summary.log)
            left = end - time.monotonic()
            if summary.deadline_ms is not None:
                left = min(left, (summary.deadline_ms - now_ms()) / 1000 + 0.01)
            if left <= 0 and time.monotonic() >= end:
                return None
            watch.wait(max(0.0, left))
            if not folder.exists():
                raise UnknownAsk(ask_id)
    finally:
        watch.close()


def _answered(folder: AskFolder, summary: AskSummary, now: int) -> ToolResult | None:
    """The ask's result once it has one: the stored result, or (when that is missing, or
    lists files, which are checked again here) the one the claim makes; ``timeout`` once its
    deadline passed unanswered (the reader claims it so: nobody can answer it after that)."""
    from pi_ask.contract.loading import InvalidPayload, load_payload
    from pi_ask.contract.results import ToolResult
    from pi_ask.state.results import non_interactive_result

    deadline_ms = summary.deadline_ms
    stored = folder.result()
    if stored is not None:
        with contextlib.suppress(ValueError):
            result = ToolResult.from_json(stored)
            if not any(record.attachments for record in result.details.answers.values()):
                return result
    loaded = load_payload(folder.params())
    if isinstance(loaded, InvalidPayload):
        return None
    claim = folder.claim()
    if claim is None and deadline_ms is not None and now >= deadline_ms:
        timed_out = non_interactive_result(loaded.payload, "timeout")
        if folder.take({"outcome": "timeout"}, timed_out.to_json()):
            return timed_out
        claim = folder.claim()
    if claim is None:
        return None
    return _claimed_result(folder, loaded, claim, summary)


def _claimed_result(
    folder: AskFolder, loaded: LoadedPayload, claim: dict[str, object], summary: AskSummary
) -> ToolResult | None:
    """The result of ``claim`` built from the ask's own payload (stored for the next
    reader), or ``None`` when the claim is no answer the flow could give (it is dropped)."""
    from pi_ask.relay import forms
    from pi_ask.state.opening import new_state

    outcome = claim.get("outcome")
    if outcome in ("timeout", "aborted"):
        return forms.ended(new_state(loaded.payload), outcome)
    try:
        if outcome not in forms.OUTCOMES:
            raise forms.FormError(f"unknown outcome {str(outcome)[:20]!r}")
        state = forms.state_from_form(loaded, claim, summary.files())
        result = forms.finish(state, outcome)
    except forms.FormError:
        folder.drop_claim()  # no answer the flow could give: the ask stays answerable
        return None
    folder.store_result(result.to_json())
    return result


def sweep(asks: Path) -> None:
    """Remove what is no longer pending: folders of askers that died (a refused socket),
    detached asks past their keeping; end detached asks past their deadline (``timeout``),
    so no listing offers them."""
    from pi_ask.relay.asks import ask_folders, now_ms
    from pi_ask.relay.paths import is_own_socket
    from pi_ask.relay.pending import still_waiting

    now = now_ms()
    for folder in ask_folders(asks):
        summary = folder.summary()
        if summary is None:
            continue
        if summary.detached:
            if folder.expired(now):
                folder.remove()
            elif (
                summary.deadline_ms is not None
                and now >= summary.deadline_ms
                and not folder.is_claimed()
            ):
                _answered(folder, summary, now)
        elif summary.socket is not None and not still_waiting(summary.socket):
            folder.remove()
            with contextlib.suppress(OSError):
                if is_own_socket(summary.socket):
                    os.unlink(summary.socket)
