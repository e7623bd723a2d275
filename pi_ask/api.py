"""``ask_user``: validate a payload, record it, pick the face, return the result.

``run_flow`` is the host every command-line ask goes through: load, record, pick a face
(``ask.routing``), run it (``ask.face``), settle. The face is imported only when it is
picked, so a face that is not used costs nothing at start.
"""

from __future__ import annotations

import functools
import gc
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal, overload

from pi_ask.contract.loading import InvalidPayload, LoadedPayload, load_payload
from pi_ask.errors import PiAskError

if TYPE_CHECKING:
    import socket

    from pi_ask.config.remembered import AskerSettings
    from pi_ask.config.store import SettingsStore
    from pi_ask.contract.attachments import FileLimits
    from pi_ask.contract.payload_types import AskUserInput
    from pi_ask.contract.results import ToolResult
    from pi_ask.face_table import FaceName, TmuxMode, UiMode
    from pi_ask.relay.pending import PendingAsk
    from pi_ask.session.recorder import AskRecorder
    from pi_ask.state.model import Answer

    RestHook = Callable[[PendingAsk, Path | None], None]
    """``run_flow``'s ``rest``: the published ask and its session log."""

EXIT_OK = 0
EXIT_CANCELLED = 1
EXIT_INVALID = 2
EXIT_PENDING = 75
"""``pi-ask result``: the ask is still pending (sysexits' EX_TEMPFAIL: try again later)."""


class InvalidAsk(PiAskError):
    """``ask_user(..., detach=True)`` with a payload that is not valid.

    ``result`` is the ``invalid_input`` result an attached ask would have returned.
    """

    def __init__(self, result: ToolResult) -> None:
        super().__init__(result.text)
        self.result = result


def exit_code(result: ToolResult) -> int:
    """The command's exit status for a result (python-port.md §2)."""
    if result.details.error_issues is not None:
        return EXIT_INVALID
    return EXIT_CANCELLED if result.details.cancelled else EXIT_OK


@overload
def ask_user(
    payload: AskUserInput | str | bytes | Mapping[str, object],
    *,
    ui: UiMode = "auto",
    config: Path | None = None,
    title: str | None = None,
    wait: bool = False,
    timeout: float | None = None,
    detach: Literal[False] = False,
) -> ToolResult: ...


@overload
def ask_user(
    payload: AskUserInput | str | bytes | Mapping[str, object],
    *,
    ui: UiMode = "auto",
    config: Path | None = None,
    title: str | None = None,
    wait: bool = False,
    timeout: float | None = None,
    detach: Literal[True],
) -> str: ...


def ask_user(
    payload: AskUserInput | str | bytes | Mapping[str, object],
    *,
    ui: UiMode = "auto",
    config: Path | None = None,
    title: str | None = None,
    wait: bool = False,
    timeout: float | None = None,
    detach: bool = False,
) -> ToolResult | str:
    """Ask the user the payload's questions and return the ``ask_user`` tool result.

    Args:
        payload: the tool input, as JSON text or an already decoded object.
        ui: ``"tui"`` draws on the controlling terminal, ``"plain"`` asks line by line
            there (no colour, no cursor movement: screen readers, dumb terminals),
            ``"none"`` returns the non-interactive "Needs user input" result
            (``reason: "no_terminal"``), ``"auto"`` picks the TUI (the plain face when
            ``TERM=dumb``) when this process is in the foreground of its terminal, else a
            running ``pi-ask inbox``, else a tmux popup, else ``no_terminal`` at once.
            ``"rpc"`` is only available from the command line.
        config: settings file to use instead of the default one.
        title: replaces the payload's title.
        wait: with ``ui="auto"`` and nobody to ask, wait for a ``pi-ask attach``.
        timeout: a hard deadline in seconds; when it passes the result is ``timeout``.
        detach: do not wait: keep the ask pending for an inbox, ``pi-ask attach`` or a tmux
            popup, and return its id at once; ``ask_result(id)`` fetches the result.

    Returns:
        The result: ``result.text`` for the agent, ``result.details`` structured; with
        ``detach=True``, the ask's id.

    Raises:
        InvalidAsk: ``detach=True`` with a payload that is not valid.
        PiAskError: ``detach=True`` with no private folder to keep the ask in.

    Example:
        >>> result = ask_user({"questions": [...]}, ui="none")
        >>> result.details.cancelled
        True
    """
    if detach:
        started, _status = detach_with_status(payload, config=config, title=title, timeout=timeout)
        if not isinstance(started, str):
            raise InvalidAsk(started)
        return started
    return ask_with_status(payload, ui=ui, config=config, title=title, wait=wait, timeout=timeout)[
        0
    ]


