"""The command channel: ``{ type = "command", command = "..." }`` run through the shell.

The notification reaches the command only through ``ASK_NOTIFY_EVENT``, ``ASK_NOTIFY_TITLE``
and ``ASK_NOTIFY_MESSAGE`` in its environment, never through the command line, so payload
text cannot become shell syntax (python-port.md §7). The command runs in a new session: it
has its own process group (killed as a whole on timeout or when the ask ends), no
controlling terminal to draw on or read keys from, and its output never reaches our stdout
(which may carry the result JSON).
"""

from __future__ import annotations

import contextlib
import os
import signal
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING

from pi_ask.notifications.channel import ChannelError, Notification, SendContext
from pi_ask.terminal_text import clean_line, truncate

if TYPE_CHECKING:
    import subprocess

# How much of the command's stderr a failure report quotes.
_STDERR_TAIL = 4096
_DETAIL_LIMIT = 200


def command_environment(notification: Notification) -> dict[str, str]:
    """The command's environment: ours plus the three ``ASK_NOTIFY_*`` variables."""
    return {
        **os.environ,
        "ASK_NOTIFY_EVENT": notification.event,
        "ASK_NOTIFY_TITLE": notification.title,
        "ASK_NOTIFY_MESSAGE": notification.message,
    }


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


def _stderr_tail(stream: IO[bytes]) -> str:
    # The stream is a temporary file, so a command that leaves a background child holding it
    # open cannot make us wait (a pipe would).
    end = stream.seek(0, os.SEEK_END)
    stream.seek(max(0, end - _STDERR_TAIL))
    text = stream.read().decode("utf-8", "replace")
    lines = [line for line in text.splitlines() if line.strip()]
    return truncate(clean_line(lines[-1]), _DETAIL_LIMIT) if lines else ""


def _failure(returncode: int, stderr: str) -> str:
    reason = f"killed by signal {-returncode}" if returncode < 0 else f"exit status {returncode}"
    return f"{reason}: {stderr}" if stderr else reason


@dataclass(frozen=True, slots=True)
class CommandChannel:
    """Runs a shell command; a non-zero exit, a timeout or a failure to start is a failure.

    Attributes:
        command: The shell command line, exactly as configured.
    """

    command: str

    @property
    def label(self) -> str:
        """``command``."""
        return "command"

    def send(self, notification: Notification, context: SendContext) -> str:
        """Run the command and wait for it, at most ``context.timeout_s`` seconds.

        Raises:
            ChannelError: The command could not start, failed, or timed out (then its whole
                process group is killed).
        """
        # subprocess is imported here: the channel list is parsed on the first-frame path.
        import subprocess
        import tempfile

        with tempfile.TemporaryFile() as stderr:
            try:
                process = subprocess.Popen(
                    self.command,
                    shell=True,
                    env=command_environment(notification),
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=stderr,
                    start_new_session=True,
                )
            except OSError as err:
                raise ChannelError(f"could not start the shell: {err}") from err
            context.cancel_scope.on_cancel(lambda: _kill_group(process))
            try:
                returncode = process.wait(timeout=context.timeout_s)
            except subprocess.TimeoutExpired:
                _kill_group(process)
                process.wait()
                raise ChannelError(f"timed out after {context.timeout_s:g} s") from None
            if returncode != 0:
                raise ChannelError(_failure(returncode, _stderr_tail(stderr)))
        return ""

    def to_plain(self) -> dict[str, str]:
        """``{"type": "command", "command": ...}``."""
        return {"type": "command", "command": self.command}
