"""The waiting screen of ``pi-ask inbox``: idle, or the numbered list of waiting asks.

It shows ``lines`` until the user picks an entry (Enter: the first; 1-9: that one), quits
(q, Esc, Ctrl+C), or ``changed`` says the list is out of date (checked on a worker thread;
``changed`` may block up to a second). Drawn inline on the controlling terminal.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Sequence
from typing import Literal

from prompt_toolkit.application import Application
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import Layout
from prompt_toolkit.layout.containers import Window
from prompt_toolkit.layout.controls import FormattedTextControl

from pi_ask.faces.tui.terminal import open_terminal

Choice = int | Literal["quit", "rescan"]


def run_inbox_screen(lines: Sequence[str], choices: int, changed: Callable[[], bool]) -> Choice:
    """Show the screen; the 0-based entry picked, ``"quit"`` or ``"rescan"``.

    Raises:
        OSError: There is no controlling terminal.
    """
    terminal = open_terminal()
    bindings = KeyBindings()
    app: Application[Choice]

    @bindings.add("q")
    @bindings.add("c-c")
    @bindings.add("escape")
    def _quit(_event: KeyPressEvent) -> None:
        app.exit(result="quit")

    @bindings.add("enter")
    def _first(_event: KeyPressEvent) -> None:
        if choices:
            app.exit(result=0)

    def pick(number: int) -> Callable[[KeyPressEvent], None]:
        def handler(_event: KeyPressEvent) -> None:
            if number <= choices:
                app.exit(result=number - 1)

        return handler

    for number in range(1, 10):
        bindings.add(str(number))(pick(number))

    app = Application(
        layout=Layout(Window(FormattedTextControl("\n".join(lines)), always_hide_cursor=True)),
        key_bindings=bindings,
        full_screen=False,
        erase_when_done=True,
        input=terminal.input,
        output=terminal.output,
    )
    done = threading.Event()

    def rescan() -> None:
        if app.is_running and not app.is_done:
            app.exit(result="rescan")

    def watch() -> None:
        while not done.is_set():
            if changed():
                with contextlib.suppress(RuntimeError):
                    app.loop.call_soon_threadsafe(rescan)  # type: ignore[union-attr]
                return

    try:
        app.pre_run_callables.append(
            lambda: threading.Thread(target=watch, name="pi-ask inbox watch", daemon=True).start()
        )
        return app.run(handle_sigint=False)
    finally:
        done.set()
        terminal.close()
