"""``pi-ask settings``: the overlay on its own, and the subcommand."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pyte
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from pi_ask.config.store import SettingsStore
from pi_ask.faces.tui.settings_app import SettingsApp
from tests.child_processes import run_pi_ask
from tests.faces.tui.driver import ScreenStream, key_bytes, run


def test_overlay_alone_toggles_and_closes(store: SettingsStore) -> None:
    screen = pyte.Screen(80, 40)
    stream = ScreenStream(screen)
    output = Vt100_Output(stream, lambda: Size(40, 80), enable_cpr=False)  # type: ignore[arg-type]

    async def scenario() -> int:
        with create_pipe_input() as pipe:
            app = SettingsApp(store, input=pipe, output=output)
            rendered = asyncio.Event()
            app.app.after_render += lambda _app: rendered.set()
            task = asyncio.ensure_future(app.app.run_async())
            await rendered.wait()
            display = "\n".join(screen.display)
            assert "pi-ask settings" in display
            assert str(store.path)[:20] in display
            for key in ("down", "enter"):
                rendered.clear()
                pipe.send_text(key_bytes(key))
                await rendered.wait()
            assert store.snapshot().behaviour.confirm_dismiss_when_dirty is False
            pipe.send_text(key_bytes("?"))
            status = await task
            app._unsubscribe()
            return status

    assert run(scenario()) == 0
    assert "confirm_dismiss_when_dirty = false" in store.path.read_text(encoding="utf-8")


def test_settings_without_a_terminal_exits_2(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PI_ASK_")}
    env["PI_ASK_CONFIG"] = str(tmp_path / "config.toml")
    done = run_pi_ask("settings", env=env)  # no controlling terminal
    assert done.returncode == 2
    assert done.stdout == ""
    assert "needs a terminal" in done.stderr


def test_overlay_alone_sits_where_the_flow_draws_it_and_fits_80x24(store: SettingsStore) -> None:
    """Centred in its columns as in a flow (columns 5-76 of 80), whole at 80x24."""
    screen = pyte.Screen(80, 24)
    stream = ScreenStream(screen)
    output = Vt100_Output(stream, lambda: Size(24, 80), enable_cpr=False)  # type: ignore[arg-type]

    async def scenario() -> list[str]:
        with create_pipe_input() as pipe:
            app = SettingsApp(store, input=pipe, output=output)
            rendered = asyncio.Event()
            app.app.after_render += lambda _app: rendered.set()
            task = asyncio.ensure_future(app.app.run_async())
            await rendered.wait()
            lines = list(screen.display)
            pipe.send_text(key_bytes("esc"))
            await task
            app._unsubscribe()
            return lines

    lines = run(scenario())
    top = next(i for i, line in enumerate(lines) if "╭" in line)
    bottom = next(i for i, line in enumerate(lines) if "╰" in line)
    assert lines[top].index("╭") == 4 and lines[top].index("╮") == 75
    assert lines[bottom].index("╰") == 4
    shown = "\n".join(lines)
    assert "more" not in shown  # every row at once
    assert "[reset all]" in shown  # the last row
    assert "to close" in shown


def test_overlay_alone_follows_a_hand_edit_of_the_file(store: SettingsStore) -> None:
    """As the ``?`` overlay inside an ask does: a saved edit shows without reopening."""
    screen = pyte.Screen(80, 40)
    stream = ScreenStream(screen)
    output = Vt100_Output(stream, lambda: Size(40, 80), enable_cpr=False)  # type: ignore[arg-type]

    async def scenario() -> int:
        with create_pipe_input() as pipe:
            app = SettingsApp(store, input=pipe, output=output)
            rendered = asyncio.Event()
            app.app.after_render += lambda _app: rendered.set()
            task = asyncio.ensure_future(app.run_async())
            await rendered.wait()
            assert store.snapshot().behaviour.show_footer_hints is True
            text = store.path.read_text(encoding="utf-8")
            edited = text.replace("show_footer_hints = true", "show_footer_hints = false")
            assert edited != text
            store.path.write_text(edited, encoding="utf-8")
            while store.snapshot().behaviour.show_footer_hints:  # the watcher's next look
                rendered.clear()
                await asyncio.wait_for(rendered.wait(), 10)
            pipe.send_text(key_bytes("?"))
            return await task

    assert run(scenario()) == 0
