from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pi_ask.notifications.dispatcher import Attempt
from pi_ask.notifications.probe import describe_attempt, run_test

if TYPE_CHECKING:
    from notifications.conftest import CapturedTerminal, HttpSink


# Apprise's full plugin scan imports a plugin that still uses the deprecated imghdr module.
pytestmark = pytest.mark.filterwarnings("ignore:'imghdr' is deprecated:DeprecationWarning")


def test_every_channel_sent_exits_zero(
    tmp_path: Path, http_sink: HttpSink, terminal: CapturedTerminal
) -> None:
    out = tmp_path / "message"
    raw = [
        "bell",
        http_sink.url,
        {
            "type": "command",
            "command": f'printf %s "$ASK_NOTIFY_MESSAGE" > {shlex.quote(str(out))}',
        },
    ]
    # A cap, not the thing under test: apprise's plugin scan alone can take seconds when the
    # machine is loaded.
    lines, code = run_test(raw, enabled=True, timeout_s=60, write_terminal=terminal.write)
    shown = f"json://127.0.0.1:{http_sink.port}/"  # apprise's own view, secrets hidden
    assert (lines, code) == (["1. bell: sent", f"2. {shown}: sent", "3. command: sent"], 0)
    expected = "Question waiting: test notification from pi-ask notify --test"
    assert out.read_text() == expected
    assert http_sink.bodies[0]["message"] == expected
    assert terminal.data == b"\x07"


def test_a_failed_channel_exits_one_and_says_why(terminal: CapturedTerminal) -> None:
    raw = [{"type": "command", "command": "echo 'notify-send: not found' >&2; exit 127"}, "bell"]
    lines, code = run_test(raw, enabled=True, timeout_s=5, write_terminal=terminal.write)
    assert lines == [
        "1. command: failed — exit status 127: notify-send: not found",
        "2. bell: sent",
    ]
    assert code == 1


def test_an_unknown_apprise_scheme_is_reported(terminal: CapturedTerminal) -> None:
    lines, code = run_test(["nosuch://x"], enabled=True, timeout_s=5, write_terminal=terminal.write)
    assert lines == ["1. nosuch://…: failed — apprise does not know the scheme nosuch://"]
    assert code == 1


def test_invalid_entries_are_warned_about_and_fail_the_test(terminal: CapturedTerminal) -> None:
    lines, code = run_test(
        ["bel", "bell"], enabled=True, timeout_s=5, write_terminal=terminal.write
    )
    assert lines[0].startswith('warning: notifications.channels[0]: "bel" is not a channel')
    assert lines[1:] == ["1. bell: sent"]
    assert code == 1


def test_disabled_sends_nothing(terminal: CapturedTerminal) -> None:
    lines, code = run_test(["bell"], enabled=False, timeout_s=5, write_terminal=terminal.write)
    assert lines == ["notifications are disabled (notifications.enabled = false); nothing sent"]
    assert code == 1
    assert terminal.data == b""


def test_a_hanging_channel_is_reported_as_timed_out(terminal: CapturedTerminal) -> None:
    raw = [{"type": "command", "command": "exec sleep 30"}, "bell"]
    lines, code = run_test(raw, enabled=True, timeout_s=0.3, write_terminal=terminal.write)
    assert lines == ["1. command: failed — timed out after 0.3 s; abandoned", "2. bell: sent"]
    assert code == 1


def test_attempt_line_without_detail() -> None:
    assert describe_attempt(3, Attempt("osc9", "skipped")) == "3. osc9: skipped"


def test_channels_of_one_scheme_are_told_apart_with_their_secrets_hidden(
    terminal: CapturedTerminal,
) -> None:
    raw = ["json://127.0.0.1:9/first", "json://127.0.0.1:9/second", "pover://u@tokensecret123"]
    lines, code = run_test(raw, enabled=True, timeout_s=30, write_terminal=terminal.write)
    assert lines[0].startswith("1. json://127.0.0.1:9/first: failed — ")
    assert lines[1].startswith("2. json://127.0.0.1:9/second: failed — ")
    assert lines[2].startswith("3. pover://")
    assert "tokensecret123" not in "\n".join(lines)
    assert code == 1
