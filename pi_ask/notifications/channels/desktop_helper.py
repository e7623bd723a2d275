"""``python -m pi_ask.notifications.channels.desktop_helper``: show one desktop notification.

The desktop channel runs this in a process of its own (``process.run_process``): importing
desktop-notifier and dbus-fast and talking D-Bus then never holds the ask's interpreter
lock, a service that hangs is killed with the process, and the bus connection ends with it.

The title and message come in ``PI_ASK_DESKTOP_TITLE`` / ``PI_ASK_DESKTOP_MESSAGE``. The
last stderr line says what happened; the exit status is 0 when the notification was handed
to the service, 3 when this machine has none (``unavailable``), 1 when it failed.

With ``PI_ASK_DESKTOP_LINK`` (the ask's page) and a service that reports clicks, a click on
the notification opens the page in the browser (``webbrowser``). Someone must listen for
that click after the channel is done, so the helper forks first: the child shows the
notification, reports to the parent through a pipe and stays, detached from every stream,
until the notification is clicked or dismissed, or for ``LINGER_S`` at most; the parent
exits with the child's report, so the channel never waits for the click.

desktop-notifier logs a warning instead of raising when a notification cannot be sent, and
calls ``on_dispatched`` when it was; so the helper listens to both.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
from collections.abc import Callable

from pi_ask.terminal_text import clean_line, truncate

APP_NAME = "pi ask"
TITLE_VARIABLE = "PI_ASK_DESKTOP_TITLE"
MESSAGE_VARIABLE = "PI_ASK_DESKTOP_MESSAGE"
LINK_VARIABLE = "PI_ASK_DESKTOP_LINK"
LINGER_S = 3600.0
SENT, FAILED, UNAVAILABLE = 0, 1, 3
_DETAIL_LIMIT = 200
# D-Bus errors that say the machine has no notification service, not that it failed.
_NO_SERVICE = (
    "org.freedesktop.DBus.Error.ServiceUnknown",
    "org.freedesktop.DBus.Error.NameHasNoOwner",
)


Outcome = tuple[int, str]
"""An exit status and the detail line."""
Reporter = Callable[[Outcome], None]


class _Records(logging.Handler):
    """Keeps what desktop-notifier logs while the notification is sent."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def _short(text: str) -> str:
    return truncate(clean_line(text), _DETAIL_LIMIT)


def explain(records: list[logging.LogRecord]) -> Outcome:
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


def show(title: str, message: str, link: str = "", report: Reporter | None = None) -> Outcome:
    """Show one notification through desktop-notifier; the exit status and a detail.

    With ``link`` and a service that reports clicks, ``report`` gets the outcome as soon as
    the notification is shown, and this waits (``LINGER_S`` at most) for a click, which
    opens ``link``, or a dismissal.
    """
    try:
        from desktop_notifier import Capability, DesktopNotifier
    except ImportError as err:
        return UNAVAILABLE, f"desktop-notifier is not installed ({err.name})"

    dispatched: list[bool] = []
    records = _Records()

    async def send() -> Outcome:
        notifier = DesktopNotifier(app_name=APP_NAME, app_icon=None)
        done = asyncio.Event()
        clicked: list[bool] = []
        wanted = bool(link) and Capability.ON_CLICKED in await notifier.get_capabilities()

        def on_clicked() -> None:
            clicked.append(True)
            done.set()

        await notifier.send(
            title,
            message,
            on_dispatched=lambda: dispatched.append(True),
            on_clicked=on_clicked if wanted else None,
            on_dismissed=done.set if wanted else None,
        )
        outcome = _outcome(dispatched, records.records)
        if not wanted or outcome[0] != SENT:
            return outcome
        if report is not None:
            report(outcome)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(done.wait(), LINGER_S)
        if clicked:
            import webbrowser

            await asyncio.to_thread(webbrowser.open, link)
        return outcome

    logger = logging.getLogger("desktop_notifier")
    logger.addHandler(records)
    try:
        return asyncio.run(send())
    finally:
        logger.removeHandler(records)


def _outcome(dispatched: list[bool], records: list[logging.LogRecord]) -> Outcome:
    if not dispatched:
        return explain(records)
    return SENT, "Windows notifications" if sys.platform == "win32" else "freedesktop (D-Bus)"


def _show_and_linger(title: str, message: str, link: str) -> Outcome:
    """``show`` in a child that stays for the click; this process gets its report."""
    readable, writable = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(readable)
        _detach()
        sent: list[bool] = []

        def report(outcome: Outcome) -> None:
            if not sent:
                sent.append(True)
                os.write(writable, f"{outcome[0]} {outcome[1]}".encode()[:4000])
                os.close(writable)

        try:
            report(show(title, message, link, report))
        finally:
            os._exit(0)
    os.close(writable)
    with os.fdopen(readable, "rb") as pipe:
        said = pipe.read().decode("utf-8", "replace")
    status, _, detail = said.partition(" ")
    if not status.isdigit():
        return FAILED, "the desktop helper stopped before it said what happened"
    return int(status), detail


def _detach() -> None:
    """The lingering child keeps no stream of the channel's open (its report goes through
    the pipe), so nothing waits on it."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)


def main() -> int:
    title = os.environ.get(TITLE_VARIABLE, APP_NAME)
    message = os.environ.get(MESSAGE_VARIABLE, "")
    link = os.environ.get(LINK_VARIABLE, "")
    if link and hasattr(os, "fork"):
        status, detail = _show_and_linger(title, message, link)
    else:
        status, detail = show(title, message)
    sys.stderr.write(detail + "\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