def ask_result(ask_id: str, *, wait_s: float = 0.0) -> ToolResult | None:
    """The result of a detached ask (``ask_user(..., detach=True)``), or ``None`` while the
    user has not answered it yet.

    Args:
        ask_id: What ``ask_user(..., detach=True)`` returned.
        wait_s: Wait at most this long for the answer (woken by it, never polling).

    Raises:
        PiAskError: No ask has this id (or its result was kept past its day).

    Example:
        >>> ask_id = ask_user(payload, detach=True)  # doctest: +SKIP
        >>> result = ask_result(ask_id, wait_s=25)  # doctest: +SKIP
    """
    from pi_ask.relay.elsewhere import UnknownAsk, fetch_result

    try:
        fetched = fetch_result(ask_id, wait_s=wait_s)
    except UnknownAsk:
        raise PiAskError(f"no ask {ask_id!r} (see pi-ask attach --list)") from None
    if fetched is None:
        return None
    if fetched.first and fetched.log is not None:
        from pi_ask.session.recorder import AskRecorder

        recorder = AskRecorder.open(fetched.log)
        recorder.start(None, "tool", ask_id=ask_id)
        recorder.settle(fetched.result)
    return fetched.result


@overload
async def ask_user_async(
    payload: AskUserInput | str | bytes | Mapping[str, object],
    *,
    ui: UiMode = "auto",
    config: Path | None = None,
    title: str | None = None,
    wait: bool = False,
    timeout: float | None = None,
    detach: Literal[False] = False,
) -> ToolResult: ...


@overload
async def ask_user_async(
    payload: AskUserInput | str | bytes | Mapping[str, object],
    *,
    ui: UiMode = "auto",
    config: Path | None = None,
    title: str | None = None,
    wait: bool = False,
    timeout: float | None = None,
    detach: Literal[True],
) -> str: ...


async def ask_user_async(
    payload: AskUserInput | str | bytes | Mapping[str, object],
    *,
    ui: UiMode = "auto",
    config: Path | None = None,
    title: str | None = None,
    wait: bool = False,
    timeout: float | None = None,
    detach: bool = False,
) -> ToolResult | str:
    """``ask_user`` for asyncio agent loops: the caller's loop keeps running while the user answers.

    The flow runs on a worker thread with an event loop of its own (prompt_toolkit's), so the
    caller's other tasks — streaming, tool calls, heartbeats — are not held up. Arguments and
    result are those of ``ask_user``. Cancelling the awaiting task stops the wait, not the form:
    the user can still finish it, and the ask stays in the session log for ``pi-ask resume``.

    Example:
        >>> result = await ask_user_async(payload)  # doctest: +SKIP
    """
    import asyncio

    def ask() -> ToolResult | str:
        if detach:
            return ask_user(payload, config=config, title=title, timeout=timeout, detach=True)
        return ask_user(payload, ui=ui, config=config, title=title, wait=wait, timeout=timeout)

    return await asyncio.to_thread(ask)


