from __future__ import annotations

import io
from pathlib import Path

import pytest

from pi_ask.answer.source import (
    NO_MESSAGE,
    AssistantMessage,
    NoAssistantMessage,
    find_message,
    latest_pi_message,
    read_session_message,
    session_kind,
)
from pi_ask.errors import UsageError
from pi_ask.session.log import read_session
from tests.session.helpers import message, write

FIXTURES = Path(__file__).parent.parent / "fixtures" / "sessions"


@pytest.fixture(autouse=True)
def _no_real_sessions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for name in ("PI_CODING_AGENT_DIR", "PI_CODING_AGENT_SESSION_DIR", "CLAUDE_CONFIG_DIR"):
        monkeypatch.delenv(name, raising=False)


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_session_kinds_are_told_apart_by_their_first_lines(tmp_path: Path) -> None:
    assert session_kind(FIXTURES / "pi-branched.jsonl") == "pi"
    assert session_kind(FIXTURES / "claude-transcript.jsonl") == "claude"
    other = tmp_path / "other.jsonl"
    other.write_text('{"hello": 1}\n')
    assert session_kind(other) is None
    with pytest.raises(UsageError, match="neither a pi session nor a Claude Code transcript"):
        read_session_message(other)


def test_the_pi_message_comes_with_the_user_message_before_it() -> None:
    found = latest_pi_message(read_session(FIXTURES / "pi-branched.jsonl"))
    assert found.text.startswith("Two decisions block me:")
    assert found.previous_user_text == "Now the auth part, please."


def test_an_assistant_message_without_text_is_passed_over(tmp_path: Path) -> None:
    path = write(
        tmp_path / "s.jsonl",
        message("m1", None, role="user", content="first"),
        message(
            "m2",
            "m1",
            role="assistant",
            stopReason="stop",
            content=[{"type": "text", "text": "Tabs or spaces?"}],
        ),
        message("m3", "m2", role="user", content=[{"type": "text", "text": "hm"}]),
        message(
            "m4",
            "m3",
            role="assistant",
            stopReason="stop",
            content=[{"type": "thinking", "thinking": "..."}],
        ),
    )
    found = latest_pi_message(read_session(path))
    assert found == AssistantMessage("Tabs or spaces?", "first", str(path))


def test_sources_in_order(tmp_path: Path) -> None:
    text_file = tmp_path / "m.md"
    text_file.write_text("  From a file?  ")
    piped = io.StringIO("From a pipe?")
    assert (
        find_message(text=str(text_file), session=None, stdin=piped, cwd=tmp_path).text
        == "From a file?"
    )
    assert (
        find_message(text="-", session=None, stdin=io.StringIO("Dash?"), cwd=tmp_path).text
        == "Dash?"
    )
    assert (
        find_message(text=None, session=None, stdin=piped, cwd=tmp_path).origin == "standard input"
    )
    with pytest.raises(NoAssistantMessage, match=NO_MESSAGE):
        find_message(text=None, session=None, stdin=_Tty(), cwd=tmp_path)
    with pytest.raises(NoAssistantMessage):
        find_message(text=None, session=None, stdin=io.StringIO("   "), cwd=tmp_path / "none")
    with pytest.raises(UsageError):
        find_message(text=str(tmp_path / "absent.md"), session=None, stdin=None, cwd=tmp_path)
    with pytest.raises(UsageError):
        find_message(text="-", session=None, stdin=None, cwd=tmp_path)
