from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.terminal import Terminal, child_env, pi_ask_command

PAYLOADS = Path(__file__).resolve().parents[1] / "fixtures" / "payloads"
PAYLOAD_A = Path(__file__).resolve().parents[1] / "faces" / "tui" / "fixtures" / "payload_a.json"


@pytest.fixture
def spawn(tmp_path: Path) -> Iterator[object]:
    """Start ``pi-ask ARGS`` on a pty; stdout goes to ``tmp_path / 'stdout.json'``."""
    started: list[Terminal] = []

    def start(*args: str, width: int = 80, height: int = 24, **env: str) -> Terminal:
        terminal = Terminal(
            [*pi_ask_command(), *args],
            stdout=tmp_path / "stdout.json",
            env=child_env(tmp_path / "config.toml", tmp_path / "state", **env),
            width=width,
            height=height,
            cwd=tmp_path,
        )
        started.append(terminal)
        return terminal

    yield start
    for terminal in started:
        terminal.kill()