def ask_with_status(
    payload: AskUserInput | str | bytes | Mapping[str, object],
    *,
    ui: UiMode = "auto",
    config: Path | None = None,
    session: Path | None = None,
    title: str | None = None,
    wait: bool = False,
    timeout: float | None = None,
    unknown: UnknownFields = "warn",
    rest: RestHook | None = None,
) -> tuple[ToolResult, int]:
    """``ask_user`` for the command line: the result and the exit status it calls for.

    ``session`` is the ``--session`` log to record into, ``rest`` the waiting process to
    become (see ``run_flow``); ``unknown``: how the payload's unknown fields are listed.
    """
    settings, store = _settings_for(ui, None, config)
    loaded = load_payload(payload, present_single_as_multi=settings.present_single_as_multi)
    _report_unknown(loaded, unknown)
    return _run_flow(
        loaded,
        ui=ui,
        settings=settings,
        store=store,
        config=config,
        session=session,
        title=title,
        wait=wait,
        timeout=timeout,
        rest=rest,
    )


def detach_with_status(
    payload: AskUserInput | str | bytes | Mapping[str, object],
    *,
    config: Path | None = None,
    session: Path | None = None,
    title: str | None = None,
    timeout: float | None = None,
    unknown: UnknownFields = "warn",
) -> tuple[ToolResult | str, int]:
    """``ask --detach``: record and publish the ask, nobody waiting; its id and exit status
    (0), or the ``invalid_input`` result and 2.

    Raises:
        PiAskError: There is no private folder to keep the ask in.
    """
    from pi_ask.config.remembered import asker_settings
    from pi_ask.relay.elsewhere import start_detached
    from pi_ask.relay.paths import NoPrivateFolder
    from pi_ask.session.recorder import AskRecorder

    settings = asker_settings(config)
    loaded = load_payload(payload, present_single_as_multi=settings.present_single_as_multi)
    _report_unknown(loaded, unknown)
    if isinstance(loaded, InvalidPayload):
        from pi_ask.contract.rejection import invalid_result

        result = invalid_result(loaded)
        return result, exit_code(result)
    loaded = _titled(loaded, title)
    recorder = AskRecorder.open(session)
    ask_id = recorder.start(loaded.params, "tool")
    recorder.sync()
    timeout = settings.answer_timeout_s if timeout is None else timeout
    try:
        start_detached(
            loaded,
            ask_id,
            timeout_s=timeout,
            tmux=settings.tmux,
            log=recorder.path,
            limits=settings,  # its max_files and max_bytes: [attachments]
        )
    except OSError as err:  # NoPrivateFolder among them
        kind = "no private folder" if isinstance(err, NoPrivateFolder) else "cannot write it"
        raise PiAskError(f"the ask cannot be kept detached ({kind}: {err})") from None
    return ask_id, EXIT_OK


def _titled(loaded: LoadedPayload, title: str | None) -> LoadedPayload:
    """``loaded`` with ``title`` (trimmed; blank: none) in place of the payload's."""
    if title is None:
        return loaded
    return loaded._replace(payload=loaded.payload._replace(title=title.strip() or None))


UnknownFields = Literal["warn", "stderr"]


def _report_unknown(loaded: LoadedPayload | InvalidPayload, how: UnknownFields) -> None:
    """List the payload's unknown fields once: ``warnings.warn`` or one stderr line.

    They are accepted (objects are open); saying so catches a misspelling too far from any
    field to be refused as a typo (python-port.md §12).
    """
    if not isinstance(loaded, LoadedPayload) or not loaded.unknown_fields:
        return
    text = f"unknown payload fields, ignored: {', '.join(loaded.unknown_fields)}"
    if how == "stderr":
        import sys

        print(f"pi-ask: {text}", file=sys.stderr)
        return
    import warnings

    warnings.warn(text, UserWarning, stacklevel=4)


