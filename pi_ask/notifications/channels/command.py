"""The command channel: ``{ type = "command", command = "..." }`` run through the shell.

The notification reaches the command only through ``ASK_NOTIFY_EVENT``, ``ASK_NOTIFY_TITLE``,
``ASK_NOTIFY_MESSAGE`` and ``ASK_NOTIFY_LINK`` (the ask's page, or empty) in its
environment, never through the command line, so payload
text cannot become shell syntax (python-port.md §7). The command
runs as ``process.run_process`` runs every helper: its own process group (killed as a whole
on timeout or when the ask ends), no controlling terminal, output kept away from our stdout.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from pi_ask.notifications.channel import ChannelError, Notification, SendContext
from pi_ask.notifications.channels.process import describe_exit, run_process


def command_environment(notification: Notification) -> dict[str, str]:
    """The command's environment: ours plus the four ``ASK_NOTIFY_*`` variables."""
    return {
        **os.environ,
        "ASK_NOTIFY_EVENT": notification.event,
        "ASK_NOTIFY_TITLE": notification.title,
        "ASK_NOTIFY_MESSAGE": notification.message,
        "ASK_NOTIFY_LINK": notification.link,
    }


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
        returncode, stderr = run_process(
            self.command, env=command_environment(notification), context=context
        )
        if returncode != 0:
            raise ChannelError(describe_exit(returncode, stderr[-1] if stderr else ""))
        return ""

    def to_plain(self) -> dict[str, str]:
        """``{"type": "command", "command": ...}``."""
        return {"type": "command", "command": self.command}
