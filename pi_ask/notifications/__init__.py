"""Best-effort "question waiting" notifications: terminal alerts, desktop, commands, apprise.

Names load on first use, so reading settings (``parse_channels``) does not pay for the
dispatcher, and nothing here imports apprise until an apprise channel sends or a URL is
checked. Only the standard library is imported.

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
    running.close()  # when the ask ends: at most one more second for a running channel
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_ask.lazy_names import lazy_names

if TYPE_CHECKING:
    from pi_ask.notifications.channel import (
        CancelScope,
        Channel,
        ChannelError,
        ChannelSkipped,
        ChannelUnavailable,
        Notification,
        SendContext,
    )
    from pi_ask.notifications.channel_list import DEFAULT_CHANNELS, parse_channels
    from pi_ask.notifications.channels import (
        AppriseChannel,
        AppriseConfigChannel,
        BellChannel,
        CommandChannel,
        DesktopChannel,
        Osc9Channel,
        Osc99Channel,
        Osc777Channel,
        TerminalChannel,
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
    from pi_ask.notifications.message import (
        EVENT,
        MESSAGE_LIMIT,
        TITLE,
        given_label,
        reminder_message,
        subject_for,
        waiting_message,
    )
    from pi_ask.notifications.probe import run_test

_HOMES = {
    "CancelScope": "channel",
    "Channel": "channel",
    "ChannelError": "channel",
    "ChannelSkipped": "channel",
    "ChannelUnavailable": "channel",
    "Notification": "channel",
    "SendContext": "channel",
    "DEFAULT_CHANNELS": "channel_list",
    "parse_channels": "channel_list",
    "AppriseChannel": "channels",
    "AppriseConfigChannel": "channels",
    "BellChannel": "channels",
    "CommandChannel": "channels",
    "DesktopChannel": "channels",
    "Osc9Channel": "channels",
    "Osc99Channel": "channels",
    "Osc777Channel": "channels",
    "TerminalChannel": "channels",
    "describe_apprise_url_problem": "channels",
    "is_apprise_url": "channels",
    "DEFAULT_TIMEOUT_S": "dispatcher",
    "Attempt": "dispatcher",
    "AttemptStatus": "dispatcher",
    "Dispatch": "dispatcher",
    "dispatch": "dispatcher",
    "EVENT": "message",
    "MESSAGE_LIMIT": "message",
    "TITLE": "message",
    "subject_for": "message",
    "given_label": "message",
    "reminder_message": "message",
    "waiting_message": "message",
    "run_test": "probe",
}
__all__ = [
    "DEFAULT_CHANNELS",
    "DEFAULT_TIMEOUT_S",
    "EVENT",
    "MESSAGE_LIMIT",
    "TITLE",
    "AppriseChannel",
    "AppriseConfigChannel",
    "Attempt",
    "AttemptStatus",
    "BellChannel",
    "CancelScope",
    "Channel",
    "ChannelError",
    "ChannelSkipped",
    "ChannelUnavailable",
    "CommandChannel",
    "DesktopChannel",
    "Dispatch",
    "Notification",
    "Osc9Channel",
    "Osc99Channel",
    "Osc777Channel",
    "SendContext",
    "TerminalChannel",
    "describe_apprise_url_problem",
    "dispatch",
    "given_label",
    "is_apprise_url",
    "parse_channels",
    "reminder_message",
    "run_test",
    "subject_for",
    "waiting_message",
]


__getattr__ = lazy_names(
    __name__, {name: f"pi_ask.notifications.{home}" for name, home in _HOMES.items()}
)