def run_flow(
    loaded: LoadedPayload | InvalidPayload,
    *,
    ui: UiMode,
    store: SettingsStore | None = None,
    config: Path | None = None,
    session: Path | None = None,
    source: str = "tool",
    ask_id: str | None = None,
    title: str | None = None,
    initial_answers: tuple[tuple[str, Answer], ...] = (),
    wait: bool = False,
    timeout: float | None = None,
    rest: RestHook | None = None,
) -> tuple[ToolResult, int]:
    """Record the ask, open the face ``ui`` on it, and return (result, exit status).

    The payload is written to the session log before any UI opens; the face then appends a
    draft on every committed change, and a finished form (submitted or cancelled) is marked
    dismissed. An ask answered by no one (``ui="none"``), timed out or aborted (a signal, the
    end of the RPC input) stays resumable (python-port.md §11).

    Args:
        loaded: what ``contract.loading.load_payload`` returned.
        ui: the face to open (see ``ask_user``).
        store: the settings store; opened from ``config`` when not given.
        config: settings file, when ``store`` is not given.
        session: the ``--session`` file (pi's files are only read; see ``session.recorder``).
        source: who asked: ``"tool"``, ``"answer"``, ``"ask:replay"``, ``"ask:resume"``...
        ask_id: continue this recorded ask instead of recording a new payload.
        title: replaces the payload's title.
        initial_answers: answers to start from (a resumed draft).
        wait: with no terminal and nobody to route to, wait for a ``pi-ask attach``.
        timeout: a hard deadline in seconds from now (python-port.md §11).
        rest: the command line's: given an ask published for an attach, nobody reached
            (not yet answering its terminals), and the session log, it replaces the process
            with a small waiting one (``cli/waiting.py``); it returns only when it could not.
    """
    settings, store = _settings_for(ui, store, config)
    return _run_flow(
        loaded,
        ui=ui,
        settings=settings,
        store=store,
        config=config,
        session=session,
        source=source,
        ask_id=ask_id,
        title=title,
        initial_answers=initial_answers,
        wait=wait,
        timeout=timeout,
        rest=rest,
    )


def _settings_for(
    ui: UiMode, store: SettingsStore | None, config: Path | None
) -> tuple[AskerSettings, SettingsStore | None]:
    """The asker's settings, and the store when a face of this process draws (it reads
    them all, live). An ask that draws nothing reads only the asker's few, remembered
    (``config.remembered``): the ``no_terminal`` answer costs a fraction of the store."""
    from pi_ask.ask.routing import pick_face
    from pi_ask.config.remembered import AskerSettings, asker_settings

    if store is None and pick_face(ui) in ("none", "elsewhere"):
        return asker_settings(config), None
    store = store or _open_store(config)
    return AskerSettings.of(store.snapshot()), store


def _run_flow(
    loaded: LoadedPayload | InvalidPayload,
    *,
    ui: UiMode,
    settings: AskerSettings,
    store: SettingsStore | None,
    config: Path | None,
    session: Path | None,
    source: str = "tool",
    ask_id: str | None = None,
    title: str | None = None,
    initial_answers: tuple[tuple[str, Answer], ...] = (),
    wait: bool = False,
    timeout: float | None = None,
    rest: RestHook | None = None,
) -> tuple[ToolResult, int]:
    """``run_flow`` with the settings read: ``store`` is ``None`` when nothing draws here."""
    if isinstance(loaded, InvalidPayload):
        from pi_ask.contract.rejection import invalid_result  # the result classes: not at start

        result = invalid_result(loaded)
        return result, exit_code(result)
    from pi_ask.ask.routing import pick_face, terminal_face_for
    from pi_ask.session.recorder import AskRecorder, payload_source_for

    loaded = _titled(loaded, title)
    recorder = AskRecorder.open(session)
    ask_id = recorder.start(loaded.params, payload_source_for(source), ask_id=ask_id)
    timeout = settings.answer_timeout_s if timeout is None else timeout
    face = pick_face(ui, terminal_face_for(settings.face))
    if face != "tui":  # the TUI syncs once its first frame is up (on_first_frame)
        if face not in ("none", "elsewhere"):
            gc.enable()  # paused for start-up by cli.main; the TUI resumes it at its first frame
        recorder.sync()
    if face in ("none", "elsewhere") and recorder.write_error is not None:
        # No face here draws the notice line: without this the ask would vanish unsaid.
        print(
            "pi-ask: the session log cannot be written, so this ask is not recorded "
            f"(pi-ask resume cannot reopen it): {recorder.write_error}",
            file=sys.stderr,
            flush=True,
        )
    if face == "elsewhere":
        wait = wait or settings.no_terminal == "wait"
        result, signum = _ask_elsewhere(
            loaded,
            ask_id,
            store or functools.partial(_open_store, config),  # to notify, if it must
            recorder,
            tmux=settings.tmux,
            limits=settings,  # its max_files and max_bytes: [attachments]
            wait=wait,
            timeout=timeout,
            answers=initial_answers,
            rest=rest,
        )
    elif face == "none":
        from pi_ask.state.results import non_interactive_result

        result, signum = non_interactive_result(loaded.payload), None
    else:
        result, signum = _run_face(
            face,
            loaded,
            store or _open_store(config),
            recorder,
            ask_id=ask_id,
            source=source,
            timeout=timeout,
            answers=initial_answers,
        )
    if signum is not None:
        return result, 128 + signum  # not settled: the ask stays resumable
    _settle(recorder, ask_id, result)
    return result, exit_code(result)


