"""Where ``pi-ask answer`` finds the assistant message to turn into a form.

Sources, first that applies (python-port.md §10): a text file or ``-``; a session file (a pi
session or a Claude Code transcript, told apart by their first lines); standard input when
it is not a terminal and holds text; the newest pi session for the cwd; the newest Claude
Code transcript for the cwd. Only a message that finished normally is used.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TextIO

from pi_ask.answer.claude_transcript import ClaudeMessage, read_transcript
from pi_ask.errors import PiAskError, UsageError
from pi_ask.guarded_parse import load_json
from pi_ask.regular_files import read_regular
from pi_ask.session.locations import claude_transcript_candidates, pi_session_candidates
from pi_ask.session.log import MAX_WHOLE_READ, Entry, SessionFile, read_session

NO_MESSAGE = "No assistant message found to extract questions from."
_SNIFF_LINES = 5
# --text files, session files and transcripts: read whole, as large as pi's session files get.
MAX_TEXT_BYTES = MAX_WHOLE_READ


def incomplete_message(reason: str) -> str:
    """The refusal for a message that did not finish normally."""
    return (
        f"Latest assistant message is incomplete ({reason}); "
        "wait for it to finish, then run pi-ask answer again."
    )


class NoAssistantMessage(PiAskError):
    """There is no finished assistant message to extract questions from."""


@dataclass(frozen=True, slots=True)
class AssistantMessage:
    """The text to extract from, the user message before it, and where it came from."""

    text: str
    previous_user_text: str | None = None
    origin: str = ""


SessionKind = Literal["pi", "claude"]


def find_message(
    *, text: str | None, session: Path | None, stdin: TextIO | None, cwd: Path
) -> AssistantMessage:
    """The assistant message ``pi-ask answer`` works on.

    Args:
        text: ``--text``: a file name, or ``-`` for standard input.
        session: ``--session``: a pi session or Claude Code transcript.
        stdin: standard input (used when it is not a terminal and holds text); ``None``
            when it carries something else (RPC responses).
        cwd: the working directory whose newest session is the last resort.

    Raises:
        UsageError: a named file cannot be read or is no known session format.
        NoAssistantMessage: no finished assistant message was found.
    """
    if text == "-":
        if stdin is None:
            raise UsageError("answer: --text - reads standard input, which is not available here")
        return _plain(stdin.read(), "standard input")
    if text is not None:
        return _plain(_read_text(Path(text)), text)
    if session is not None:
        return read_session_message(session)
    if stdin is not None and not stdin.isatty():
        piped = stdin.read()
        if piped.strip():
            return _plain(piped, "standard input")
    for path in _pi_sessions(cwd):
        return latest_pi_message(read_session(path))
    for path in claude_transcript_candidates(cwd):
        return latest_claude_message(path)
    raise NoAssistantMessage(nothing_found(cwd))


def nothing_found(cwd: Path) -> str:
    """``NO_MESSAGE``, where it looked, and how to hand a message over instead."""
    from pi_ask.session.locations import claude_transcript_folder, pi_session_folder

    return (
        f"{NO_MESSAGE} Looked for a pi session in {pi_session_folder(cwd)} and a Claude Code "
        f"transcript in {claude_transcript_folder(cwd)}; pass the message with --text FILE "
        "(or --text - / a pipe), or a session with --session FILE."
    )


def read_session_message(path: Path) -> AssistantMessage:
    """The latest finished assistant message of a pi session or a Claude Code transcript."""
    kind = session_kind(path)
    if kind is None:
        raise UsageError(f"{path}: neither a pi session nor a Claude Code transcript")
    if kind == "pi":
        return latest_pi_message(read_session(path))
    return latest_claude_message(path)


def session_kind(path: Path) -> SessionKind | None:
    """Tell a pi session from a Claude Code transcript by their first lines."""
    for value in _first_objects(path):
        if value.get("type") == "session" and isinstance(value.get("id"), str):
            return "pi"
        if "sessionId" in value or "parentUuid" in value or "leafUuid" in value:
            return "claude"
    return None


def latest_pi_message(session: SessionFile) -> AssistantMessage:
    """The newest assistant message on the current branch of a pi session (protocols.md §3.6)."""
    branch = session.branch()
    for position in range(len(branch) - 1, -1, -1):
        message = branch[position].raw.get("message")
        if branch[position].type != "message" or not isinstance(message, dict):
            continue
        if message.get("role") != "assistant":
            continue
        reason = message.get("stopReason")
        if reason != "stop":
            raise NoAssistantMessage(incomplete_message(str(reason)))
        text = _text_of(message.get("content"))
        if text:
            return AssistantMessage(text, _previous_pi_user(branch[:position]), str(session.path))
    raise NoAssistantMessage(NO_MESSAGE)


def latest_claude_message(path: Path) -> AssistantMessage:
    """The newest finished assistant message of a Claude Code transcript."""
    messages = read_transcript(_read_text(path))
    for position in range(len(messages) - 1, -1, -1):
        message = messages[position]
        if message.role != "assistant":
            continue
        if not message.finished_normally:
            raise NoAssistantMessage(incomplete_message(message.stop_reason or "tool_use"))
        if message.text:
            return AssistantMessage(
                message.text, _previous_claude_user(messages[:position]), str(path)
            )
    raise NoAssistantMessage(NO_MESSAGE)


def _previous_pi_user(entries: tuple[Entry, ...]) -> str | None:
    for entry in reversed(entries):
        message = entry.raw.get("message") if entry.type == "message" else None
        if isinstance(message, dict) and message.get("role") == "user":
            return _text_of(message.get("content")) or None
    return None


def _previous_claude_user(messages: tuple[ClaudeMessage, ...]) -> str | None:
    for message in reversed(messages):
        if message.role == "user" and message.text:
            return message.text
    return None


def _text_of(content: object) -> str:
    """The text blocks of a pi message (``thinking`` and tool calls left out)."""
    if isinstance(content, str):
        return content.strip()
    blocks = content if isinstance(content, list) else []
    texts = [
        block["text"]
        for block in blocks
        if isinstance(block, dict)
        and block.get("type") == "text"
        and isinstance(block.get("text"), str)
    ]
    return "\n".join(texts).strip()


def _plain(text: str, origin: str) -> AssistantMessage:
    if not text.strip():
        raise NoAssistantMessage(NO_MESSAGE)
    return AssistantMessage(text.strip(), None, origin)


def _read_text(path: Path) -> str:
    try:
        return read_regular(path, MAX_TEXT_BYTES).decode("utf-8", errors="replace")
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise UsageError(f"{path}: is a folder, not a file") from None
    except OSError as err:
        raise UsageError(f"{path}: cannot be read ({err.strerror or err})") from None


def _first_objects(path: Path) -> Iterator[dict[str, object]]:
    seen = 0
    for line in _read_text(path).splitlines():
        if not line.strip():
            continue
        seen += 1
        if seen > _SNIFF_LINES:
            return
        try:
            value = load_json(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            yield value


def _pi_sessions(cwd: Path) -> Iterator[Path]:
    """pi sessions of ``cwd``, newest first, that start with a valid header for it."""
    for path in pi_session_candidates(cwd):
        try:
            header = next(_first_objects(path), None)
        except UsageError:
            continue
        if (
            header is None
            or header.get("type") != "session"
            or not isinstance(header.get("id"), str)
        ):
            continue
        recorded = header.get("cwd")
        if isinstance(recorded, str) and Path(recorded) != cwd:
            continue
        yield path
