"""``when = "unfocused"``: a channel that stays quiet while you are looking at the ask.

The flow reads the terminal's focus reports (DECSET 1004). A terminal that sends none
leaves the focus unknown, and then the channel sends as it always would.
"""

from __future__ import annotations

from dataclasses import dataclass

from pi_ask.notifications.channel import Channel, ChannelSkipped, Notification, SendContext


@dataclass(frozen=True, slots=True)
class WhenUnfocused:
    """Sends through ``channel`` only while the terminal does not have focus.

    Attributes:
        channel: The channel it guards.
    """

    channel: Channel

    @property
    def label(self) -> str:
        """The guarded channel's label."""
        return self.channel.label

    def send(self, notification: Notification, context: SendContext) -> str:
        """Send, unless the terminal reported that it has focus.

        Raises:
            ChannelSkipped: The terminal has focus.
        """
        if context.focused() is True:
            raise ChannelSkipped("the terminal has focus (when = unfocused)")
        return self.channel.send(notification, context)

    def to_plain(self) -> dict[str, object]:
        """The guarded channel's table with ``when = "unfocused"``."""
        plain = self.channel.to_plain()
        table: dict[str, object] = dict(plain) if isinstance(plain, dict) else _table_of(plain)
        table["when"] = "unfocused"
        return table


def _table_of(plain: str) -> dict[str, object]:
    # A name becomes { type = name }, a URL { type = "apprise", url = ... }.
    if "://" in plain:
        return {"type": "apprise", "url": plain}
    return {"type": plain}