def _settle(recorder: AskRecorder, ask_id: str, result: ToolResult) -> None:
    """The ask is over: its log says so, and its kept files are only those ``result`` lists."""
    recorder.settle(result)
    folder = _attachments_folder(ask_id)
    if folder.parent.is_dir():  # only once some ask has had files (no import otherwise)
        from pi_ask.ask.attachments import settle_attachments

        settle_attachments(folder, result)


def _run_face(
    name: FaceName,
    loaded: LoadedPayload,
    store: SettingsStore,
    recorder: AskRecorder,
    *,
    ask_id: str,
    source: str,
    timeout: float | None,
    answers: tuple[tuple[str, Answer], ...],
) -> tuple[ToolResult, int | None]:
    """Run face ``name`` on the ask; its result, and the signal that ended it if one did."""
    from pi_ask.ask.face import FaceRequest, FlowInterrupted, load_face
    from pi_ask.ask.services import now_ms
    from pi_ask.state.opening import new_state

    request = FaceRequest(
        store,
        ask_id=ask_id,
        source=source,
        on_commit=recorder.draft,
        on_first_frame=recorder.sync,
        notice=recorder.notice,
        deadline_ms=None if timeout is None else now_ms() + int(timeout * 1000),
        attachments_folder=_attachments_folder(ask_id),
    )
    try:
        final, signum = (
            load_face(name).run(new_state(loaded.payload, answers=answers), request),
            None,
        )
    except FlowInterrupted as stop:
        final, signum = stop.state, stop.signal_number
    from pi_ask.state.results import build_result  # the result classes: not before the face

    return build_result(final), signum


