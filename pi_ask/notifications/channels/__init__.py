"""One module per notification channel; apprise is imported only when a URL is used."""

from __future__ import annotations

from pi_ask.notifications.channels.apprise_url import (
    AppriseChannel,
    describe_apprise_url_problem,
    is_apprise_url,
)
from pi_ask.notifications.channels.bell import BellChannel
from pi_ask.notifications.channels.command import CommandChannel
from pi_ask.notifications.channels.osc9 import Osc9Channel
from pi_ask.notifications.channels.osc777 import Osc777Channel

__all__ = [
    "AppriseChannel",
    "BellChannel",
    "CommandChannel",
    "Osc9Channel",
    "Osc777Channel",
    "describe_apprise_url_problem",
    "is_apprise_url",
]
