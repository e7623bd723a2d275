"""Best-effort "question waiting" notifications: terminal bell/OSC, commands, apprise URLs.

Importing this package imports the standard library only; apprise is imported when an
apprise channel sends or a URL is checked.

Typical use by a face, once per ask session, after the first frame::

    channels, warnings = parse_channels(settings.notifications.channels)
    running = dispatch(
        channels,
        title=TITLE,
        message=waiting_message(subject_for(label_given, prompt)),
        write_terminal=write_to_tty,
        timeout_s=settings.notifications.timeout_s,
        enabled=settings.notifications.enabled,
    )
    ...
    running.close()  # when the ask ends
"""

from __future__ import annotations

from pi_ask.notifications.channel import (
    CancelScope,
    Channel,
    ChannelError,
    Notification,
    SendContext,
)
from pi_ask.notifications.channel_list import DEFAULT_CHANNELS, parse_channels
from pi_ask.notifications.channels import (
    AppriseChannel,
    BellChannel,
    CommandChannel,
    Osc9Channel,
    Osc777Channel,
    describe_apprise_url_problem,
    is_apprise_url,
)
from pi_ask.notifications.dispatcher import (
    DEFAULT_TIMEOUT_S,
    Attempt,
    AttemptStatus,
    Dispatch,
    dispatch,
)
from pi_ask.notifications.message import EVENT, MESSAGE_LIMIT, TITLE, subject_for, waiting_message
from pi_ask.notifications.probe import run_test
from pi_ask.notifications.terminal_text import clean_line

__all__ = [
    "DEFAULT_CHANNELS",
    "DEFAULT_TIMEOUT_S",
    "EVENT",
    "MESSAGE_LIMIT",
    "TITLE",
    "AppriseChannel",
    "Attempt",
    "AttemptStatus",
    "BellChannel",
    "CancelScope",
    "Channel",
    "ChannelError",
    "CommandChannel",
    "Dispatch",
    "Notification",
    "Osc9Channel",
    "Osc777Channel",
    "SendContext",
    "clean_line",
    "describe_apprise_url_problem",
    "dispatch",
    "is_apprise_url",
    "parse_channels",
    "run_test",
    "subject_for",
    "waiting_message",
]
