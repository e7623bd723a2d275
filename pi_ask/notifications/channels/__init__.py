"""One module per notification channel; heavy libraries load only inside ``send``."""

from __future__ import annotations

from pi_ask.notifications.channels.apprise_channels import (
    AppriseChannel,
    AppriseConfigChannel,
    describe_apprise_url_problem,
    is_apprise_url,
)
from pi_ask.notifications.channels.bell import BellChannel
from pi_ask.notifications.channels.command import CommandChannel
from pi_ask.notifications.channels.desktop import DesktopChannel
from pi_ask.notifications.channels.osc9 import Osc9Channel
from pi_ask.notifications.channels.osc99 import Osc99Channel
from pi_ask.notifications.channels.osc777 import Osc777Channel
from pi_ask.notifications.channels.terminal import TerminalChannel

__all__ = [
    "AppriseChannel",
    "AppriseConfigChannel",
    "BellChannel",
    "CommandChannel",
    "DesktopChannel",
    "Osc9Channel",
    "Osc99Channel",
    "Osc777Channel",
    "TerminalChannel",
    "describe_apprise_url_problem",
    "is_apprise_url",
]
