"""``AskFlow``: the ask flow as a prompt_toolkit application.

The flow keeps the engine state and feeds it one command per key (``flow_bindings``); the
engine decides everything (auto-open editor, dirty guard, double-press, auto-submit, type
change confirmation) and the flow draws the new state (``frame``). When the state is
completed the application exits with ``build_result(state)``, the drawing is erased and the
transcript lines are printed on the terminal, never on stdout.

Everything not needed for the first frame (``pi_ask.ask.services``: notifications, the
config watcher, the event bridge) starts right after it. The key bindings, the engine's
commands and transitions and the result classes are not needed to draw either: they are
imported where they are used, and preloaded by the services' worker thread right after the
first frame (after the Markdown parser, when the payload has Markdown: the frame it gives
is the next one the user sees). ``face.run`` is how a host opens it.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import gc
import signal
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Literal, cast

from prompt_toolkit.application import Application
from prompt_toolkit.data_structures import Size
from prompt_toolkit.filters import Condition
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import DynamicKeyBindings, KeyBindingsBase
from prompt_toolkit.layout import ConditionalContainer, Float, FloatContainer, HSplit, Layout
from prompt_toolkit.layout.containers import Window
from prompt_toolkit.layout.controls import BufferControl
from prompt_toolkit.output import Output

from pi_ask.ask.face import FaceRequest, FlowInterrupted
from pi_ask.ask.services import AskServices, Countdown, NoticeLine, now_ms
from pi_ask.config.settings import Settings
from pi_ask.config.store import RESET_WINDOW_S
from pi_ask.faces.tui.attaching import Attaching
from pi_ask.faces.tui.editor_field import EditorField, FileIndexHolder
from pi_ask.faces.tui.flow_canvas import FlowCanvas
from pi_ask.faces.tui.frame import FlowView
from pi_ask.faces.tui.hyperlinks import use_hyperlinks
from pi_ask.faces.tui.lines_control import LinesControl
from pi_ask.faces.tui.markdown_lines import defer_markdown, load_highlighting, load_markdown
from pi_ask.faces.tui.preview_pane import TOP, scroll_by
from pi_ask.faces.tui.signals import catch_signals
from pi_ask.faces.tui.terminal import Terminal, open_terminal, set_escape_timeout
from pi_ask.faces.tui.terminal_reports import (
    DISABLE_FOCUS_REPORTS,
    ENABLE_FOCUS_REPORTS,
    terminal_reports,
)
from pi_ask.faces.tui.theme import theme_style
from pi_ask.keymaps.keymap import Keymaps
from pi_ask.markdown.switch import set_markdown_enabled
from pi_ask.state.model import AskState, Behaviour, EditAnswer, EditNote
from pi_ask.state.selectors import current_question, current_row, editor_draft, is_draft_change

if TYPE_CHECKING:
    from pi_ask.contract.results import ToolResult
    from pi_ask.events.submissions import RemoteResponse
    from pi_ask.faces.tui.settings_panel import SettingsPanel
    from pi_ask.state.commands import Command

# An ask with a deadline shows a countdown, every second of its last this many seconds.
COUNTDOWN_S = 20
# A cap on the worker's wait for a frame it asked for (a flow that ends draws no more).
FRAME_WAIT_S = 2.0


class AskFlow:
    """One ask flow on a terminal; build it, then ``run()`` it once.

    Args:
        state: The starting state (``state.opening.new_state``, maybe with resumed answers).
        request: What the host asks for (``pi_ask.ask.face.FaceRequest``): the settings
            store, the ask's id, who asked, the draft hook, the first-frame hook, the notice
            and the deadline (a countdown shows in its last ``COUNTDOWN_S`` seconds, then the
            flow ends with ``reason: "timeout"``).
        input: Where keys come from (default: the controlling terminal).
        output: Where the flow is drawn (default: the controlling terminal).
        cwd: The folder ``@`` completion lists and relative paths to attach start from
            (default: the working directory).
    """

    def __init__(
        self,
        state: AskState,
        request: FaceRequest,
        *,
        input: Input | None = None,
        output: Output | None = None,
        cwd: Path | None = None,
    ) -> None:
        store = request.store
        self._store = store
        self._request = request
        self._settings = store.snapshot()
        set_markdown_enabled(self._settings.ui.markdown)
        use_hyperlinks(self._settings.ui.hyperlinks)
        defer_markdown()  # the first frame draws it as written; the worker loads the parser
        self._notice = NoticeLine(store, request.notice)
        self._countdown = (
            Countdown(request.deadline_ms, range(COUNTDOWN_S, 0, -1))
            if request.deadline_ms is not None
            else None
        )
        self.on_defer: Callable[[], None] | None = None
        """Set by the inbox: the fixed defer key calls it (docs/keymaps.md "Fixed keys")."""
        self.deferred = False
        """The user put the ask back: the transcript says "Deferred", not "Aborted"."""
        startup_notice = self._notice.text()
        if startup_notice is not None and state.config_notice is None:
            from pi_ask.state.commands import BehaviourChanged
            from pi_ask.state.dispatcher import apply

            state = apply(state, BehaviourChanged(config_notice=startup_notice), self.behaviour)
        self._state = state
        self.panel: SettingsPanel | None = None
        self.interrupted_by: int | None = None
        self._result: ToolResult | None = None
        self._preview_scroll = TOP
        self._preview_anchor = (state.tab, state.row)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread: int | None = None
        self._first_frame_done = False
        self._frame_waiters: list[threading.Event] = []  # set by the next frame drawn
        self._bindings: KeyBindingsBase | None = None
        cwd = cwd or Path.cwd()
        files = FileIndexHolder(cwd)
        self.editor = EditorField(files)
        self.attaching = Attaching(files, request.attachments_folder, cwd)
        self.face_notice: str | None = None
        """The face's own notice (an attach or a refusal), shown until the next key."""
        self._terminal: Terminal | None = None
        if input is None or output is None:
            self._terminal = open_terminal()
        self._input = input or cast(Terminal, self._terminal).input
        self._output = output or cast(Terminal, self._terminal).output
        # Focus reports and query replies come out of the input before the key parser.
        self.reports = terminal_reports(self._input)
        self._focus_reports_on = False
        # ``[theme] name = "auto"``: the shade the terminal reported, once it has.
        self._background_shade: str | None = None
        self._asked_background = False
        self.services = AskServices(request, write_raw=self._write_raw, focused=self._focused)
        self.canvas = FlowCanvas(self._view, lambda: self.panel, self._terminal_size)
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
        return self.editor.text if self.editing else ""

    def active_field(self) -> EditorField:
        """The field keys type into: the attach prompt's while it is open, else the editor's."""
        return self.attaching.field if self.attaching.is_open else self.editor

    # --- actions ------------------------------------------------------------------------------

    def dispatch(self, command: Command) -> None:
        """Apply one engine command, then redraw, report the commit, or finish.

        An unexpected error ends the flow: ``run`` raises it once the terminal is restored.
        """
        try:
            self._dispatch(command)
        except Exception as error:
            self._fail(error)

    def _dispatch(self, command: Command) -> None:
        from pi_ask.state.commands import CloseEditor, EditorNavigate, SubmitEditor
        from pi_ask.state.dispatcher import apply

        before = self._state
        after = apply(before, command, self.behaviour)
        self._state = after
        editor_command = isinstance(command, SubmitEditor | CloseEditor | EditorNavigate)
        if self.attaching.is_open and (after.view != before.view or after.tab != before.tab):
            self.attaching.close()  # an editor opened, or the question went (a remote answer)
        self._sync_editor(before, after, rehydrate=editor_command)
        self._sync_preview(after)
        self.canvas.follow(from_top=(before.tab != after.tab))
        if self._request.on_commit is not None and is_draft_change(before, after):
            self._request.on_commit(after)
        if after.completed:
            self._finish()
        self.app.invalidate()

    def open_attach(self) -> None:
        """``main.attach``: open the attach prompt (or say why it cannot open)."""
        self.face_notice = self.attaching.open(self._state)
        self._sync_editor(None, self._state)
        self.app.invalidate()

    def close_attach(self) -> None:
        """Close the attach prompt, attaching nothing."""
        self.attaching.close()
        self._sync_editor(None, self._state)
        self.app.invalidate()

    def attach_typed(self) -> None:
        """Copy the file named in the attach prompt into the ask's folder and attach it; a
        refusal stays under the prompt with the path as typed."""
        try:
            command, notice = self.attaching.take(self._state, self._request.file_limits())
        except Exception as error:
            self._fail(error)
            return
        self.face_notice = None if command is None else notice
        if command is not None:
            self.dispatch(command)  # puts the focus back on the frame (the prompt is closed)
        self.app.invalidate()

    def detach_last(self) -> None:
        """``main.detach``: the file attached last leaves the current answer."""
        from pi_ask.faces.tui.attaching import detach_last

        command, notice = detach_last(self._state)
        self.face_notice = notice
        if command is not None:
            self.dispatch(command)
        self.app.invalidate()

    def open_settings(self) -> None:
        """Open the settings overlay (at most one)."""
        if self.panel is None:
            # Imported on first use: most flows never open the overlay.
            from pi_ask.faces.tui.settings_panel import SettingsPanel

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
        try:
            if action == "move":
                self.panel.move(delta)
            else:
                self.panel.toggle()
                self._schedule_reset_expiry()
        except Exception as error:
            self._fail(error)
        self.app.invalidate()

    def _fail(self, error: Exception) -> None:
        """End the application with ``error`` (re-raised by ``run``), or raise it now."""
        if not (self.app.is_running and not self.app.is_done):
            raise error
        self.app.exit(exception=error)

    def scroll_preview(self, pages: int) -> bool:
        """Scroll the preview box by ``pages`` of its rows; False when it could not move.

        A page is the box's rows on the last frame less one, kept for context.
        """
        row = current_row(self._state)
        option = row.option if row is not None else None
        width, rows = self.canvas.box
        if rows < 1:
            return False
        step = pages * max(1, rows - 1)
        scroll = scroll_by(option, width, self._preview_scroll, step, rows)
        moved = scroll != self._preview_scroll
        self._preview_scroll = scroll
        self.app.invalidate()
        return moved

    def page(self, pages: int) -> None:
        """PgUp/PgDn: the preview box while it can move that way, else the body."""
        question = current_question(self._state)
        row = current_row(self._state)
        boxed = question is not None and question.type == "preview" and row and row.option
        if boxed and self.scroll_preview(pages):
            return
        self.canvas.page(pages)
        self.app.invalidate()

    def scroll_to_edge(self, bottom: bool) -> None:
        """Home/End (Ctrl+Home/Ctrl+End in an editor): the body's top or bottom."""
        self.canvas.to_edge(bottom)
        self.app.invalidate()

    # --- the remote bridge (the services register it on the event bus) ---------------------

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
        from concurrent.futures import ThreadPoolExecutor  # not needed by a plain start

        with ThreadPoolExecutor(1, thread_name_prefix="pi-ask-flow") as pool:
            return pool.submit(asyncio.run, self.run_async()).result()

    async def run_async(self) -> ToolResult:
        """Run the flow on the current event loop; see ``run``."""
        if self._state.completed:
            from pi_ask.state.results import build_result

            return build_result(self._state)
        self._loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()
        restore = catch_signals(self._loop, self._on_signal)
        unsubscribe = self._store.subscribe(self._on_settings)
        if self._countdown is not None:
            self._tick_deadline()
        self._follow_host(self._loop)
        try:
            try:
                # No prompt_toolkit exception handler: it would wait for Enter on the terminal.
                result = await self.app.run_async(handle_sigint=False, set_exception_handler=False)
            except (OSError, EOFError) as error:
                if self._result is None and _is_hang_up(error):
                    # The terminal closed under the flow (its window, tmux kill-session): a
                    # draw fails with EIO or the keys end, often before any SIGHUP arrives, and
                    # a shell's child may get no SIGHUP at all. It is a hang-up all the same.
                    self._on_signal(signal.SIGHUP)
                if self._result is None:
                    raise
                result = self._result
            from pi_ask.faces.tui.transcript import print_transcript

            with contextlib.suppress(OSError):
                print_transcript(result, self._output, self.app.style, deferred=self.deferred)
        finally:
            self._unfollow_host(self._loop)
            restore()
            unsubscribe()
            self.services.stop(self._result)
            self._release_frame_waiters()
            self._set_focus_reports(on=False)
            if self._terminal is not None:
                self._terminal.close()
        if self.interrupted_by is not None:
            raise FlowInterrupted(self._state, self.interrupted_by)
        return result

    def _create_application(self) -> Application[ToolResult]:
        canvas = self.canvas
        frame = Window(
            LinesControl(canvas.render_frame, canvas.measure_frame), always_hide_cursor=True
        )
        self._frame_window = frame
        self._editor_window = Window(BufferControl(self.editor.buffer))
        self._attach_window = Window(BufferControl(self.attaching.field.buffer))
        overlay = Window(
            LinesControl(canvas.render_overlay, canvas.measure_overlay, focusable=False),
            always_hide_cursor=True,
        )
        root = FloatContainer(
            HSplit(
                [
                    frame,
                    ConditionalContainer(self._editor_window, filter=False),
                    ConditionalContainer(self._attach_window, filter=False),
                ]
            ),
            floats=[
                Float(
                    ConditionalContainer(overlay, filter=Condition(lambda: self.panel is not None)),
                    width=canvas.overlay_width,
                    height=canvas.overlay_height,
                )
            ],
        )
        app: Application[ToolResult] = Application(
            layout=Layout(root, focused_element=frame),
            # Loaded at the first key, not for the first frame: the bindings bring in the
            # engine's commands (and the worker thread of ``services`` preloads them).
            key_bindings=DynamicKeyBindings(self._key_bindings),
            style=theme_style(self._settings.theme, self._background_shade),
            full_screen=False,
            erase_when_done=True,
            mouse_support=False,
            input=self._input,
            output=self._output,
        )
        set_escape_timeout(app)
        # Any key stops the reminders (focus reports never get here: the filter took them).
        app.key_processor.before_key_press += self._before_key
        app.after_render += self._after_render
        return app

    def _before_key(self, _processor: object) -> None:
        self.face_notice = None  # said once: the next key clears it
        self.services.key_pressed()

    def _key_bindings(self) -> KeyBindingsBase:
        if self._bindings is None:
            from pi_ask.faces.tui.flow_bindings import load_flow_bindings

            self._bindings = load_flow_bindings(self)
        return self._bindings

    # --- drawing ------------------------------------------------------------------------------

    def _view(self) -> FlowView:
        editor = self.editor.view() if self.editing else None
        return FlowView(
            self._state,
            self.behaviour,
            self._settings.keymaps,
            editor,
            self._preview_scroll,
            attach=self.attaching.view(),
            attachable=self.attaching.possible,
            face_notice=self.face_notice,
        )

    def _terminal_size(self) -> Size:
        return self.app.output.get_size()

    # --- keeping the editor, the preview and the settings in step -----------------------------

    def _sync_editor(
        self, before: AskState | None, after: AskState, rehydrate: bool = True
    ) -> None:
        editing = isinstance(after.view, EditAnswer | EditNote)
        changed = before is None or before.view != after.view
        if editing and (changed or rehydrate):
            self.editor.load(editor_draft(after))
        elif not editing:
            self.editor.clear()
        target = self._editor_window if editing else self._frame_window
        if self.attaching.is_open:
            target = self._attach_window
        if self.app.layout.current_window is not target:
            self.app.layout.focus(target)

    def _sync_preview(self, state: AskState) -> None:
        anchor = (state.tab, state.row)
        if anchor != self._preview_anchor:
            self._preview_anchor = anchor
            self._preview_scroll = TOP

    def _on_settings(self, settings: Settings) -> None:
        """Store subscriber: settings changed (a toggle, a reset, an edit of the file)."""
        loop = self._loop
        if loop is not None and threading.get_ident() != self._loop_thread:
            loop.call_soon_threadsafe(self._apply_settings, settings)
        else:
            self._apply_settings(settings)

    def _apply_settings(self, settings: Settings) -> None:
        from pi_ask.state.commands import BehaviourChanged

        before, self._settings = self._settings, settings
        if self._result is not None:
            return
        if settings.theme != before.theme:
            # Live: the next frame draws in the new theme (the application reads its style).
            self.app.style = theme_style(settings.theme, self._background_shade)
            self._ask_background_shade()
        # Live too: the renderers read the switch outside their caches.
        if settings.ui.markdown != before.ui.markdown:
            set_markdown_enabled(settings.ui.markdown)
            self.canvas.forget()
        self.dispatch(BehaviourChanged(config_notice=self._notice.text()))

    def _follow_host(self, loop: asyncio.AbstractEventLoop) -> None:
        """Wait on the host's descriptors (``FaceRequest.wakeups``) in the loop: its stop
        ends the flow, its live notice is shown, each when told, never looked for."""
        for fd in self._request.wakeups:
            loop.add_reader(fd, self._on_host)
        if self._request.wakeups:
            loop.call_soon(self._on_host)  # what the host says already (a stop set before)

    def _unfollow_host(self, loop: asyncio.AbstractEventLoop) -> None:
        for fd in self._request.wakeups:
            loop.remove_reader(fd)

    def _on_host(self) -> None:
        stop, live_notice = self._request.stop, self._request.live_notice
        if stop is not None and stop.is_set():
            assert self._loop is not None
            self._unfollow_host(self._loop)  # a set stop stays readable: once is enough
            if self._result is None:
                from pi_ask.state.commands import Abort

                self.complete(Abort())
        elif live_notice is not None:
            self._replace_notice(live_notice())

    def set_notice(self, text: str | None) -> None:
        """Replace the caller's notice (``notice``) from any thread, and redraw."""
        loop = self._loop
        if loop is None or threading.get_ident() == self._loop_thread:
            self._replace_notice(text)
        else:
            # The loop may have closed meanwhile: the flow is over, nothing to show.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._replace_notice, text)

    def _replace_notice(self, text: str | None) -> None:
        if text == self._notice.host:
            return
        self._notice.host = text
        if self._result is None and self._loop is not None:
            from pi_ask.state.commands import BehaviourChanged

            self.dispatch(BehaviourChanged(config_notice=self._notice.text()))

    def _tick_deadline(self) -> None:
        """Show the countdown in the last seconds; at the deadline end with ``timeout``."""
        countdown = self._countdown
        if self._result is not None or self._loop is None or countdown is None:
            return
        from pi_ask.state.commands import Abort, BehaviourChanged

        now = now_ms()
        if countdown.passed(now):
            self.dispatch(Abort(reason="timeout"))
            return
        text = countdown.due(now)
        if text is not None:
            self._notice.countdown = text
            self.dispatch(BehaviourChanged(config_notice=self._notice.text()))
        self._loop.call_later(countdown.wake_in_s(now), self._tick_deadline)

    def _schedule_reset_expiry(self) -> None:
        """Redraw when the reset window closes, so ``[confirm reset]`` turns back."""
        if self._loop is not None and self.panel is not None and self.panel.reset_armed():
            self._loop.call_later(RESET_WINDOW_S + 0.05, self.app.invalidate)

    # --- after the first frame, and the end ---------------------------------------------------

    def _after_render(self, _app: object) -> None:
        self._release_frame_waiters()
        if self._first_frame_done or self._loop is None:
            return
        self._first_frame_done = True
        if not gc.isenabled():
            # Paused for start-up by cli.main: what start-up made lives for the whole run, so
            # it is frozen out of the collector's passes. Else the first collection after the
            # frame scans all of it (60,000 objects, ~13 ms) in the way of the first key and
            # of the Markdown's frame.
            gc.freeze()
            gc.enable()
        # Let this frame reach the terminal before anything else runs.
        self._loop.call_soon(self._start_background)

    def _set_focus_reports(self, *, on: bool) -> None:
        """Turn the terminal's focus reports (DECSET 1004) on or off; they feed the filter."""
        if self.reports is None or on == self._focus_reports_on:
            return
        self._focus_reports_on = on
        with contextlib.suppress(OSError):
            self._output.write_raw(ENABLE_FOCUS_REPORTS if on else DISABLE_FOCUS_REPORTS)
            self._output.flush()

    def _ask_background_shade(self) -> None:
        """For ``auto``, ask the terminal its background once (after the first frame)."""
        auto = self._settings.theme.name == "auto"
        if not auto or self._asked_background or self.reports is None or not self._first_frame_done:
            return
        self._asked_background = True
        from pi_ask.faces.tui.background import ask_background

        ask_background(self.reports, self._write_raw, self._on_background_shade)

    def _on_background_shade(self, shade: str) -> None:
        self._background_shade = shade
        if self._result is None:
            self.app.style = theme_style(self._settings.theme, shade)
            self.app.invalidate()

    def _focused(self) -> bool | None:
        # Read from the notification thread: a plain attribute the input filter sets.
        return None if self.reports is None else self.reports.focused

    def _write_raw(self, text: str) -> None:
        with contextlib.suppress(OSError):
            self._output.write_raw(text)
            self._output.flush()

    def _start_background(self) -> None:
        if self._result is not None or self._loop is None:
            return
        self._set_focus_reports(on=True)
        self._ask_background_shade()
        if self._request.on_first_frame is not None:
            # Off the loop: an fsync on a busy disk must not hold up the first key.
            self._loop.run_in_executor(None, self._request.on_first_frame)
        self.services.start(
            questions=lambda: self._state.questions,
            complete=self.complete,
            title=self._state.title,
            loop=self._loop,
            preload=self._preload,
        )

    def _preload(self) -> None:
        """On the services' worker thread, after the first frame: the Markdown parser when
        the payload has Markdown (a redraw shows the Markdown), what the first key needs,
        then the lexers its fenced code names (a redraw colours the code)."""
        texts = tuple(_payload_texts(self._state))
        if load_markdown(texts):
            self._redraw_soon()
        _preload_first_key()
        if load_highlighting(texts):
            self._redraw_soon()

    def _redraw_soon(self) -> None:
        """From another thread: draw the next frame afresh and wait until it is drawn, so
        what the thread does next does not take turns with that frame for the interpreter
        (the Markdown's frame came ~5 ms later, of ~30, while the worker imported on)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        drawn = threading.Event()
        try:
            loop.call_soon_threadsafe(self._redraw_afresh, drawn)
        except RuntimeError:  # closed meanwhile: the flow is over
            return
        drawn.wait(FRAME_WAIT_S)

    def _release_frame_waiters(self) -> None:
        while self._frame_waiters:
            self._frame_waiters.pop().set()

    def _redraw_afresh(self, drawn: threading.Event) -> None:
        self.canvas.forget()
        self.app.invalidate()
        self._frame_waiters.append(drawn)
        if not self.app.is_running or self._result is not None:
            self._release_frame_waiters()  # no frame comes

    def _finish(self) -> None:
        if self._result is not None:
            return
        from pi_ask.state.results import build_result

        self._result = build_result(self._state)
        self.services.finished(self._result)
        if self.app.is_running and not self.app.is_done:
            with contextlib.suppress(Exception):
                self.app.exit(result=self._result)

    def _on_signal(self, number: int) -> None:
        from pi_ask.state.commands import Abort

        if self._result is None:
            self.interrupted_by = number
            self.dispatch(Abort())


_TERMINAL_GONE = frozenset({errno.EIO, errno.ENXIO, errno.EBADF, errno.EPIPE, errno.ENOTTY})


def _is_hang_up(error: OSError | EOFError) -> bool:
    """True when ``error`` says the terminal is gone (its keys ended, or it cannot be written)."""
    return isinstance(error, EOFError) or error.errno in _TERMINAL_GONE


def _payload_texts(state: AskState) -> Iterator[str]:
    """The multi-line texts of a payload that may hold Markdown."""
    for question in state.questions:
        yield question.prompt
        for option in question.options:
            yield option.description or ""
            yield option.preview or ""


def _preload_first_key() -> None:
    """What the first frame left for the first key (on the services' worker thread): the
    bindings and the engine's commands and transitions, the result classes (imported where
    they are used), the editors' completion and the review tab."""
    from pi_ask.faces.tui import file_completer, file_index, flow_bindings, review_screen
    from pi_ask.state import dispatcher, results

    del file_completer, file_index, flow_bindings, review_screen, dispatcher, results
