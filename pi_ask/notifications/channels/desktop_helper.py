"""``python -m pi_ask.notifications.channels.desktop_helper``: show one desktop notification.

The desktop channel runs this in a process of its own (``process.run_process``): importing
desktop-notifier and dbus-fast and talking D-Bus then never holds the ask's interpreter
lock, a service that hangs is killed with the process, and the bus connection ends with it.

The title and message come in ``PI_ASK_DESKTOP_TITLE`` / ``PI_ASK_DESKTOP_MESSAGE``. The
last stderr line says what happened; the exit status is 0 when the notification was handed
to the service, 3 when this machine has none (``unavailable``), 1 when it failed.

desktop-notifier logs a warning instead of raising when a notification cannot be sent, and
calls ``on_dispatched`` when it was; so the helper listens to both.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys

from pi_ask.terminal_text import clean_line, truncate

APP_NAME = "pi ask"
TITLE_VARIABLE = "PI_ASK_DESKTOP_TITLE"
MESSAGE_VARIABLE = "PI_ASK_DESKTOP_MESSAGE"
SENT, FAILED, UNAVAILABLE = 0, 1, 3
_DETAIL_LIMIT = 200
# D-Bus errors that say the machine has no notification service, not that it failed.
_NO_SERVICE = (
    "org.freedesktop.DBus.Error.ServiceUnknown",
    "org.freedesktop.DBus.Error.NameHasNoOwner",
)


class _Records(logging.Handler):
    """Keeps what desktop-notifier logs while the notification is sent."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def _short(text: str) -> str:
    return truncate(clean_line(text), _DETAIL_LIMIT)


def explain(records: list[logging.LogRecord]) -> tuple[int, str]:
    """Turn desktop-notifier's logged failure into an exit status and a reason."""
    error = next((r.exc_info[1] for r in records if r.exc_info and r.exc_info[1]), None)
    if error is None:
        return FAILED, _short(records[-1].getMessage() if records else "nothing was shown")
    if getattr(error, "type", None) in _NO_SERVICE:
        return UNAVAILABLE, "no notification service on the D-Bus session bus"
    if isinstance(error, OSError):
        return UNAVAILABLE, _short(f"cannot reach the D-Bus session bus: {error}")
    if type(error).__name__ == "InvalidAddressError":
        return UNAVAILABLE, _short(f"no D-Bus session bus: {error}")
    text = str(error)
    return FAILED, _short(f"{type(error).__name__}: {text}" if text else type(error).__name__)


def show(title: str, message: str) -> tuple[int, str]:
    """Show one notification through desktop-notifier; the exit status and a detail."""
    try:
        from desktop_notifier import DesktopNotifier
    except ImportError as err:
        return UNAVAILABLE, f"desktop-notifier is not installed ({err.name})"

    dispatched: list[bool] = []

    async def send() -> None:
        notifier = DesktopNotifier(app_name=APP_NAME, app_icon=None)
        await notifier.send(title, message, on_dispatched=lambda: dispatched.append(True))

    records = _Records()
    logger = logging.getLogger("desktop_notifier")
    logger.addHandler(records)
    try:
        asyncio.run(send())
    finally:
        logger.removeHandler(records)
    if not dispatched:
        return explain(records.records)
    return SENT, "Windows notifications" if sys.platform == "win32" else "freedesktop (D-Bus)"


def main() -> int:
    status, detail = show(
        os.environ.get(TITLE_VARIABLE, APP_NAME), os.environ.get(MESSAGE_VARIABLE, "")
    )
    sys.stderr.write(detail + "\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
