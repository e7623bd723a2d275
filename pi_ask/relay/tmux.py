"""Where an ask can reach the user (python-port.md §11 ``--ui auto``).

- this process's own terminal, only when it is in that terminal's foreground process group
  (a background child of an agent must never draw over its host or stop on SIGTTIN);
- a running ``pi-ask inbox`` (each one listens on ``<runtime>/<hash>.inbox``; a poke makes it
  look for new asks at once);
- inside tmux with an attached client, a popup (or a new window) running ``pi-ask attach``.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import sys
from typing import TYPE_CHECKING, Literal

from pi_ask.inbox.paths import INBOX_SUFFIX, RUNTIME_ENV, is_own_socket

if TYPE_CHECKING:
    from pathlib import Path

# subprocess, shutil and the wire are imported where needed: ``in_foreground_terminal``
# runs before the first frame of every ``pi-ask ask``.

TmuxMode = Literal["popup", "window", "off"]
# Settings and folders the attach in a popup must share with the asker: tmux runs it with
# the tmux server's environment, not ours.
_SHARED_ENV = (RUNTIME_ENV, "PI_ASK_CONFIG", "PI_ASK_STATE_DIR", "XDG_RUNTIME_DIR")


def in_foreground_terminal() -> bool:
    """True when ``/dev/tty`` opens and this process is in its foreground process group."""
    try:
        fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError:
        return False
    try:
        return os.tcgetpgrp(fd) == os.getpgrp()
    except OSError:
        return False
    finally:
        os.close(fd)


def inbox_sockets(folder: Path) -> list[Path]:
    """The inbox sockets in ``folder`` (live or not: ``poke_inboxes`` finds out)."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return [folder / n for n in names if n.endswith(INBOX_SUFFIX) and is_own_socket(folder / n)]


def poke_inboxes(folder: Path) -> int:
    """Tell every running inbox to look for new asks; how many were reached.

    An inbox socket nobody listens on (its inbox died) is removed when seen.
    """
    from pi_ask.inbox import wire

    reached = 0
    for path in inbox_sockets(folder):
        try:
            connection = wire.connect(os.fspath(path), timeout_s=2.0)
        except (ConnectionRefusedError, FileNotFoundError):
            with contextlib.suppress(OSError):
                os.unlink(path)
            continue
        except OSError:
            continue
        try:
            if connection.send({"type": "poke"}):
                reached += 1
        finally:
            connection.close()
    return reached


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
