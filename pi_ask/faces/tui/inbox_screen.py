"""The waiting screen of ``pi-ask inbox``: idle, or the numbered list of waiting asks.

It shows ``lines`` (a header, one line per entry, a hint) until the user picks an entry
(Enter: the highlighted one, the oldest at first; 1-9: that one), quits (q, Esc, Ctrl+C), or
the asks folder's watch says the list is out of date: its descriptor waits in the screen's
event loop, so nothing looks before it is told (a watch that polls is asked on a worker
thread instead). A list longer than the terminal scrolls with the highlight (arrows,
PgUp/PgDn, Home/End) and the header and the hint always show. Drawn inline on the
controlling terminal.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal

from prompt_toolkit.application import Application
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import Layout
from prompt_toolkit.layout.containers import Window
from prompt_toolkit.layout.controls import FormattedTextControl

from pi_ask.faces.tui.scrolling import more_label

if TYPE_CHECKING:
    from pi_ask.relay.watch import FolderWatch
from pi_ask.faces.tui.terminal import open_terminal

Choice = int | Literal["quit", "rescan"]


def run_inbox_screen(lines: Sequence[str], choices: int, changes: FolderWatch) -> Choice:
    """Show the screen; the 0-based entry picked, ``"quit"`` or ``"rescan"``.

    Raises:
        OSError: There is no controlling terminal.
    """
    terminal = open_terminal()
    bindings = KeyBindings()
    app: Application[Choice]
    view = _ListView(lines, choices)

    @bindings.add("q")
    @bindings.add("c-c")
    @bindings.add("escape")
    def _quit(_event: KeyPressEvent) -> None:
        app.exit(result="quit")

    @bindings.add("enter")
    def _open(_event: KeyPressEvent) -> None:
        if choices:
            app.exit(result=view.selected)

    def pick(number: int) -> Callable[[KeyPressEvent], None]:
        def handler(_event: KeyPressEvent) -> None:
            if number <= choices:
                app.exit(result=number - 1)

        return handler

    for number in range(1, 10):
        bindings.add(str(number))(pick(number))
    for key, step in (("down", 1), ("up", -1), ("pagedown", 0), ("pageup", 0)):
        bindings.add(key)(_mover(view, key, step, lambda: app.output.get_size().rows))
    bindings.add("home")(lambda _event: view.move_to(0))
    bindings.add("end")(lambda _event: view.move_to(choices - 1))

    app = Application(
        layout=Layout(
            Window(
                FormattedTextControl(lambda: view.text(app.output.get_size().rows)),
                always_hide_cursor=True,
            )
        ),
        key_bindings=bindings,
        full_screen=False,
        erase_when_done=True,
        input=terminal.input,
        output=terminal.output,
        # In the main thread SIGWINCH tells the screen its size; elsewhere it is asked.
        terminal_size_polling_interval=None if _in_main_thread() else 0.5,
    )
    done = threading.Event()

    def rescan() -> None:
        if app.is_running and not app.is_done:
            app.exit(result="rescan")

    def on_change() -> None:
        if changes.drain():
            rescan()

    def poll(loop: asyncio.AbstractEventLoop | None) -> None:
        # The loop is taken while the screen runs: once it has ended ``app.loop`` is None,
        # and a change seen after that (the opened ask's own drafts) must say nothing.
        while not done.is_set():
            if changes.wait(1.0):  # the cap lets this thread end with the screen
                if loop is not None and not done.is_set():
                    with contextlib.suppress(RuntimeError):  # closed meanwhile
                        loop.call_soon_threadsafe(rescan)
                return

    def follow() -> None:
        if changes.polls:
            threading.Thread(
                target=poll, args=(app.loop,), name="pi-ask inbox watch", daemon=True
            ).start()
        else:
            app.loop.add_reader(changes.fileno(), on_change)  # type: ignore[union-attr]

    try:
        app.pre_run_callables.append(follow)
        return app.run(handle_sigint=False)
    finally:
        done.set()
        if not changes.polls and app.loop is not None:
            with contextlib.suppress(RuntimeError, ValueError):
                app.loop.remove_reader(changes.fileno())
        terminal.close()


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def _mover(
    view: _ListView, key: str, step: int, rows: Callable[[], int]
) -> Callable[[KeyPressEvent], None]:
    def handler(_event: KeyPressEvent) -> None:
        page = max(1, view.visible(rows()))
        view.move_by(step if step else (page if key == "pagedown" else -page))

    return handler


class _ListView:
    """The entries of the list that fit, around the highlighted one."""

    def __init__(self, lines: Sequence[str], choices: int) -> None:
        if choices:
            self._header, self._entries, self._hint = lines[0], list(lines[1:-1]), lines[-1]
        else:
            self._header, self._entries, self._hint = "\n".join(lines), [], ""
        self.selected = 0
        self._top = 0

    def visible(self, rows: int) -> int:
        """How many entries fit: the header, the hint and a line for each "more" mark."""
        if len(self._entries) + 2 <= rows:
            return len(self._entries)
        return max(1, rows - 4)

    def move_by(self, delta: int) -> None:
        self.move_to(self.selected + delta)

    def move_to(self, index: int) -> None:
        if self._entries:
            self.selected = max(0, min(len(self._entries) - 1, index))

    def text(self, rows: int) -> StyleAndTextTuples:
        if not self._entries:
            return [("", self._header)]
        shown = self.visible(rows)
        if self.selected < self._top:
            self._top = self.selected
        elif self.selected >= self._top + shown:
            self._top = self.selected - shown + 1
        self._top = max(0, min(self._top, len(self._entries) - shown))
        out: StyleAndTextTuples = [("", self._header + "\n")]
        scrolls = shown < len(self._entries)
        if scrolls:
            out.append(("", f"  {more_label('up', self._top)}\n" if self._top else "\n"))
        for index in range(self._top, self._top + shown):
            style = "reverse" if index == self.selected and len(self._entries) > 1 else ""
            out.append((style, self._entries[index]))
            out.append(("", "\n"))
        if scrolls:
            below = len(self._entries) - self._top - shown
            out.append(("", f"  {more_label('down', below)}\n" if below else "\n"))
        out.append(("", self._hint))
        return out
