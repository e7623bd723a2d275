"""``ask_user``: validate a payload, record it, pick the face, return the result.

The faces (TUI, RPC dialogs, the non-interactive fallback) are imported inside the branch
that needs them, so a face that is not used costs nothing at start.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pi_ask.contract import InvalidPayload, LoadedPayload, load_payload
from pi_ask.signal_latch import held_signal

if TYPE_CHECKING:
    from pi_ask.config import SettingsStore
    from pi_ask.contract.payload import AskPayload
    from pi_ask.contract.payload_types import AskUserInput
    from pi_ask.contract.results import ToolResult
    from pi_ask.session.recorder import AskRecorder
    from pi_ask.state.model import Answer

UiMode = Literal["auto", "tui", "plain", "rpc", "none"]

EXIT_OK = 0
EXIT_CANCELLED = 1
EXIT_INVALID = 2


def exit_code(result: ToolResult) -> int:
    """The command's exit status for a result (python-port.md §2)."""
    if result.details.error_issues is not None:
        return EXIT_INVALID
    return EXIT_CANCELLED if result.details.cancelled else EXIT_OK


def has_terminal() -> bool:
    """True when the controlling terminal can be opened for the TUI."""
    try:
        fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError:
        return False
    os.close(fd)
    return True


def ask_user(
    payload: AskUserInput | str | bytes | Mapping[str, object],
    *,
    ui: UiMode = "auto",
    config: Path | None = None,
    title: str | None = None,
    wait: bool = False,
    timeout: float | None = None,
) -> ToolResult:
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

    Returns:
        The result: ``result.text`` for the agent, ``result.details`` structured.

    Example:
        >>> result = ask_user({"questions": [...]}, ui="none")
        >>> result.details.cancelled
        True
    """
    return ask_with_status(payload, ui=ui, config=config, title=title, wait=wait, timeout=timeout)[
        0
    ]


async def ask_user_async(
    payload: AskUserInput | str | bytes | Mapping[str, object],
    *,
    ui: UiMode = "auto",
    config: Path | None = None,
    title: str | None = None,
    wait: bool = False,
    timeout: float | None = None,
) -> ToolResult:
    """``ask_user`` for asyncio agent loops: the caller's loop keeps running while the user answers.

    The flow runs on a worker thread with an event loop of its own (prompt_toolkit's), so the
    caller's other tasks — streaming, tool calls, heartbeats — are not held up. Arguments and
    result are those of ``ask_user``. Cancelling the awaiting task stops the wait, not the form:
    the user can still finish it, and the ask stays in the session log for ``pi-ask resume``.

    Example:
        >>> result = await ask_user_async(payload)  # doctest: +SKIP
    """
    import asyncio

    return await asyncio.to_thread(
        ask_user, payload, ui=ui, config=config, title=title, wait=wait, timeout=timeout
    )


def ask_with_status(
    payload: AskUserInput | str | bytes | Mapping[str, object],
    *,
    ui: UiMode = "auto",
    config: Path | None = None,
    session: Path | None = None,
    title: str | None = None,
    wait: bool = False,
    timeout: float | None = None,
) -> tuple[ToolResult, int]:
    """``ask_user`` for the command line: the result and the exit status it calls for.

    ``session`` is the ``--session`` log to record into (see ``run_flow``).
    """
    store = _open_store(config)
    loaded = load_payload(
        payload, present_single_as_multi=store.snapshot().behaviour.present_single_as_multi
    )
    return run_flow(
        loaded, ui=ui, store=store, session=session, title=title, wait=wait, timeout=timeout
    )


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
) -> tuple[ToolResult, int]:
    """Record the ask, open the face ``ui`` on it, and return (result, exit status).

    The payload is written to the session log before any UI opens; the TUI then appends a
    draft on every committed change, and a finished form (submitted or cancelled) is marked
    dismissed. An ask answered by no one (``ui="none"``), timed out or aborted (a signal, the
    end of the RPC input) stays resumable (python-port.md §11).

    Args:
        loaded: what ``contract.load_payload`` returned.
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
    """
    if isinstance(loaded, InvalidPayload):
        from pi_ask.contract.rejection import invalid_result  # the result classes: not at start

        result = invalid_result(loaded)
        return result, exit_code(result)
    if store is None:
        store = _open_store(config)
    payload = loaded.payload
    if title is not None:
        payload = payload._replace(title=title.strip() or None)
    from pi_ask.session.recorder import AskRecorder, payload_source_for

    recorder = AskRecorder.open(session)
    ask_id = recorder.start(loaded.params, payload_source_for(source), ask_id=ask_id)
    settings = store.snapshot()
    if timeout is None:
        timeout = settings.routing.answer_timeout_s
    deadline_ms = _deadline_ms(timeout)
    face = _pick_face(ui, terminal_face(store))
    if face != "tui":
        gc.enable()  # paused for start-up by cli.main; the TUI resumes it at its first frame
        recorder.sync()  # the TUI syncs once its first frame is drawn
    if face == "elsewhere":
        loaded = LoadedPayload(payload, loaded.params)
        return _run_elsewhere(
            loaded,
            ask_id,
            store=store,
            recorder=recorder,
            wait=wait or settings.routing.no_terminal == "wait",
            timeout=timeout,
            initial_answers=initial_answers,
        )
    if face == "none":
        from pi_ask.state import non_interactive_result

        result = non_interactive_result(payload)
        return result, exit_code(result)
    if face == "rpc":
        from pi_ask.dialogs.rpc import run_rpc

        with SignalAbort() as stop, _Deadline(timeout, stop.event) as deadline:
            result = run_rpc(
                payload,
                stdin=sys.stdin,
                stdout=sys.stdout,
                stderr=sys.stderr,
                abort=stop.event,
                answers=initial_answers,
                on_commit=recorder.draft,
            )
        if stop.signum is not None:
            return result, 128 + stop.signum
        if deadline.passed and result.details.cancelled:
            from pi_ask.state import non_interactive_result

            result = non_interactive_result(payload, "timeout")
        if result.details.ends_ask:
            recorder.finish()
        return result, exit_code(result)
    return _run_tui(
        payload,
        face=face,
        store=store,
        recorder=recorder,
        source=source,
        ask_id=ask_id,
        initial_answers=initial_answers,
        deadline_ms=deadline_ms,
    )


def _run_elsewhere(
    loaded: LoadedPayload,
    ask_id: str,
    *,
    store: SettingsStore,
    recorder: AskRecorder,
    wait: bool,
    timeout: float | None,
    initial_answers: tuple[tuple[str, Answer], ...],
) -> tuple[ToolResult, int]:
    """No terminal of our own: a running inbox, a tmux popup, or (``wait``) an attach."""
    from pi_ask.inbox import ElsewhereHooks, ask_elsewhere

    def announce(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    with SignalAbort() as stop:
        hooks = ElsewhereHooks(cancel=stop.event, on_draft=recorder.draft, announce=announce)
        result = ask_elsewhere(
            loaded,
            ask_id,
            wait=wait,
            timeout_s=timeout,
            tmux=store.snapshot().routing.tmux,
            hooks=hooks,
            initial_answers=initial_answers,
            store=store,
        )
    if result is None:
        from pi_ask.state import non_interactive_result

        result = non_interactive_result(loaded.payload)
    if stop.signum is not None:
        return result, 128 + stop.signum
    if result.details.ends_ask:
        recorder.finish()
    return result, exit_code(result)


class _Deadline:
    """Sets ``event`` when ``timeout_s`` passes (for faces that stop on an abort event)."""

    def __init__(self, timeout_s: float | None, event: threading.Event) -> None:
        self.passed = False
        self._event = event
        self._timer = threading.Timer(timeout_s, self._fire) if timeout_s is not None else None

    def _fire(self) -> None:
        self.passed = True
        self._event.set()

    def __enter__(self) -> _Deadline:
        if self._timer is not None:
            self._timer.daemon = True
            self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._timer is not None:
            self._timer.cancel()


def _deadline_ms(timeout: float | None) -> int | None:
    import time

    return None if timeout is None else time.time_ns() // 1_000_000 + int(timeout * 1000)


def _run_tui(
    payload: AskPayload,
    *,
    face: Literal["tui", "plain"] = "tui",
    store: SettingsStore,
    recorder: AskRecorder,
    source: str,
    ask_id: str,
    initial_answers: tuple[tuple[str, Answer], ...],
    deadline_ms: int | None = None,
) -> tuple[ToolResult, int]:
    from pi_ask.errors import FlowInterrupted
    from pi_ask.state import new_state

    state = new_state(payload)
    if initial_answers:
        state = state._replace(answers=initial_answers)
    try:
        if face == "plain":
            from pi_ask.plain import run_plain_flow

            result = run_plain_flow(
                state,
                store=store,
                source=source,
                tool_call_id=ask_id,
                notice=recorder.notice,
                on_commit=recorder.draft,
                deadline_ms=deadline_ms,
            )
        else:
            from pi_ask.tui import run_ask_flow

            result = run_ask_flow(
                state,
                store=store,
                source=source,
                tool_call_id=ask_id,
                notice=recorder.notice,
                on_commit=recorder.draft,
                on_first_frame=recorder.sync,
                deadline_ms=deadline_ms,
            )
    except FlowInterrupted as stop:
        return stop.result, 128 + stop.signal_number
    if result.details.ends_ask:
        recorder.finish()
    return result, exit_code(result)


class SignalAbort:
    """Turns SIGTERM, SIGHUP and SIGINT into an abort event for the length of a ``with``.

    The face sees the event, ends its flow as cancelled and returns normally, so the caller can
    still print the result and exit with 128 + the signal (python-port.md §10).
    """

    SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)

    def __init__(self) -> None:
        self.event = threading.Event()
        self.signum: int | None = None
        self._previous: dict[int, object] = {}

    def __enter__(self) -> SignalAbort:
        if threading.current_thread() is threading.main_thread():
            for signum in self.SIGNALS:
                self._previous[signum] = signal.signal(signum, self._handle)
        held = held_signal()
        if held is not None:  # it came during start-up: the ask ends as it begins
            self._handle(held, None)
        return self

    def __exit__(self, *exc: object) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)  # type: ignore[arg-type]

    def _handle(self, signum: int, _frame: object) -> None:
        if self.signum is None:
            self.signum = signum
        self.event.set()


def terminal_face(store: SettingsStore) -> Literal["tui", "plain"]:
    """The face a terminal gets when none was asked for: ``[ui] face``, plain on ``TERM=dumb``.

    A terminal that cannot move its cursor gets the line-by-line face whatever the setting.
    """
    if os.environ.get("TERM") == "dumb":
        return "plain"
    return store.snapshot().ui.face


def _pick_face(
    ui: UiMode, on_terminal: Literal["tui", "plain"] = "tui"
) -> Literal["tui", "plain", "rpc", "none", "elsewhere"]:
    if ui == "auto":
        from pi_ask.inbox.routing import in_foreground_terminal

        # A background child of a terminal must not draw over its host (python-port.md §11).
        if not in_foreground_terminal():
            return "elsewhere"
        return on_terminal
    if ui in ("tui", "plain") and not has_terminal():
        # Asked for a terminal that is not there: the questions go back unanswered.
        print(
            "pi-ask: no terminal to draw on; the questions are returned unanswered",
            file=sys.stderr,
        )
        return "none"
    return ui


def _open_store(config: Path | None) -> SettingsStore:
    from pi_ask.config import open_store

    return open_store(config)
