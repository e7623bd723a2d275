from __future__ import annotations

import pytest

from pi_ask.notifications.channel import CancelScope, ChannelSkipped, Notification, SendContext
from pi_ask.notifications.channels.bell import BellChannel
from pi_ask.notifications.channels.unfocused import WhenUnfocused
from pi_ask.notifications.dispatcher import Attempt, dispatch


def _context(sent: list[str], focused: bool | None) -> SendContext:
    return SendContext(sent.append, 5, CancelScope(), focused=lambda: focused)


@pytest.mark.parametrize("focused", [False, None])
def test_sends_when_unfocused_or_when_the_terminal_never_said(focused: bool | None) -> None:
    sent: list[str] = []
    WhenUnfocused(BellChannel()).send(Notification(message="m"), _context(sent, focused))
    assert sent == ["\x07"]


def test_stays_quiet_while_the_terminal_has_focus() -> None:
    sent: list[str] = []
    with pytest.raises(ChannelSkipped, match="the terminal has focus"):
        WhenUnfocused(BellChannel()).send(Notification(message="m"), _context(sent, True))
    assert sent == []


def test_the_dispatcher_asks_for_the_focus_when_the_channel_runs() -> None:
    sent: list[str] = []
    running = dispatch(
        [WhenUnfocused(BellChannel()), BellChannel()],
        title="pi ask",
        message="m",
        write_terminal=sent.append,
        focused=lambda: True,
    )
    assert running.wait(30)
    assert running.attempts == (
        Attempt("bell", "skipped", "the terminal has focus (when = unfocused)"),
        Attempt("bell", "attempted"),
    )
    assert sent == ["\x07"]
