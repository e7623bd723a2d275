"""The ``terminal`` channel: the bytes each terminal gets, inside and outside tmux."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from pi_ask.notifications.channel import CancelScope, Notification, SendContext
from pi_ask.notifications.channels.terminal import TerminalChannel, terminal_alert
from pi_ask.notifications.channels.terminal_kind import terminal_kind, tmux_passthrough

if TYPE_CHECKING:
    from notifications.conftest import CapturedTerminal

NOTE = Notification(title="pi ask", message="Question waiting: Database")
OSC9 = "\x1b]9;Question waiting: Database\x07"
OSC777 = "\x1b]777;notify;pi ask;Question waiting: Database\x07"
OSC99 = "\x1b]99;i=pi-ask:d=0;pi ask\x1b\\\x1b]99;i=pi-ask:p=body;Question waiting: Database\x1b\\"
TMUX = {"TMUX": "/tmp/tmux-1000/default,4242,0", "TERM_PROGRAM": "tmux", "TERM": "tmux-256color"}

# What each terminal puts in its children's environment (and what tmux keeps of it).
TERMINALS: dict[str, tuple[dict[str, str], str, str]] = {
    "kitty": ({"KITTY_WINDOW_ID": "3", "TERM": "xterm-kitty"}, OSC99, "osc99 for kitty"),
    "iTerm2": (
        {"TERM_PROGRAM": "iTerm.app", "LC_TERMINAL": "iTerm2", "ITERM_SESSION_ID": "w0t0p0"},
        OSC9,
        "osc9 for iTerm2",
    ),
    "WezTerm": (
        {"TERM_PROGRAM": "WezTerm", "WEZTERM_PANE": "0"},
        OSC777,
        "osc777 for WezTerm",
    ),
    "foot": ({"TERM": "foot"}, OSC777, "osc777 for foot"),
    "Windows Terminal": (
        {"WT_SESSION": "0b8c2d6e-1d7a-4a43-a7b1-6c0e8d3f6a11", "TERM": "xterm-256color"},
        OSC777,
        "osc777 for Windows Terminal",
    ),
}


@pytest.mark.parametrize("name", TERMINALS)
def test_each_terminal_gets_its_own_sequence(name: str) -> None:
    environ, sequence, detail = TERMINALS[name]
    assert terminal_alert(NOTE, environ) == (sequence, detail)


@pytest.mark.parametrize("name", TERMINALS)
def test_inside_tmux_the_sequence_is_wrapped_and_a_bell_follows(name: str) -> None:
    environ, sequence, detail = TERMINALS[name]
    # tmux overwrites TERM and TERM_PROGRAM; the terminal's own variables stay.
    inside = {**environ, **TMUX}
    if name == "foot":  # foot is known by TERM only, which tmux replaces
        assert terminal_alert(NOTE, inside) == ("\x07", "bell for tmux")
        return
    if name == "iTerm2":
        inside.pop("TERM_PROGRAM")
    text, said = terminal_alert(NOTE, inside)
    wrapped = "\x1bPtmux;" + sequence.replace("\x1b", "\x1b\x1b") + "\x1b\\"
    assert (text, said) == (wrapped + "\x07", f"{detail} through tmux")


def test_an_unknown_terminal_gets_the_bell() -> None:
    assert terminal_alert(NOTE, {"TERM": "xterm-256color"}) == ("\x07", "bell")
    assert terminal_alert(NOTE, {}) == ("\x07", "bell")


def test_the_terminals_own_variable_wins_over_term_program() -> None:
    kind = terminal_kind({"TERM_PROGRAM": "tmux", "KITTY_WINDOW_ID": "1", "TMUX": "x"})
    assert (kind.name, kind.alert, kind.tmux) == ("kitty", "osc99", True)


def test_passthrough_doubles_every_escape_and_ends_with_st() -> None:
    wrapped = tmux_passthrough(OSC99)
    body = wrapped[len("\x1bPtmux;") : -len("\x1b\\")]
    assert body.replace("\x1b\x1b", "") == OSC99.replace("\x1b", "")
    assert "\x1b" not in body.replace("\x1b\x1b", "")


def test_the_channel_writes_the_alert_and_marks_the_desktop_reached(
    terminal: CapturedTerminal, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("TMUX", "TERM_PROGRAM", "ITERM_SESSION_ID", "LC_TERMINAL", "WEZTERM_PANE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("KITTY_WINDOW_ID", "7")
    context = terminal.context()
    assert TerminalChannel().send(NOTE, context) == "osc99 for kitty"
    assert terminal.data == OSC99.encode()
    assert context.reached_desktop.is_set()


def test_a_bell_does_not_count_as_a_desktop_notification(
    terminal: CapturedTerminal, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("TMUX", "TERM_PROGRAM", "KITTY_WINDOW_ID", "WT_SESSION", "WEZTERM_PANE"):
        monkeypatch.delenv(name, raising=False)
    for name in ("ITERM_SESSION_ID", "LC_TERMINAL", "GHOSTTY_RESOURCES_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    context = terminal.context()
    assert TerminalChannel().send(NOTE, context) == "bell"
    assert terminal.data == b"\x07"
    assert not context.reached_desktop.is_set()


def test_without_a_terminal_the_channel_is_unavailable() -> None:
    from pi_ask.notifications.channel import ChannelUnavailable

    with pytest.raises(ChannelUnavailable, match="no terminal"):
        TerminalChannel().send(NOTE, SendContext(None, 5, CancelScope()))


def test_on_a_plain_terminal_every_alert_is_a_bell_and_the_desktop_is_not_reached(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pi_ask.notifications.channels.osc9 import Osc9Channel

    monkeypatch.setenv("KITTY_WINDOW_ID", "7")
    sent: list[str] = []
    context = SendContext(sent.append, 5, CancelScope(), bell_only=True)
    assert TerminalChannel().send(NOTE, context) == "bell instead of osc99 (a plain terminal)"
    assert Osc9Channel().send(NOTE, context) == "bell instead of osc9 (a plain terminal)"
    assert sent == ["\x07", "\x07"]
    assert not context.reached_desktop.is_set()
