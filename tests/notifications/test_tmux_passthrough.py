"""The terminal channel inside a real tmux: the outer terminal receives the sequence.

A private tmux server (``tmux -L``) runs in a pseudo-terminal that stands for the outer
terminal (kitty, iTerm2, WezTerm); its pane sends a notification through the terminal
channel; what tmux writes to its client is read back from the pty.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

# The pane's program: once told the client is attached (a line on stdin), send through the
# terminal channel to the pane's tty, then wait. tmux passes a sequence through only to the
# clients attached when it is written, so sending at start would race the attach.
SENDER = """
import sys
print("READY", flush=True)
sys.stdin.readline()
from pi_ask.notifications.channel import CancelScope, Notification, SendContext
from pi_ask.notifications.channels.terminal import TerminalChannel

def write(text):
    sys.stdout.write(text)
    sys.stdout.flush()

detail = TerminalChannel().send(
    Notification(title="pi ask", message="Question waiting: Database"),
    SendContext(write, 5, CancelScope()),
)
print("SENT:" + detail.replace(" ", "_"), flush=True)
sys.stdin.readline()
"""

OSC9 = b"\x1b]9;Question waiting: Database\x07"
OSC777 = b"\x1b]777;notify;pi ask;Question waiting: Database\x07"
OSC99 = b"\x1b]99;i=pi-ask:d=0;pi ask\x1b\\\x1b]99;i=pi-ask:p=body;Question waiting: Database\x1b\\"


@pytest.fixture
def tmux_server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    name = f"i18-{uuid.uuid4().hex[:10]}"
    config = tmp_path / "tmux.conf"
    config.write_text("set -g allow-passthrough on\nset -g status off\n", encoding="utf-8")
    try:
        yield name, config
    finally:
        subprocess.run(["tmux", "-L", name, "kill-server"], capture_output=True, check=False)


def _new_session(name: str, config: Path) -> list[str]:
    size = ["-x", "80", "-y", "24"]
    return ["-L", name, "-f", str(config), "new-session", *size, sys.executable, "-c", SENDER]


def _environment(extra: dict[str, str]) -> dict[str, str]:
    keep = ("PATH", "HOME", "LANG", "LC_ALL", "VIRTUAL_ENV")
    env = {key: os.environ[key] for key in keep if key in os.environ}
    env.update({"TERM": "xterm-256color", "LC_ALL": "C.UTF-8", **extra})
    return env


def _attached(child: pexpect.spawn) -> None:
    """Wait until the client draws the pane (it is attached), then let the pane send."""
    child.expect_exact("READY", timeout=60)
    child.send("\r")


@pytest.mark.parametrize(
    ("terminal", "environ", "expected"),
    [
        ("kitty", {"KITTY_WINDOW_ID": "1"}, OSC99),
        ("iTerm2", {"LC_TERMINAL": "iTerm2", "ITERM_SESSION_ID": "w0t0p0"}, OSC9),
        ("WezTerm", {"WEZTERM_PANE": "0"}, OSC777),
        ("Windows Terminal", {"WT_SESSION": "0b8c2d6e"}, OSC777),
    ],
)
def test_the_outer_terminal_receives_the_unwrapped_sequence(
    tmux_server: tuple[str, Path], terminal: str, environ: dict[str, str], expected: bytes
) -> None:
    name, config = tmux_server
    child = pexpect.spawn(
        "tmux",
        _new_session(name, config),
        env=_environment(environ),
        dimensions=(24, 80),
    )
    child.delaybeforesend = None
    try:
        _attached(child)
        # tmux hands the passthrough body to its client as the plain sequence.
        child.expect_exact(expected, timeout=60)
        alert = expected.split(b";")[0][2:].decode()
        child.expect_exact(f"SENT:osc{alert}_for_{terminal.replace(' ', '_')}", timeout=60)
    finally:
        child.terminate(force=True)


def test_without_allow_passthrough_tmux_drops_the_sequence_and_rings(
    tmux_server: tuple[str, Path],
) -> None:
    name, config = tmux_server
    config.write_text(
        "set -g allow-passthrough off\nset -g status off\nset -g bell-action any\n"
        "set -g visual-bell off\n",
        encoding="utf-8",
    )
    child = pexpect.spawn(
        "tmux",
        _new_session(name, config),
        env=_environment({"KITTY_WINDOW_ID": "1"}),
        dimensions=(24, 80),
    )
    child.delaybeforesend = None
    try:
        _attached(child)
        child.expect_exact("SENT:osc99_for_kitty_through_tmux", timeout=60)
        seen = child.before or b""
        if b"\x07" not in seen:  # tmux may pass the bell on after redrawing the text
            child.expect_exact(b"\x07", timeout=60)
            seen += child.before or b""
        assert b"]99;" not in seen
    finally:
        child.terminate(force=True)
