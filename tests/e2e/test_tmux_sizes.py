"""The TUI in a real terminal (tmux): its glyph widths, and frames at awkward sizes."""

from __future__ import annotations

import shlex
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pi_ask.tui import glyphs

from .conftest import PAYLOAD_A
from .terminal import child_env, pi_ask_command
from .tmux import HAVE_TMUX, Tmux

pytestmark = [
    pytest.mark.pty,
    pytest.mark.skipif(not HAVE_TMUX, reason="tmux is not installed"),
]


@pytest.fixture
def panes() -> Iterator[list[Tmux]]:
    started: list[Tmux] = []
    yield started
    for pane in started:
        pane.close()


def test_every_glyph_takes_one_cell_in_tmux(panes: list[Tmux]) -> None:
    drawn = "".join(glyphs.ALL)
    command = f"printf '%s' {shlex.quote(drawn + 'END')}; exec cat"
    pane = Tmux(command, width=80, height=5, env={"LANG": "C.UTF-8"})
    panes.append(pane)
    pane.wait_for("END")
    assert pane.cursor_x() == len(glyphs.ALL) + len("END")
    assert pane.lines()[0] == drawn + "END"


@pytest.fixture
def ask_in_tmux(tmp_path: Path, panes: list[Tmux]) -> Callable[..., Tmux]:
    """``pi-ask ask PAYLOAD > stdout.json`` in a tmux pane of the given size."""

    def start(payload: Path, width: int, height: int) -> Tmux:
        command = " ".join(shlex.quote(part) for part in [*pi_ask_command(), "ask", str(payload)])
        env = child_env(tmp_path / "config.toml", tmp_path / "state", TERM="screen")
        env = {key: env[key] for key in ("PI_ASK_CONFIG", "PI_ASK_STATE_DIR", "TERM", "PATH")}
        env["LANG"] = "C.UTF-8"
        pane = Tmux(
            f"{command} > {shlex.quote(str(tmp_path / 'stdout.json'))}",
            width=width,
            height=height,
            env=env,
            cwd=tmp_path,
        )
        panes.append(pane)
        return pane

    return start


def test_the_tab_row_is_measured_as_tmux_draws_it(ask_in_tmux: Callable[..., Tmux]) -> None:
    pane = ask_in_tmux(PAYLOAD_A, 80, 24)
    pane.wait_for("Review  →")
    lines = pane.lines()
    assert lines[0] == "─" * 80
    assert " ←  ☐ Language   ☐ Features   ☐ Layout   ≡ Review  →" in lines
