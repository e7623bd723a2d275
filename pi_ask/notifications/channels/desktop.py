"""The ``desktop`` channel: the platform's own notification, wherever the machine has one.

Linux (and Windows): desktop-notifier, which speaks the freedesktop notification service
over the D-Bus session bus through dbus-fast (pure wheels, unlike dbus-python, which
apprise's ``dbus://`` needs), run in a helper process (``desktop_helper``), which opens the
ask's page when the notification is clicked. macOS: ``osascript``'s ``display
notification`` (a script outside an app bundle cannot use the notification center directly,
nor learn of a click). A machine without any of these (no session bus, no
notification service, a headless box) makes the channel "unavailable", not failed.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass

from pi_ask.notifications.channel import (
    ChannelError,
    ChannelSkipped,
    ChannelUnavailable,
    Notification,
    SendContext,
)
from pi_ask.notifications.channels.process import describe_exit, run_process

# One AppleScript, the texts as its arguments: nothing in them is ever script syntax.
_APPLESCRIPT = (
    "on run argv",
    "display notification (item 2 of argv) with title (item 1 of argv)",
    "end run",
)
_HELPER = "pi_ask.notifications.channels.desktop_helper"
_FAILED, _UNAVAILABLE = 1, 3  # desktop_helper's statuses; that module is not imported here


def desktop_problem(environ: Mapping[str, str], platform: str) -> str | None:
    """Why no desktop notification can work here, without trying; ``None`` when one may.

    Example:
        >>> desktop_problem({}, "linux")
        'no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)'
    """
    if platform in ("darwin", "win32"):
        return None
    if not environ.get("DBUS_SESSION_BUS_ADDRESS") and not environ.get("DISPLAY"):
        return "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)"
    return None


def _send_macos(notification: Notification, context: SendContext) -> str:
    argv = ["osascript"]
    for line in _APPLESCRIPT:
        argv += ["-e", line]
    argv += [notification.title, notification.message]
    try:
        returncode, stderr = run_process(argv, env=os.environ, context=context, what="osascript")
    except ChannelError as err:
        if "No such file" in str(err):
            raise ChannelUnavailable("osascript is not on PATH") from None
        raise
    if returncode != 0:
        raise ChannelError(describe_exit(returncode, stderr[-1] if stderr else ""))
    return "macOS (osascript)"


def _send_helper(notification: Notification, context: SendContext) -> str:
    env = {
        **os.environ,
        "PI_ASK_DESKTOP_TITLE": notification.title,
        "PI_ASK_DESKTOP_MESSAGE": notification.message,
        "PI_ASK_DESKTOP_LINK": notification.link,
    }
    argv = [sys.executable, "-m", _HELPER]
    returncode, stderr = run_process(argv, env=env, context=context, what="the desktop helper")
    detail = stderr[-1] if stderr else ""  # the helper's last line says what happened
    if returncode == _UNAVAILABLE:
        raise ChannelUnavailable(detail)
    if returncode == _FAILED and detail:
        raise ChannelError(detail)
    if returncode != 0:
        raise ChannelError(describe_exit(returncode, detail))
    return detail


@dataclass(frozen=True, slots=True)
class DesktopChannel:
    """Shows a native desktop notification (freedesktop, macOS, Windows)."""

    @property
    def label(self) -> str:
        """``desktop``."""
        return "desktop"

    def send(self, notification: Notification, context: SendContext) -> str:
        """Show the notification; returns the back end used (``freedesktop (D-Bus)``).

        Raises:
            ChannelSkipped: A terminal channel before it already asked the terminal for a
                desktop notification.
            ChannelUnavailable: This machine has no desktop notifications.
            ChannelError: The notification service refused it or did not answer in time.
        """
        if context.reached_desktop.is_set():
            raise ChannelSkipped("the terminal's own notification already reached the desktop")
        problem = desktop_problem(os.environ, sys.platform)
        if problem is not None:
            raise ChannelUnavailable(problem)
        if sys.platform == "darwin":
            return _send_macos(notification, context)
        return _send_helper(notification, context)

    def to_plain(self) -> str:
        """``"desktop"``."""
        return "desktop"
