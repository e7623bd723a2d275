"""``pi-ask notify --test``: send a test notification and report every channel's outcome.

The CLI parses its arguments and hands the configured values here; this module prints
nothing itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pi_ask.notifications.channel import Channel, ChannelError, Notification, SendContext
from pi_ask.notifications.channel_list import parse_channels
from pi_ask.notifications.channels.apprise_channels import (
    AppriseChannel,
    describe_apprise_url_problem,
    private_label,
)
from pi_ask.notifications.channels.unfocused import WhenUnfocused
from pi_ask.notifications.dispatcher import Attempt, dispatch
from pi_ask.notifications.message import TITLE, waiting_message

TEST_SUBJECT = "test notification from pi-ask notify --test"
_WORDS = {
    "attempted": "sent",
    "failed": "failed",
    "skipped": "skipped",
    "unavailable": "unavailable",
}


def describe_attempt(number: int, attempt: Attempt, label: str | None = None) -> str:
    """One report line: ``2. ntfys://…: failed — timed out after 5 s; abandoned``.

    An unavailable channel reads ``unavailable: <reason>`` (python-port.md §11). ``label``
    names the channel instead of its short label (an apprise URL with its secrets hidden).
    """
    word = _WORDS[attempt.status]
    name = label or attempt.channel
    if attempt.status == "unavailable":
        return f"{number}. {name}: {word}: {attempt.detail or 'not on this machine'}"
    line = f"{number}. {name}: {word}"
    return f"{line} — {attempt.detail}" if attempt.detail else line


@dataclass(frozen=True, slots=True)
class _Refused:
    """An apprise channel apprise said it cannot use: fails with apprise's reason, sends nothing."""

    channel: Channel
    problem: str

    @property
    def label(self) -> str:
        return self.channel.label

    def send(self, notification: Notification, context: SendContext) -> str:
        raise ChannelError(self.problem)

    def to_plain(self) -> str | dict[str, str] | dict[str, object]:
        return self.channel.to_plain()


def _checked(channel: Channel) -> Channel:
    """``channel``, or a refusal when apprise says it cannot use its URL."""
    inner = channel.channel if isinstance(channel, WhenUnfocused) else channel
    if isinstance(inner, AppriseChannel):
        problem = describe_apprise_url_problem(inner.url)
        if problem is not None:
            return _Refused(channel, problem)
    return channel


def report_label(channel: Channel) -> str:
    """The channel's name in the report: an apprise URL as apprise shows it with its
    secrets hidden (``pover://u...r@s...n/``), so channels of one scheme are told apart."""
    inner = channel.channel if isinstance(channel, WhenUnfocused) else channel
    if isinstance(inner, AppriseChannel):
        return private_label(inner.url)
    return channel.label


def run_test(
    channels_raw: object,
    *,
    enabled: bool,
    timeout_s: float,
    write_terminal: Callable[[str], None] | None,
) -> tuple[list[str], int]:
    """Send a test notification through the configured channels and wait for every outcome.

    Args:
        channels_raw: The plain ``notifications.channels`` value from the settings.
        enabled: ``notifications.enabled``; when false nothing is sent.
        timeout_s: ``notifications.timeout_s``, the time each channel may take.
        write_terminal: Writes to the terminal (for the terminal channels), or ``None``
            when there is none (those channels are then unavailable).

    Returns:
        The report lines (config warnings first, then one line per channel) and the exit
        code: 0 when every entry was valid, no channel failed and at least one sent (an
        unavailable channel, or one skipped because an earlier one reached the desktop,
        is not a failure), else 1.

    Example:
        >>> sent: list[str] = []
        >>> run_test(["bell"], enabled=True, timeout_s=5, write_terminal=sent.append)
        (['1. bell: sent'], 0)
    """
    channels, warnings = parse_channels(channels_raw)
    lines = [f"warning: {warning}" for warning in warnings]
    if not enabled:
        lines.append("notifications are disabled (notifications.enabled = false); nothing sent")
        return lines, 1
    running = dispatch(
        [_checked(channel) for channel in channels],
        title=TITLE,
        message=waiting_message(TEST_SUBJECT),
        write_terminal=write_terminal,
        timeout_s=timeout_s,
    )
    running.wait()
    running.close(grace=0)
    attempts = running.attempts
    labels = [report_label(channel) for channel in channels]
    lines.extend(
        describe_attempt(number, attempt, label)
        for number, (attempt, label) in enumerate(zip(attempts, labels, strict=True), 1)
    )
    failed = any(attempt.status == "failed" for attempt in attempts)
    sent = any(attempt.status == "attempted" for attempt in attempts)
    if not sent and not failed:
        lines.append("nothing was sent: no channel is available here")
    return lines, 0 if sent and not failed and not warnings else 1
