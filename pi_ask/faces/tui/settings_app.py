"""``pi-ask settings``: the settings overlay on its own (the reference's ``/ask-settings``)."""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyBindingsBase, merge_key_bindings
from prompt_toolkit.key_binding.key_processor import KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Layout
from prompt_toolkit.layout.containers import Window
from prompt_toolkit.output import Output

from pi_ask.ask.services import WATCH_INTERVAL_S
from pi_ask.config.settings import Settings
from pi_ask.config.store import RESET_WINDOW_S, SettingsStore
from pi_ask.faces.tui.lines_control import LinesControl
from pi_ask.faces.tui.settings_panel import SettingsPanel
from pi_ask.faces.tui.settings_screen import fit_overlay, overlay_width
from pi_ask.faces.tui.styled_text import Line, join, span
from pi_ask.faces.tui.terminal import Terminal, open_terminal, set_escape_timeout
from pi_ask.faces.tui.theme import theme_style
from pi_ask.keymaps.keymap import Keymaps
from pi_ask.keymaps.ptk_bindings import load_context_bindings


class SettingsApp:
    """The overlay as a small inline application; ``run()`` returns when it is closed."""

    def __init__(
        self, store: SettingsStore, *, input: Input | None = None, output: Output | None = None
    ) -> None:
        self.panel = SettingsPanel(store)
        self._store = store
        self._terminal: Terminal | None = None
        if input is None or output is None:
            self._terminal = open_terminal()
            input, output = self._terminal.input, self._terminal.output
        self.app: Application[int] = Application(
            layout=Layout(Window(LinesControl(self._render, self._measure))),
            key_bindings=self._bindings(),
            style=theme_style(store.snapshot().theme),
            full_screen=False,
            erase_when_done=True,
            input=input,
            output=output,
        )
        set_escape_timeout(self.app)
        self._unsubscribe = store.subscribe(self._on_settings)

    def _on_settings(self, settings: Settings) -> None:
        self.app.style = theme_style(settings.theme)
        self.app.invalidate()

    def _keymaps(self) -> Keymaps:
        return self._store.snapshot().keymaps

    def _bindings(self) -> KeyBindingsBase:
        # The overlay takes every key; its keymap context says what the bound ones do.
        swallow = KeyBindings()
        swallow.add(Keys.Any)(lambda e: None)
        modal = load_context_bindings(
            self._keymaps,
            "settings_modal",
            {
                "close": lambda e: e.app.exit(result=0),
                "next_option": self._move(1),
                "previous_option": self._move(-1),
                "toggle": self._toggle,
            },
        )
        return merge_key_bindings([swallow, modal])

    def _move(self, delta: int) -> Callable[[KeyPressEvent], None]:
        def handler(event: KeyPressEvent) -> None:
            self.panel.move(delta)

        return handler

    def _toggle(self, event: KeyPressEvent) -> None:
        self.panel.toggle()
        loop = event.app.loop
        if self.panel.reset_armed() and loop is not None:
            # Redraw when the window closes, so "[confirm reset]" turns back.
            loop.call_later(RESET_WINDOW_S + 0.05, event.app.invalidate)

    def _render(self, width: int, height: int) -> tuple[Line, ...]:
        # Centred as the flow centres its float, so the box sits in the same columns.
        inner = overlay_width(width)
        margin = span("", " " * ((width - inner) // 2))
        return tuple(join(margin, line) for line in fit_overlay(self.panel.view(), inner, height))

    def _measure(self, width: int, max_height: int) -> int:
        return len(fit_overlay(self.panel.view(), overlay_width(width), max_height))

    async def run_async(self) -> int:
        """Show the overlay until a close key; returns 0. Hand edits of the file apply while
        it is open, as in the ``?`` overlay of a flow (whose services watch the same store)."""
        import asyncio

        stop_watching = self._store.start_watching(asyncio.get_running_loop(), WATCH_INTERVAL_S)
        try:
            return await self.app.run_async(handle_sigint=False, set_exception_handler=False)
        finally:
            stop_watching()
            self._unsubscribe()
            if self._terminal is not None:
                self._terminal.close()

    def run(self) -> int:
        """``run_async`` on an event loop of its own."""
        import asyncio

        return asyncio.run(self.run_async())


def run_settings(
    store: SettingsStore, *, input: Input | None = None, output: Output | None = None
) -> int:
    """Open the settings overlay on the terminal until it is closed.

    Args:
        store: The settings store whose file the toggles write.
        input: Key source for tests; default the controlling terminal.
        output: Drawing target for tests; default the controlling terminal.

    Returns:
        0 when closed.

    Raises:
        OSError: No controlling terminal could be opened.
    """
    return SettingsApp(store, input=input, output=output).run()
