from __future__ import annotations

from typing import TYPE_CHECKING

from pi_ask.notifications.channel import Notification
from pi_ask.notifications.channels.bell import BellChannel

if TYPE_CHECKING:
    from notifications.conftest import CapturedTerminal


def test_bell_writes_one_bel_and_nothing_else(terminal: CapturedTerminal) -> None:
    detail = BellChannel().send(Notification(message="Question waiting: x"), terminal.context())
    assert terminal.data == b"\x07"
    assert detail == ""


def test_bell_label_and_config_value() -> None:
    assert (BellChannel().label, BellChannel().to_plain()) == ("bell", "bell")
