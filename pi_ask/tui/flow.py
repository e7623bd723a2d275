"""``AskFlow``: the ask flow as a prompt_toolkit application, and ``run_ask_flow``.

The flow keeps the engine state and feeds it one command per key (``flow_bindings``); the
engine decides everything (auto-open editor, dirty guard, double-press, auto-submit, type
change confirmation) and the flow draws the new state (``frame``). When the state is
completed the application exits with ``build_result(state)``, the drawing is erased and the
transcript lines are printed on the terminal, never on stdout.

Everything not needed for the first frame (notifications, the config watcher, the event
bridge) starts right after it.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Literal, cast

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import ThreadedCompleter
from prompt_toolkit.document import Document
from prompt_toolkit.filters import Condition
from prompt_toolkit.input import Input
from prompt_toolkit.layout import ConditionalContainer, Float, FloatContainer, HSplit, Layout
from prompt_toolkit.layout.containers import Window
from prompt_toolkit.layout.controls import BufferControl
from prompt_toolkit.output import Output

from pi_ask.config import Settings, SettingsStore
from pi_ask.keymaps.keymap import Keymaps
from pi_ask.keymaps.ptk_bindings import set_escape_timeout
from pi_ask.state import (
    Abort,
    AskState,
    Behaviour,
    BehaviourChanged,
    CloseEditor,
    Command,
    EditAnswer,
    EditNote,
    EditorNavigate,
    SubmitEditor,
    apply,
    build_result,
    current_row,
    editor_draft,
)
from pi_ask.tui.editor_view import EditorView
from pi_ask.tui.file_completer import AtPathCompleter
from pi_ask.tui.file_index import FileIndex
from pi_ask.tui.flow_bindings import load_flow_bindings
from pi_ask.tui.frame import FlowView, Frame, render_frame, scroll_to_focus
from pi_ask.tui.lines_control import LinesControl
from pi_ask.tui.preview_pane import max_scroll
from pi_ask.tui.styled_text import Line
from pi_ask.tui.terminal import Terminal, open_terminal
from pi_ask.tui.theme import build_style
from pi_ask.tui.transcript import print_transcript

if TYPE_CHECKING:
    from pi_ask.contract.payload import Question
    from pi_ask.contract.results import ToolResult
    from pi_ask.events import FlowRegistration, RemoteResponse
    from pi_ask.notifications import Dispatch
    from pi_ask.tui.settings_panel import SettingsPanel

OnCommit = Callable[[AskState], None]
_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
_OVERLAY_HEIGHT_SHARE = 0.9
_WATCH_INTERVAL_S = 0.25
_EDITOR_COMMANDS = (SubmitEditor, CloseEditor, EditorNavigate)


class FlowInterrupted(Exception):
    """The flow was ended by a signal (SIGTERM, SIGHUP, or a SIGINT from outside).

    The terminal has been restored when this is raised. The caller prints ``result`` (a
    cancelled result) if it can and exits with ``128 + signal_number``.
    """

    def __init__(self, result: ToolResult, signal_number: int) -> None:
        super().__init__(f"ask flow ended by signal {signal_number}")
        self.result = result
        self.signal_number = signal_number


@dataclass(slots=True)
class _FrameCache:
    key: tuple[FlowView, int, int] | None = None
    frame: Frame | None = None


class AskFlow:
    """One ask flow on a terminal; build it, then ``run()`` it once.

    Args:
        state: The starting state (``pi_ask.state.new_state``, maybe with resumed answers).
        store: The settings store: live behaviour, keymaps, the overlay's toggles.
        source: Who asked (``tool``, ``answer``, ``ask:replay``...), for the event bus.
        flow_id: The id bridges see; a fresh one by default.
        on_commit: Called with the state after every committed change (an answer, a note,
            a type change), never for keystrokes inside an editor.
        input: Where keys come from (default: the controlling terminal).
        output: Where the flow is drawn (default: the controlling terminal).
        cwd: The folder ``@`` completion lists (default: the working directory).
    """

    def __init__(
        self,
        state: AskState,
        *,
        store: SettingsStore,
        source: str = "tool",
        flow_id: str | None = None,
        on_commit: OnCommit | None = None,
        input: Input | None = None,
        output: Output | None = None,
        cwd: Path | None = None,
    ) -> None:
        self._store = store
        self._settings = store.snapshot()
        self._source = source
        self._flow_id = flow_id
        self._on_commit = on_commit
        notice = store.notice
        if notice is not None and state.config_notice is None:
            state = apply(state, BehaviourChanged(config_notice=notice.text), self.behaviour)
        self._state = state
        self.panel: SettingsPanel | None = None
        self.interrupted_by: int | None = None
        self._result: ToolResult | None = None
        self._preview_scroll = 0
        self._preview_anchor = (state.tab, state.row)
        self._body_offset = 0
        self._frame_cache = _FrameCache()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread: int | None = None
        self._first_frame_done = False
        self._cleanups: list[Callable[[], None]] = []
        self._dispatch_handle: Dispatch | None = None
        self._registration: FlowRegistration | None = None
        index = FileIndex(cwd or Path.cwd())
        self.buffer = Buffer(
            multiline=False,
            completer=ThreadedCompleter(AtPathCompleter(index)),
            complete_while_typing=True,
        )
        self._terminal: Terminal | None = None
        if input is None or output is None:
            self._terminal = open_terminal()
        self._input = input or cast(Terminal, self._terminal).input
        self._output = output or cast(Terminal, self._terminal).output
        self.app = self._create_application()
        self._sync_editor(None, state)

    # --- what the bindings and the frame read -------------------------------------------------

    @property
    def state(self) -> AskState:
        """The current engine state."""
        return self._state

    @property
    def behaviour(self) -> Behaviour:
        """The live behaviour settings."""
        return self._settings.behaviour

    def current_keymaps(self) -> Keymaps:
        """The live keymaps (read on every key lookup: a stored value)."""
        return self._settings.keymaps

    @property
    def editing(self) -> Literal["input", "note"] | None:
        """Which editor is open, if any."""
        view = self._state.view
        if isinstance(view, EditAnswer):
            return "input"
        if isinstance(view, EditNote):
            return "note"
        return None

    def editor_text(self) -> str:
        """The open editor's raw text ('' when none is open)."""
        return self.buffer.text if self.editing else ""

    def has_completions(self) -> bool:
        """True while the ``@`` completion menu lists something."""
        state = self.buffer.complete_state
        return state is not None and bool(state.completions)

    # --- actions ------------------------------------------------------------------------------

    def dispatch(self, command: Command) -> None:
        """Apply one engine command, then redraw, report the commit, or finish."""
        before = self._state
        after = apply(before, command, self.behaviour)
        self._state = after
        self._sync_editor(before, after, rehydrate=isinstance(command, _EDITOR_COMMANDS))
        self._sync_preview(after)
        if self._on_commit is not None and _is_commit(before, after):
            self._on_commit(after)
        if after.completed:
            self._finish()
        self.app.invalidate()

    def open_settings(self) -> None:
        """Open the settings overlay (at most one)."""
        if self.panel is None:
            # Imported on first use: most flows never open the overlay.
            from pi_ask.tui.settings_panel import SettingsPanel

            self.panel = SettingsPanel(self._store)
            self.app.invalidate()

    def close_settings(self) -> None:
        """Close the settings overlay; closing twice is harmless."""
        if self.panel is not None:
            self._store.cancel_reset()
            self.panel = None
            self.app.invalidate()

    def settings_action(self, action: Literal["move", "toggle"], delta: int) -> None:
        """Move the overlay's focus or toggle its focused row."""
        if self.panel is None:
            return
        if action == "move":
            self.panel.move(delta)
        else:
            self.panel.toggle()
            self._schedule_reset_expiry()
        self.app.invalidate()

    def scroll_preview(self, delta: int) -> None:
        """Scroll the preview box by ``delta`` preview lines."""
        row = current_row(self._state)
        option = row.option if row is not None else None
        self._preview_scroll = max(0, min(self._preview_scroll + delta, max_scroll(option)))
        self.app.invalidate()

    def accept_completion(self) -> None:
        """Take the highlighted completion (the first when none is highlighted)."""
        complete = self.buffer.complete_state
        if complete is None or not complete.completions:
            return
        chosen = complete.current_completion or complete.completions[0]
        self.buffer.apply_completion(chosen)
        if chosen.text.endswith("/"):
            self.buffer.start_completion(select_first=False)

    def close_completions(self) -> None:
        """Close the completion menu, keeping the text."""
        self.buffer.cancel_completion()

    # --- the remote bridge (pi_ask.events.RemoteFlow) ----------------------------------------

    @property
    def flow_id(self) -> str:
        """The id bridges address this flow by."""
        if self._flow_id is None:
            from pi_ask.events import new_flow_id

            self._flow_id = new_flow_id()
        return self._flow_id

    @property
    def questions(self) -> tuple[Question, ...]:
        """The questions as currently presented."""
        return self._state.questions

    def complete(self, response: RemoteResponse) -> ToolResult | None:
        """Apply a validated remote submission from any thread; the result, or ``None``."""
        loop = self._loop
        if loop is None or self._result is not None:
            return None
        if threading.get_ident() == self._loop_thread:
            return self._complete_now(response)
        future = asyncio.run_coroutine_threadsafe(self._complete_async(response), loop)
        try:
            return future.result(timeout=10)
        except (TimeoutError, asyncio.CancelledError, RuntimeError):
            return None

    async def _complete_async(self, response: RemoteResponse) -> ToolResult | None:
        return self._complete_now(response)

    def _complete_now(self, response: RemoteResponse) -> ToolResult | None:
        if self._result is not None:
            return None
        self.dispatch(response)
        return self._result

    # --- running ------------------------------------------------------------------------------

    def run(self) -> ToolResult:
        """Run the flow to its end and return the result.

        Raises:
            FlowInterrupted: A signal ended the flow (terminal restored, result cancelled).
        """
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(self.run_async())
        # Called from inside a running loop (an async caller): run on a thread of our own.
        with ThreadPoolExecutor(1, thread_name_prefix="pi-ask-flow") as pool:
            return pool.submit(asyncio.run, self.run_async()).result()

    async def run_async(self) -> ToolResult:
        """Run the flow on the current event loop; see ``run``."""
        if self._state.completed:
            return build_result(self._state)
        self._loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()
        restore = self._install_signal_handlers()
        self._cleanups.append(self._store.subscribe(self._on_settings))
        try:
            try:
                result = await self.app.run_async(handle_sigint=False)
            except OSError:
                # The terminal went away (SIGHUP): the state still says how it ended.
                if self._result is None:
                    raise
                result = self._result
            with contextlib.suppress(OSError):
                print_transcript(result, self._output)
        finally:
            restore()
            self._teardown()
        if self.interrupted_by is not None:
            raise FlowInterrupted(result, self.interrupted_by)
        return result

    def _create_application(self) -> Application[ToolResult]:
        frame = Window(
            LinesControl(self._render_frame, self._measure_frame), always_hide_cursor=True
        )
        self._frame_window = frame
        self._editor_window = Window(BufferControl(self.buffer))
        overlay = Window(
            LinesControl(self._render_overlay, self._measure_overlay, focusable=False),
            always_hide_cursor=True,
        )
        root = FloatContainer(
            HSplit([frame, ConditionalContainer(self._editor_window, filter=False)]),
            floats=[
                Float(
                    ConditionalContainer(overlay, filter=_overlay_filter(self)),
                    width=self._overlay_width,
                    height=self._overlay_height,
                )
            ],
        )
        app: Application[ToolResult] = Application(
            layout=Layout(root, focused_element=frame),
            key_bindings=load_flow_bindings(self),
            style=build_style(),
            full_screen=False,
            erase_when_done=True,
            mouse_support=False,
            input=self._input,
            output=self._output,
        )
        set_escape_timeout(app)
        app.after_render += self._after_render
        return app

    # --- drawing ------------------------------------------------------------------------------

    def _view(self) -> FlowView:
        editor = None
        if self.editing:
            complete = self.buffer.complete_state
            labels: tuple[str, ...] = ()
            index = None
            if complete is not None:
                labels = tuple(c.display_text for c in complete.completions)
                index = complete.complete_index
            editor = EditorView(self.buffer.text, self.buffer.cursor_position, labels, index)
        return FlowView(
            self._state, self.behaviour, self._settings.keymaps, editor, self._preview_scroll
        )

    def _frame(self, width: int, height: int) -> Frame:
        """The frame for this size; prompt_toolkit asks for the height, then the content."""
        view = self._view()
        cache = self._frame_cache
        if cache.key is not None and cache.frame is not None:
            cached_view, cached_width, cached_height = cache.key
            drawn = len(cache.frame.lines)
            # A frame that fitted with room to spare is the same at any height it fits in.
            fits = drawn <= height and (drawn < cached_height or height == cached_height)
            if cached_width == width and fits and cached_view == view:
                return cache.frame
        cache.frame = render_frame(view, width, height, body_offset=self._body_offset)
        cache.key = (view, width, height)
        self._body_offset = cache.frame.body_offset
        return cache.frame

    def _render_frame(self, width: int, height: int) -> tuple[Line, ...]:
        return self._frame(width, height).lines

    def _measure_frame(self, width: int, max_height: int) -> int:
        height = len(self._frame(width, max_height).lines)
        if self.panel is not None:
            height = max(height, self._overlay_lines(width, max_height))
        return height

    def _overlay_lines(self, terminal_width: int, max_height: int) -> int:
        if self.panel is None:
            return 0
        from pi_ask.tui.settings_screen import overlay_width, render_overlay

        lines = len(render_overlay(self.panel.view(), overlay_width(terminal_width)).lines)
        return min(lines, max(1, int(self._rows() * _OVERLAY_HEIGHT_SHARE)), max_height)

    def _measure_overlay(self, width: int, max_height: int) -> int:
        return self._overlay_lines(width + 2, max_height)

    def _rows(self) -> int:
        return self.app.output.get_size().rows

    def _overlay_width(self) -> int:
        from pi_ask.tui.settings_screen import overlay_width

        return overlay_width(self.app.output.get_size().columns)

    def _overlay_height(self) -> int:
        size = self.app.output.get_size()
        return self._overlay_lines(size.columns, size.rows)

    def _render_overlay(self, width: int, height: int) -> tuple[Line, ...]:
        if self.panel is None:
            return ()
        from pi_ask.tui.settings_screen import render_overlay

        return scroll_to_focus(render_overlay(self.panel.view(), width), height)

    # --- keeping the editor, the preview and the settings in step -----------------------------

    def _sync_editor(
        self, before: AskState | None, after: AskState, rehydrate: bool = True
    ) -> None:
        editing = isinstance(after.view, EditAnswer | EditNote)
        changed = before is None or before.view != after.view
        if editing and (changed or rehydrate):
            draft = editor_draft(after)
            self.buffer.set_document(Document(draft, len(draft)), bypass_readonly=True)
            self.buffer.cancel_completion()
        elif not editing and self.buffer.text:
            self.buffer.reset()
        target = self._editor_window if editing else self._frame_window
        if self.app.layout.current_window is not target:
            self.app.layout.focus(target)

    def _sync_preview(self, state: AskState) -> None:
        anchor = (state.tab, state.row)
        if anchor != self._preview_anchor:
            self._preview_anchor = anchor
            self._preview_scroll = 0

    def _on_settings(self, settings: Settings) -> None:
        """Store subscriber: settings changed (a toggle, a reset, an edit of the file)."""
        loop = self._loop
        if loop is not None and threading.get_ident() != self._loop_thread:
            loop.call_soon_threadsafe(self._apply_settings, settings)
        else:
            self._apply_settings(settings)

    def _apply_settings(self, settings: Settings) -> None:
        self._settings = settings
        if self._result is not None:
            return
        notice = self._store.notice
        self.dispatch(BehaviourChanged(config_notice=notice.text if notice else None))

    def _schedule_reset_expiry(self) -> None:
        """Redraw when the reset window closes, so ``[confirm reset]`` turns back."""
        if self._loop is not None and self.panel is not None and self.panel.reset_armed():
            from pi_ask.config import RESET_WINDOW_S

            self._loop.call_later(RESET_WINDOW_S + 0.05, self.app.invalidate)

    # --- after the first frame, and the end ---------------------------------------------------

    def _after_render(self, _app: object) -> None:
        if self._first_frame_done or self._loop is None:
            return
        self._first_frame_done = True
        # Let this frame reach the terminal before anything else runs.
        self._loop.call_soon(self._start_background)

    def _start_background(self) -> None:
        if self._result is not None or self._loop is None:
            return
        self._cleanups.append(self._store.start_watching(self._loop, _WATCH_INTERVAL_S))
        self._notify()
        self._register_remote()

    def _notify(self) -> None:
        # Imported here, after the first frame: channels may pull in heavy libraries.
        from pi_ask.notifications import (
            TITLE,
            dispatch,
            parse_channels,
            subject_for,
            waiting_message,
        )

        settings = self._settings.notifications
        channels, _warnings = parse_channels(settings.channels)
        first = self._state.questions[0] if self._state.questions else None
        subject = subject_for(_given_label(first), first.prompt) if first else ""
        self._dispatch_handle = dispatch(
            channels,
            title=TITLE,
            message=waiting_message(subject),
            write_terminal=self._write_terminal,
            timeout_s=settings.timeout_s,
            enabled=settings.enabled,
        )

    def _register_remote(self) -> None:
        from pi_ask.events import load_bridges, shared_registry

        registry = shared_registry()
        source = self._source if self._source in _SOURCES else "tool"
        self._registration = registry.register(
            self, source=cast("FlowSourceName", source), title=self._state.title
        )
        load_bridges(registry.bus)

    def _write_terminal(self, text: str) -> None:
        """Notification output, from any thread: written between frames on the loop."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return

        def write() -> None:
            with contextlib.suppress(OSError):
                self._output.write_raw(text)
                self._output.flush()

        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(write)

    def _finish(self) -> None:
        if self._result is not None:
            return
        self._result = build_result(self._state)
        if self._registration is not None:
            self._registration.finish(self._result)
        if self.app.is_running and not self.app.is_done:
            with contextlib.suppress(Exception):
                self.app.exit(result=self._result)

    def _install_signal_handlers(self) -> Callable[[], None]:
        loop = self._loop
        if loop is None or threading.current_thread() is not threading.main_thread():
            return lambda: None
        previous: dict[int, Callable[[int, FrameType | None], object] | int | None] = {}
        for number in _SIGNALS:
            try:
                previous[number] = signal.getsignal(number)
                loop.add_signal_handler(number, self._on_signal, number)
            except (NotImplementedError, RuntimeError, ValueError, OSError):
                previous.pop(number, None)

        def restore() -> None:
            for number, handler in previous.items():
                with contextlib.suppress(Exception):
                    loop.remove_signal_handler(number)
                    signal.signal(number, handler)

        return restore

    def _on_signal(self, number: int) -> None:
        if self._result is None:
            self.interrupted_by = number
            self.dispatch(Abort())

    def _teardown(self) -> None:
        for cleanup in reversed(self._cleanups):
            with contextlib.suppress(Exception):
                cleanup()
        self._cleanups.clear()
        if self._dispatch_handle is not None:
            self._dispatch_handle.close()
        if self._registration is not None:
            if self._result is None:
                self._registration.dispose()
            else:
                self._registration.finish(self._result)
        if self._terminal is not None:
            self._terminal.close()


FlowSourceName = Literal["tool", "answer", "answer:again", "ask:replay", "ask:resume"]
_SOURCES = ("tool", "answer", "answer:again", "ask:replay", "ask:resume")


def _overlay_filter(flow: AskFlow) -> Condition:
    return Condition(lambda: flow.panel is not None)


def _given_label(question: Question | None) -> str | None:
    """The label as the payload gave it; ``Q<n>`` labels were made up by normalization."""
    if question is None or (question.label.startswith("Q") and question.label[1:].isdigit()):
        return None
    return question.label


def _is_commit(before: AskState, after: AskState) -> bool:
    """A change worth a draft: answers or presented types changed, or the flow ended."""
    return (
        before.answers != after.answers
        or before.questions != after.questions
        or before.completed != after.completed
    )


def run_ask_flow(
    state: AskState,
    *,
    store: SettingsStore,
    source: str = "tool",
    flow_id: str | None = None,
    on_commit: OnCommit | None = None,
    input: Input | None = None,
    output: Output | None = None,
) -> ToolResult:
    """Open the ask flow on the terminal and return its result.

    Args:
        state: The starting state (``pi_ask.state.new_state(payload)``).
        store: The settings store (``pi_ask.config.open_store``).
        source: Who asked: ``tool``, ``answer``, ``answer:again``, ``ask:replay``,
            ``ask:resume``.
        flow_id: The id bridges see; a fresh one by default.
        on_commit: Called with the state after every committed change (the session log's
            draft hook); never for keystrokes inside an editor.
        input: Key source for tests; default the controlling terminal.
        output: Drawing target for tests; default the controlling terminal.

    Returns:
        The tool result (cancelled when the user cancelled or dismissed).

    Raises:
        OSError: No controlling terminal could be opened (``input``/``output`` not given).
        FlowInterrupted: SIGTERM, SIGHUP or an outside SIGINT ended the flow; exit with
            ``128 + signal_number`` after printing its ``result``.

    Example:
        >>> result = run_ask_flow(new_state(payload), store=open_store())  # doctest: +SKIP
    """
    flow = AskFlow(
        state,
        store=store,
        source=source,
        flow_id=flow_id,
        on_commit=on_commit,
        input=input,
        output=output,
    )
    return flow.run()
