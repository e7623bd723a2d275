"""Inside tmux with an attached client, an ask opens in a popup (or a new window) running
``pi-ask attach`` (python-port.md §11 ``--ui auto``, ``[inbox] tmux``)."""

from __future__ import annotations

import os
import shlex
import sys
from typing import Literal

from pi_ask.relay.paths import RUNTIME_ENV

TmuxMode = Literal["popup", "window", "off"]
# Settings and folders the attach in a popup must share with the asker: tmux runs it with
# the tmux server's environment, not ours.
_SHARED_ENV = (RUNTIME_ENV, "PI_ASK_CONFIG", "PI_ASK_STATE_DIR", "XDG_RUNTIME_DIR")


def tmux_reachable() -> bool:
    """True when a tmux server may take a popup: this process runs inside tmux."""
    return bool(os.environ.get("TMUX"))


def tmux_client_attached() -> bool:
    """True inside tmux ($TMUX set) when the tmux server has at least one attached client."""
    import shutil
    import subprocess

    if not os.environ.get("TMUX") or shutil.which("tmux") is None:
        return False
    try:
        done = subprocess.run(
            ["tmux", "list-clients", "-F", "#{client_name}"],
            check=False,
            capture_output=True,
            text=True,
            timeout=5,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0 and bool(done.stdout.strip())


def attach_command(ask_id: str) -> str:
    """The shell command that answers ``ask_id``, with the folders the asker uses."""
    env = [f"{name}={os.environ[name]}" for name in _SHARED_ENV if os.environ.get(name)]
    argv = [sys.executable, "-m", "pi_ask", "attach", ask_id]
    return shlex.join(["env", *env, *argv]) if env else shlex.join(argv)


def open_in_tmux(ask_id: str, mode: TmuxMode, cwd: str) -> bool:
    """Start ``pi-ask attach ask_id`` in a tmux popup or window; ``True`` when tmux took it.

    The popup command blocks until the popup closes, so it runs detached from us.
    """
    import subprocess

    command = attach_command(ask_id)
    if mode == "popup":
        argv = ["tmux", "display-popup", "-E", "-w", "90%", "-h", "80%", "-T", " pi-ask "]
    else:
        argv = ["tmux", "new-window", "-n", "pi-ask"]
    if cwd:
        argv += ["-d" if mode == "popup" else "-c", cwd]
    argv.append(command)
    try:
        process = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        return False
    if mode == "window":
        return process.wait(timeout=10) == 0
    # A popup that cannot open fails at once; one that opened runs until it is answered.
    try:
        return process.wait(timeout=0.5) == 0
    except subprocess.TimeoutExpired:
        return True
