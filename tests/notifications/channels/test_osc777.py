from __future__ import annotations

from typing import TYPE_CHECKING

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_ask.notifications.channel import Notification
from pi_ask.notifications.channels.osc777 import Osc777Channel, osc777_sequence

if TYPE_CHECKING:
    from notifications.conftest import CapturedTerminal


def test_osc777_writes_title_and_message(terminal: CapturedTerminal) -> None:
    Osc777Channel().send(Notification(message="Question waiting: Database"), terminal.context())
    assert terminal.data == b"\x1b]777;notify;pi ask;Question waiting: Database\x07"


def test_semicolons_in_title_and_message_become_colons(terminal: CapturedTerminal) -> None:
    notification = Notification(title="a;b", message="Question waiting: x;y;z")
    Osc777Channel().send(notification, terminal.context())
    assert terminal.data == b"\x1b]777;notify;a:b;Question waiting: x:y:z\x07"


def test_hostile_text_cannot_break_out_of_the_sequence(terminal: CapturedTerminal) -> None:
    notification = Notification(title="t\x07\x1b]", message="m\x1b[31m\x9b\n;notify;fake")
    Osc777Channel().send(notification, terminal.context())
    assert terminal.data == b"\x1b]777;notify;t^G^[];m^[[31m\\x9b :notify:fake\x07"


def test_osc777_label_and_config_value() -> None:
    assert (Osc777Channel().label, Osc777Channel().to_plain()) == ("osc777", "osc777")


@settings(max_examples=200)
@given(st.text(), st.text())
def test_any_text_keeps_exactly_four_fields(title: str, message: str) -> None:
    sequence = osc777_sequence(title, message)
    assert sequence.count("\x1b") == 1
    assert sequence.count("\x07") == 1
    assert sequence.endswith("\x07")
    assert sequence.count(";") == 3
