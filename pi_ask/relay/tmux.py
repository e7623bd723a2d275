"""With a tmux client attached, an ask opens in a popup (or a new window) running
``pi-ask attach`` (python-port.md §11 ``--ui auto``, ``[inbox] tmux``).

The server is the one this process runs inside (``$TMUX``), or, when a host stripped that
variable, this user's default server; the popup then goes to the client showing the pane
this process runs under (one of its ancestors is the pane's shell).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from pi_ask.face_table import TmuxMode
from pi_ask.relay.paths import RUNTIME_ENV

# Settings and folders the attach in a popup must share with the asker: tmux runs it with
# the tmux server's environment, not ours.
_SHARED_ENV = (
    RUNTIME_ENV,
    "PI_ASK_CONFIG",
    "PI_ASK_STATE_DIR",
    "XDG_RUNTIME_DIR",
    "XDG_CONFIG_HOME",
    "XDG_STATE_HOME",
)


def tmux_reachable() -> bool:
    """True when a tmux server of this user may take a popup (no command is run).

    Inside tmux (``$TMUX``) that is its server; a host that strips ``$TMUX`` from its tools'
    environment (Codex passes a handful of variables) still leaves this user's default tmux
    socket, ``${TMUX_TMPDIR:-/tmp}/tmux-<uid>/default``.
    """
    return bool(os.environ.get("TMUX")) or _default_socket() is not None


def _default_socket() -> Path | None:
    """This user's default tmux socket, when it is a socket this user owns."""
    from pi_ask.relay.paths import is_own_socket

    folder = Path(os.environ.get("TMUX_TMPDIR") or "/tmp") / f"tmux-{os.getuid()}"
    path = folder / "default"
    return path if is_own_socket(path) else None


def _server() -> list[str] | None:
    """The tmux arguments naming the server: none inside tmux, else the default socket."""
    if os.environ.get("TMUX"):
        return []
    socket = _default_socket()
    return ["-S", os.fspath(socket)] if socket is not None else None


def _tmux(*args: str) -> str | None:
    """The output of one tmux command against the server, or ``None`` when it fails."""
    import shutil
    import subprocess

    server = _server()
    if server is None or shutil.which("tmux") is None:
        return None
    try:
        done = subprocess.run(
            ["tmux", *server, *args],
            check=False,
            capture_output=True,
            text=True,
            timeout=5,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def tmux_client_attached() -> bool:
    """True when the tmux server (``tmux_reachable``) has at least one attached client."""
    listed = _tmux("list-clients", "-F", "#{client_name}")
    return bool(listed and listed.strip())


def _ancestors() -> set[int]:
    """The process ids above this one (Linux's /proc; elsewhere none are known)."""
    found: set[int] = set()
    pid = os.getpid()
    while pid > 1 and pid not in found:
        found.add(pid)
        try:
            stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8", errors="replace")
            pid = int(stat.rpartition(")")[2].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return found


def target_client() -> str | None:
    """Without ``$TMUX``: the client that shows the pane this process runs under (its shell
    is one of our ancestors), else the client used last; ``None`` inside tmux (tmux picks)."""
    if os.environ.get("TMUX"):
        return None
    panes = _tmux("list-panes", "-a", "-F", "#{pane_pid} #{session_id}") or ""
    ancestors = _ancestors()
    ours = {
        session
        for pid, _, session in (line.partition(" ") for line in panes.splitlines())
        if pid.isdigit() and int(pid) in ancestors
    }
    clients = []
    for line in (
        _tmux("list-clients", "-F", "#{client_activity} #{session_id} #{client_name}") or ""
    ).splitlines():
        activity, session, name = [*line.split(" ", 2), "", ""][:3]
        if name and activity.isdigit():
            clients.append((session in ours, int(activity), name))
    return max(clients)[2] if clients else None


def attach_command(ask_id: str) -> str:
    """The shell command that answers ``ask_id``, with the folders the asker uses."""
    env = [f"{name}={os.environ[name]}" for name in _SHARED_ENV if os.environ.get(name)]
    argv = [sys.executable, "-m", "pi_ask", "attach", ask_id]
    import shlex  # only when a popup opens

    return shlex.join(["env", *env, *argv]) if env else shlex.join(argv)


def open_in_tmux(ask_id: str, mode: TmuxMode, cwd: str) -> bool:
    """Start ``pi-ask attach ask_id`` in a tmux popup or window; ``True`` when tmux took it.

    The popup command blocks until the popup closes, so it runs detached from us.
    """
    import subprocess

    command = attach_command(ask_id)
    server = _server()
    if server is None:
        return False
    client = target_client()
    if mode == "popup":
        argv = ["tmux", *server, "display-popup", "-E", "-w", "90%", "-h", "80%", "-T", " pi-ask "]
        if client is not None:
            argv += ["-c", client]
    else:
        argv = ["tmux", *server, "new-window", "-n", "pi-ask"]
        if client is not None:
            session = (_tmux("display-message", "-c", client, "-p", "#{session_id}") or "").strip()
            if session:
                argv += ["-t", f"{session}:"]
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