def _ask_elsewhere(
    loaded: LoadedPayload,
    ask_id: str,
    store: SettingsStore | Callable[[], SettingsStore],
    recorder: AskRecorder,
    *,
    tmux: TmuxMode,
    limits: FileLimits,
    wait: bool,
    timeout: float | None,
    answers: tuple[tuple[str, Answer], ...],
    rest: RestHook | None = None,
) -> tuple[ToolResult, int | None]:
    """No terminal of our own: a running inbox, a tmux popup, or (``wait``) an attach."""
    from pi_ask.relay.elsewhere import ElsewhereHooks, ask_elsewhere
    from pi_ask.relay.watch import WakeEvent
    from pi_ask.signal_latch import SignalAbort

    def announce(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    def rest_here(pending: PendingAsk) -> None:
        if rest is not None and recorder.write_error is None:
            rest(pending, recorder.path)

    cancel = WakeEvent()
    # The wait blocks in select on the cancel's pipe: a signal that a helper thread (the
    # socket's accept, say) took still wakes it there.
    with SignalAbort(cancel, wake_fd=cancel.waker.write_fileno()) as stop:
        hooks = ElsewhereHooks(
            cancel=cancel,
            on_draft=recorder.draft,
            on_published=gc.enable,  # paused for start-up by cli.main: it may wait for long
            announce=announce,
            rest=rest_here if rest is not None else None,
        )
        result = ask_elsewhere(
            loaded,
            ask_id,
            wait=wait,
            timeout_s=timeout,
            tmux=tmux,
            hooks=hooks,
            initial_answers=answers,
            store=store,
            limits=limits,
            keep_files_in=_attachments_folder(ask_id),
        )
    if result is None:
        from pi_ask.state.results import non_interactive_result

        result = non_interactive_result(loaded.payload)
    return result, stop.signum


def resume_elsewhere(
    ask_id: str,
    *,
    asks: Path,
    log: Path | None,
    descriptors: tuple[int, int],
    peers: Sequence[socket.socket] = (),
) -> tuple[ToolResult, int]:
    """Take over an ask this process published before it replaced its image with the
    waiting one (``run_flow``'s ``rest``), wait for its answer, settle it: (result, status).

    The ask is rebuilt from its folder as a terminal reads it (the payload, the title of its
    summary, the presented types and answers of its draft) and its session log continued.
    ``peers`` are terminals the waiting process accepted and has not answered yet.

    Raises:
        PiAskError: The folder is not the ask it published (removed, or not readable).
    """
    import time

    from pi_ask.relay import forms
    from pi_ask.relay.asks import AskFolder, now_ms
    from pi_ask.relay.elsewhere import ElsewhereHooks, wait_for_answer
    from pi_ask.relay.pending import PendingAsk
    from pi_ask.relay.watch import WakeEvent
    from pi_ask.session.recorder import AskRecorder
    from pi_ask.signal_latch import SignalAbort
    from pi_ask.state.opening import new_state

    folder = AskFolder(asks / ask_id)
    summary = folder.summary()
    loaded = load_payload(folder.params())
    if summary is None or summary.socket is None or isinstance(loaded, InvalidPayload):
        raise PiAskError(f"the pending ask {ask_id} is gone from {asks}")
    loaded = loaded._replace(payload=loaded.payload._replace(title=summary.title))
    draft = folder.draft()
    files = summary.files()  # where its files are, within the limits the asker wrote
    try:
        state = forms.state_from_form(loaded, draft or {}, files)
    except forms.FormError:
        state, draft = new_state(loaded.payload), None
    recorder = AskRecorder.open(log) if log is not None else AskRecorder(None)
    recorder.start(None, "tool", ask_id=ask_id)
    if draft and draft.get("typing") is not True:
        recorder.draft(state)  # written while this process rested: logged as it would have been
    deadline = None
    if summary.deadline_ms is not None:
        deadline = time.monotonic() + (summary.deadline_ms - now_ms()) / 1000
    cancel = WakeEvent()
    with SignalAbort(cancel, wake_fd=cancel.waker.write_fileno()) as stop:  # as _ask_elsewhere
        pending = PendingAsk.adopt(
            loaded,
            ask_id,
            asks=asks,
            path=summary.socket,
            descriptors=descriptors,
            state=state,
            on_draft=recorder.draft,
            deadline_ms=summary.deadline_ms,
            wake=cancel.waker,
            limits=files,
            keep_files_in=_attachments_folder(ask_id),
        )
        try:
            pending.serve(peers)
            hooks = ElsewhereHooks(cancel=cancel, on_draft=recorder.draft)
            result = wait_for_answer(pending, hooks, deadline)
        finally:
            pending.close()
    if stop.signum is not None:
        return result, 128 + stop.signum  # not settled: the ask stays resumable
    _settle(recorder, ask_id, result)
    return result, exit_code(result)


def _open_store(config: Path | None) -> SettingsStore:
    from pi_ask.config.store import open_store

    return open_store(config)


def _attachments_folder(ask_id: str) -> Path:
    """Where this ask's attached files go: ``<state>/attachments/<ask id>/`` (created 0700 on
    the first attach; an ask run here has no relay folder of its own)."""
    from pi_ask.config.paths import kept_attachments_dir

    return kept_attachments_dir(ask_id)
