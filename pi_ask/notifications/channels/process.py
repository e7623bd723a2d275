"""Run a channel's helper process: its own session, no terminal, killed whole when abandoned.

The command channel, the apprise CLI and the desktop helper all run this way. The process
runs in a new session: it has its own process group (killed as a whole on timeout or when
the ask ends), no controlling terminal to draw on or read keys from, and its output never
reaches our stdout (which may carry the result JSON). Only the end of its stderr is kept,
for the report.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Mapping, Sequence
from typing import IO, TYPE_CHECKING

from pi_ask.notifications.channel import ChannelError, SendContext
from pi_ask.terminal_text import clean_line, truncate

if TYPE_CHECKING:
    import subprocess

# How much of the process's stderr a report quotes from.
_STDERR_TAIL = 4096
_DETAIL_LIMIT = 200
_BACKSTOP_S = 1.0


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


def _stderr_lines(stream: IO[bytes]) -> list[str]:
    # The stream is a temporary file, so a process that leaves a background child holding it
    # open cannot make us wait (a pipe would).
    end = stream.seek(0, os.SEEK_END)
    stream.seek(max(0, end - _STDERR_TAIL))
    text = stream.read().decode("utf-8", "replace")
    return [truncate(clean_line(line), _DETAIL_LIMIT) for line in text.splitlines() if line.strip()]


def describe_exit(returncode: int, stderr: str) -> str:
    """``exit status 2: <stderr>`` or ``killed by signal 9``."""
    reason = f"killed by signal {-returncode}" if returncode < 0 else f"exit status {returncode}"
    return f"{reason}: {stderr}" if stderr else reason


def run_process(
    args: str | Sequence[str],
    *,
    env: Mapping[str, str],
    context: SendContext,
    what: str = "the shell",
    stdin: bytes | None = None,
    keep_stdout: bool = False,
) -> tuple[int, list[str]]:
    """Run ``args`` (a shell line when a string) and wait, at most ``context.timeout_s``.

    Args:
        args: The command line (a shell line when a string).
        env: Its whole environment.
        context: The channel's send context: its timeout and cancel scope.
        what: What is started, for the "could not start" message.
        stdin: Bytes for its standard input (else it reads nothing).
        keep_stdout: Keep its stdout with its stderr (a tool that logs to stdout).

    Returns:
        The exit status and the non-blank lines at the end of its stderr (and stdout, with
        ``keep_stdout``), cleaned.

    Raises:
        ChannelError: It could not start, or timed out (then its process group is killed).
    """
    # subprocess is imported here: the channel list is parsed on the first-frame path.
    import subprocess
    import tempfile

    with tempfile.TemporaryFile() as stderr:
        try:
            process = subprocess.Popen(
                args,
                shell=isinstance(args, str),
                env=dict(env),
                stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,
                stdout=stderr if keep_stdout else subprocess.DEVNULL,
                stderr=stderr,
                start_new_session=True,
            )
        except OSError as err:
            raise ChannelError(f"could not start {what}: {err}") from err
        context.cancel_scope.on_cancel(lambda: _kill_group(process))
        # The dispatcher abandons the channel (and kills the group) at ``timeout_s``; this
        # wait is the backstop when nothing else is watching, so it gives the dispatcher room.
        limit = context.timeout_s + _BACKSTOP_S
        try:
            if stdin is not None:
                process.communicate(stdin, timeout=limit)
            returncode = process.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            _kill_group(process)
            process.wait()
            raise ChannelError(f"timed out after {limit:g} s") from None
        return returncode, _stderr_lines(stderr)
