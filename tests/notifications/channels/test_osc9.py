from __future__ import annotations

from typing import TYPE_CHECKING

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_ask.notifications.channel import Notification
from pi_ask.notifications.channels.osc9 import Osc9Channel, osc9_sequence
from pi_ask.notifications.message import waiting_message

if TYPE_CHECKING:
    from notifications.conftest import CapturedTerminal


def test_osc9_writes_the_message_in_one_sequence(terminal: CapturedTerminal) -> None:
    Osc9Channel().send(Notification(message="Question waiting: Database"), terminal.context())
    assert terminal.data == b"\x1b]9;Question waiting: Database\x07"


def test_hostile_message_cannot_break_out_of_the_sequence(terminal: CapturedTerminal) -> None:
    hostile = "\x1b]0;retitled\x07\x1b\\\x9d8;;http://x\x9c\n\u202eevil" + "B" * 10_000
    Osc9Channel().send(Notification(message=waiting_message(hostile)), terminal.context())
    data = terminal.data
    assert data.startswith(
        b"\x1b]9;Question waiting: ^[]0;retitled^G^[\\\\x9d8;;http://x\\x9c <U+202E>evil"
    )
    assert data.count(b"\x1b") == 1
    assert data.count(b"\x07") == 1
    assert data.endswith("…\x07".encode())
    assert len(data.decode()) == len("\x1b]9;\x07") + 120


def test_osc9_label_and_config_value() -> None:
    assert (Osc9Channel().label, Osc9Channel().to_plain()) == ("osc9", "osc9")


@settings(max_examples=200)
@given(st.text())
def test_any_text_stays_inside_one_sequence(text: str) -> None:
    sequence = osc9_sequence(text)
    assert sequence.startswith("\x1b]9;")
    assert sequence.endswith("\x07")
    body = sequence[len("\x1b]9;") : -1]
    assert all(ord(char) >= 0x20 and not 0x7F <= ord(char) <= 0x9F for char in body)
