from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_ask.notifications.channel import Notification
from pi_ask.notifications.channels.osc99 import Osc99Channel, osc99_sequence

if TYPE_CHECKING:
    from notifications.conftest import CapturedTerminal


def test_osc99_sends_title_then_body(
    terminal: CapturedTerminal, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TMUX", raising=False)
    Osc99Channel().send(Notification(message="Question waiting: DB"), terminal.context())
    assert terminal.data == (
        b"\x1b]99;i=pi-ask:d=0;pi ask\x1b\\\x1b]99;i=pi-ask:p=body;Question waiting: DB\x1b\\"
    )


def test_osc99_inside_tmux_goes_through_passthrough(
    terminal: CapturedTerminal, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TMUX", "/tmp/tmux-0/default,1,0")
    Osc99Channel().send(Notification(message="m"), terminal.context())
    assert terminal.data.startswith(b"\x1bPtmux;\x1b\x1b]99;")
    assert terminal.data.endswith(b"\x1b\x1b\\\x1b\\")


def test_osc99_label_and_config_value() -> None:
    assert (Osc99Channel().label, Osc99Channel().to_plain()) == ("osc99", "osc99")


@settings(max_examples=200)
@given(st.text(), st.text())
def test_any_text_stays_inside_the_two_sequences(title: str, message: str) -> None:
    parts = osc99_sequence(title, message).split("\x1b\\")
    assert len(parts) == 3
    assert parts[2] == ""
    assert parts[0].startswith("\x1b]99;i=pi-ask:d=0;")
    assert parts[1].startswith("\x1b]99;i=pi-ask:p=body;")
    for part in parts[:2]:
        text = part[len("\x1b]99;") :]
        assert all(ord(char) >= 0x20 and not 0x7F <= ord(char) <= 0x9F for char in text)
