"""Modules and resident memory of ``pi-ask ask`` at its first frame, and once settled."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pexpect

# What the first frame does not need (python-port.md §8): notification back ends, the
# config model and editor, LLM clients, a file watcher library, an HTTP client, and for a
# payload without Markdown syntax the Markdown parser and the highlighter.
HEAVY = (
    "apprise",
    "pydantic",
    "pydantic_settings",
    "openai",
    "tomlkit",
    "mcp",
    "watchfiles",
    "requests",
    "markdown_it",
    "pygments",
)
SETTLE_S = 1.0
HARNESS = Path(__file__).with_name("first_frame_modules.py")


@dataclass(frozen=True, slots=True)
class LoadedModules:
    """What one ``pi-ask ask`` process held.

    Attributes:
        heavy_at_first_frame: Top-level ``HEAVY`` packages imported before the first frame.
        heavy_settled: The same, ``settle_s`` after it (watcher and notification started).
        rss_first_frame_mib: Resident memory at the first frame.
        rss_settled_mib: Resident memory ``settle_s`` after it.
    """

    modules_at_first_frame: int
    pi_ask_modules: int
    heavy_at_first_frame: tuple[str, ...]
    heavy_settled: tuple[str, ...]
    rss_first_frame_mib: float
    rss_settled_mib: float
    settle_s: float


def heavy_in(modules: list[str]) -> tuple[str, ...]:
    """The ``HEAVY`` top-level packages among ``modules``."""
    return tuple(sorted({name.split(".")[0] for name in modules} & set(HEAVY)))


def measure_loaded_modules(env: Mapping[str, str], payload: Path, out: Path) -> LoadedModules:
    """Run ``pi-ask ask payload`` under the harness on a pty and read what it saved."""
    child = pexpect.spawn(
        sys.executable,
        [str(HARNESS), "ask", str(payload)],
        env={**env, "PI_ASK_BENCH_OUT": str(out), "PI_ASK_BENCH_SETTLE_S": str(SETTLE_S)},
        dimensions=(40, 100),
    )
    child.expect(pexpect.EOF, timeout=30)
    child.close()
    data = json.loads(out.read_text(encoding="utf-8"))
    first, settled = data["first_frame"], data["settled"]
    modules: list[str] = first["modules"]
    return LoadedModules(
        modules_at_first_frame=len(modules),
        pi_ask_modules=sum(1 for name in modules if name.startswith("pi_ask")),
        heavy_at_first_frame=heavy_in(modules),
        heavy_settled=heavy_in(settled["modules"]),
        rss_first_frame_mib=round(first["rss_kib"] / 1024, 1),
        rss_settled_mib=round(settled["rss_kib"] / 1024, 1),
        settle_s=SETTLE_S,
    )
