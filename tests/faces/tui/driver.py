"""Drive an ``AskFlow`` headless: keys in through a pipe, the screen out through pyte.

Keys are pi-ask key ids (``down``, ``shift+n``, ``ctrl+c``...) turned into terminal bytes
by the keymaps' own table (``pi_ask.keymaps.terminal_bytes``); ``text:...`` types text.
Nothing sleeps: each key is sent, then the driver waits for the frame it causes.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyte
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.input.base import PipeInput
from prompt_toolkit.input.vt100_parser import Vt100Parser
from prompt_toolkit.output.color_depth import ColorDepth
from prompt_toolkit.output.vt100 import Vt100_Output

from pi_ask.ask.face import FaceRequest
from pi_ask.config.store import SettingsStore
from pi_ask.contract.loading import LoadedPayload, load_payload
from pi_ask.contract.results import ToolResult
from pi_ask.faces.tui.flow import AskFlow
from pi_ask.keymaps.terminal_bytes import terminal_bytes
from pi_ask.state.model import AskState
from pi_ask.state.opening import new_state

FIXTURES = Path(__file__).parent / "fixtures"
_WAIT_S = 60.0  # a cap on each wait for a condition, generous for a loaded machine


def key_bytes(key: str) -> str:
    """The bytes a terminal sends for a pi-ask key id, or ``text:...`` typed out."""
    if key.startswith("text:"):
        return key[len("text:") :]
    data = terminal_bytes(key)
    if data is None:
        raise ValueError(f"no terminal bytes for key {key!r}")
    return data


def key_count(data: str) -> int:
    """How many key presses prompt_toolkit reads from ``data``."""
    keys: list[object] = []
    parser = Vt100Parser(keys.append)
    parser.feed(data)
    parser.flush()
    return len(keys)


class ScreenStream:
    """A text stream that feeds everything written to it into a pyte screen."""

    encoding = "utf-8"

    def __init__(self, screen: pyte.Screen) -> None:
        self.screen = screen
        self.stream = pyte.Stream(screen)
        self.written: list[str] = []

    def write(self, data: str) -> int:
        self.written.append(data)
        self.stream.feed(data)
        return len(data)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


def state_for(payload: object, *, single_as_multi: bool = False) -> AskState:
    """A fresh state for a payload given as an object or a fixture file name."""
    if isinstance(payload, str):
        payload = json.loads((FIXTURES / payload).read_text(encoding="utf-8"))
    loaded = load_payload(
        json.dumps(payload), present_single_as_multi=single_as_multi, allow_freeform=True
    )
    assert isinstance(loaded, LoadedPayload), loaded
    return new_state(loaded.payload)


class Driver:
    """A running flow on a fake terminal of ``width`` x ``height``."""

    def __init__(
        self,
        state: AskState,
        store: SettingsStore,
        *,
        width: int = 80,
        height: int = 40,
        cwd: Path | None = None,
        on_commit: Callable[[AskState], None] | None = None,
        on_first_frame: Callable[[], None] | None = None,
        color_depth: ColorDepth | None = ColorDepth.TRUE_COLOR,
        tool_call_id: str | None = None,
        notice: str | None = None,
        attachments_folder: Path | None = None,
    ) -> None:
        self.size = Size(rows=height, columns=width)
        self.screen = pyte.Screen(width, height)
        self.stream = ScreenStream(self.screen)
        self._pipe_context = create_pipe_input()
        self.pipe: PipeInput = self._pipe_context.__enter__()
        output = Vt100_Output(
            self.stream,  # type: ignore[arg-type]
            lambda: self.size,
            term="xterm-256color",
            default_color_depth=color_depth,
            enable_cpr=False,
        )
        request = FaceRequest(
            store,
            ask_id=tool_call_id,
            on_commit=on_commit,
            on_first_frame=on_first_frame,
            notice=notice,
            attachments_folder=attachments_folder,
        )
        self.flow = AskFlow(state, request, input=self.pipe, output=output, cwd=cwd)
        self.renders = 0
        self.keys_done = 0
        self.flow.app.after_render += self._count
        self.flow.app.key_processor.after_key_press += self._key_done
        self.task: asyncio.Task[ToolResult] | None = None

    def _count(self, _app: Any) -> None:
        self.renders += 1

    def _key_done(self, _processor: Any) -> None:
        self.keys_done += 1

    async def start(self) -> Driver:
        self.task = asyncio.ensure_future(self.flow.run_async())
        await self.until(lambda: self.renders > 0)
        return self

    async def until(self, predicate: Callable[[], bool], timeout: float = _WAIT_S) -> None:
        """Let the loop run until ``predicate()`` holds (or the flow ended)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while not predicate():
            if self.task is not None and self.task.done():
                return
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError("timed out waiting for the flow")
            await asyncio.sleep(0.001)

    async def press(self, *keys: str) -> None:
        """Send each key and wait for the frame it causes."""
        for key in keys:
            await self._send(key_bytes(key))

    async def _send(self, data: str) -> None:
        """Send ``data``; wait until all its keys were handled and any redraw they asked for."""
        target = self.keys_done + key_count(data)
        self.pipe.send_text(data)
        app = self.flow.app

        def settled() -> bool:
            # A lone Esc waits (timeoutlen) in the key buffer as a possible Alt prefix.
            idle = not app.key_processor.key_buffer and not app.invalidated
            return self.keys_done >= target and idle

        await self.until(settled)

    async def resize(self, width: int, height: int) -> None:
        self.size = Size(rows=height, columns=width)
        self.screen.resize(height, width)
        before = self.renders
        self.flow.app._on_resize()
        await self.until(lambda: self.renders > before)

    def lines(self) -> list[str]:
        """The screen, each line with trailing spaces removed, trailing blank lines dropped."""
        lines = [line.rstrip() for line in self.screen.display]
        while lines and not lines[-1]:
            lines.pop()
        return lines

    def raw_lines(self) -> list[str]:
        return list(self.screen.display)

    def find(self, text: str) -> tuple[int, int]:
        """Row and column of the first occurrence of ``text`` on the screen."""
        for row, line in enumerate(self.screen.display):
            column = line.find(text)
            if column >= 0:
                return row, column
        raise AssertionError(f"{text!r} is not on the screen:\n" + "\n".join(self.lines()))

    def style_at(self, row: int, column: int) -> pyte.screens.Char:
        return self.screen.buffer[row][column]

    async def result(self) -> ToolResult:
        assert self.task is not None
        return await asyncio.wait_for(self.task, _WAIT_S)

    async def close(self) -> None:
        if self.task is not None and not self.task.done():
            from pi_ask.state.commands import Abort

            self.flow.dispatch(Abort())
            await asyncio.wait_for(self.task, _WAIT_S)
        self._pipe_context.__exit__(None, None, None)


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)
