"""Live config reload: a saved config file reaches an open flow (python-port.md §4).

A real ``AskFlow`` runs in-process on a pipe input, drawing into a pyte screen. The
benchmark saves the config file as editors do (write a temporary file beside it, then
rename it over the old one) with ``show_footer_hints`` flipped, and times the save until
a frame drawn with the new setting is on the screen (the footer hints gone, or back).
"""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

import pyte

RELOADS = 7
HINT = "? settings"  # a footer hint of the first screen of payload_a
TIMEOUT_S = 10.0


@dataclass(frozen=True, slots=True)
class ReloadTiming:
    """Save-to-frame latency of ``reloads`` saves, in milliseconds."""

    reloads: int
    median_ms: float
    max_ms: float
    watch_interval_ms: float


def _config_text(hints: bool) -> str:
    return f"[behaviour]\nshow_footer_hints = {'true' if hints else 'false'}\n"


def save_like_an_editor(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file in ``path``'s folder, then rename it over ``path``."""
    temporary = path.with_name(f".{path.name}.swp")
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


class _Screen:
    """A text stream that feeds a pyte screen."""

    encoding = "utf-8"

    def __init__(self, columns: int, rows: int) -> None:
        self.screen = pyte.Screen(columns, rows)
        self._stream = pyte.Stream(self.screen)

    def write(self, data: str) -> int:
        self._stream.feed(data)
        return len(data)

    def flush(self) -> None:
        pass

    def shows(self, text: str) -> bool:
        return any(text in line for line in self.screen.display)


async def _reload_times(workdir: Path, payload: str) -> list[float]:
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output.vt100 import Vt100_Output

    from pi_ask.ask.face import FaceRequest
    from pi_ask.config.store import SettingsStore
    from pi_ask.contract.loading import LoadedPayload, load_payload
    from pi_ask.faces.tui.flow import AskFlow
    from pi_ask.state.commands import Abort
    from pi_ask.state.opening import new_state

    config = workdir / "reload.toml"
    config.write_text(_config_text(True), encoding="utf-8")
    loaded = load_payload(payload)
    assert isinstance(loaded, LoadedPayload), loaded
    sink = _Screen(100, 40)
    size = Size(rows=40, columns=100)
    output = Vt100_Output(sink, lambda: size, enable_cpr=False)  # type: ignore[arg-type]
    rendered = asyncio.Event()
    times: list[float] = []
    with create_pipe_input() as pipe:
        request = FaceRequest(SettingsStore(config))
        flow = AskFlow(new_state(loaded.payload), request, input=pipe, output=output)
        flow.app.after_render += lambda _app: rendered.set()
        task = asyncio.ensure_future(flow.run_async())
        await rendered.wait()
        assert sink.shows(HINT), "the first frame has no footer hints"
        await asyncio.sleep(0.3)  # the watcher starts right after the first frame
        for index in range(RELOADS):
            hints = index % 2 == 1
            # Saves land at different points of the watcher's polling period.
            await asyncio.sleep(0.1 + 0.037 * index)
            rendered.clear()
            start = time.perf_counter()
            save_like_an_editor(config, _config_text(hints))
            while sink.shows(HINT) != hints:
                await asyncio.wait_for(rendered.wait(), TIMEOUT_S)
                rendered.clear()
            times.append(time.perf_counter() - start)
        flow.dispatch(Abort())
        await task
    return times


def measure_reload(workdir: Path, payload: str) -> ReloadTiming:
    """Time ``RELOADS`` editor-style saves of the config file into an open flow."""
    from pi_ask.ask import services

    times = asyncio.run(_reload_times(workdir, payload))
    interval = getattr(services, "WATCH_INTERVAL_S", None)  # a detail that may move
    return ReloadTiming(
        reloads=len(times),
        median_ms=round(statistics.median(times) * 1000, 1),
        max_ms=round(max(times) * 1000, 1),
        watch_interval_ms=float(interval) * 1000 if interval is not None else float("nan"),
    )
