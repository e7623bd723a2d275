"""The one "question waiting" notification: every face and host sends it through here.

The faces send it once their first frame is up (and, from the TUI, its reminders); the inbox
for every ask it has not seen; an asker with nobody to draw for while it waits for an attach.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from pi_ask.notifications.message import TITLE, given_label, subject_for

if TYPE_CHECKING:
    from pi_ask.config.settings import NotificationSettings
    from pi_ask.contract.payload import Question
    from pi_ask.notifications.dispatcher import Dispatch


def waiting_subject(questions: Sequence[Question]) -> str:
    """What the notification names: the first question's own label, else its prompt."""
    if not questions:
        return ""
    first = questions[0]
    return subject_for(given_label(first.label), first.prompt)


def notify_waiting(
    settings: NotificationSettings,
    message: str,
    *,
    write_terminal: Callable[[str], None] | None,
    focused: Callable[[], bool | None] = lambda: None,
    bell_only: bool = False,
    link: str = "",
) -> Dispatch:
    """Send ``message`` through the configured channels; returns at once (see ``dispatch``).

    Args:
        settings: ``[notifications]``: the channels, the per-channel timeout, on or off.
        message: ``waiting_message(subject)``, a ``reminder_message``, or a host's own line.
        write_terminal: Writes to the terminal the ask is drawn on (``None``: there is none).
        focused: Whether that terminal has focus now, for ``when = "unfocused"`` channels.
        bell_only: The terminal takes no escape sequences: terminal channels ring the bell.
        link: The ask's page (``relay.web_link.ask_page``) when ``pi-ask web`` serves it:
            channels that can open a link get it (ntfy's click, a desktop click).
    """
    from pi_ask.notifications.channel_list import parse_channels
    from pi_ask.notifications.dispatcher import dispatch

    channels, _warnings = parse_channels(settings.channels)
    return dispatch(
        channels,
        title=TITLE,
        message=message,
        write_terminal=write_terminal,
        timeout_s=settings.timeout_s,
        enabled=settings.enabled,
        focused=focused,
        bell_only=bell_only,
        link=link,
    )
