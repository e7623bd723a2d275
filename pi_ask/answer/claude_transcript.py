"""Claude Code transcripts (``~/.claude/projects/<cwd>/*.jsonl``) as ``pi-ask answer`` reads them.

Each line is one record with ``uuid``/``parentUuid``; the current chain runs from the last
record back to the root. Claude Code writes one line per content block, so lines sharing a
``message.id`` are one assistant message. It often records ``stop_reason`` as ``null``
(the line is written before the stream ends): a message with no explicit reason and no tool
call is taken as finished, an explicit reason other than ``end_turn`` is not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pi_ask.guarded_parse import load_json

Role = Literal["user", "assistant"]


@dataclass(frozen=True, slots=True)
class ClaudeMessage:
    """A user or assistant message on the current chain."""

    role: Role
    text: str
    stop_reason: str | None = None
    has_tool_use: bool = False

    @property
    def finished_normally(self) -> bool:
        """True when the turn ended (``end_turn``, or no reason recorded and no tool call)."""
        if self.stop_reason is None:
            return not self.has_tool_use
        return self.stop_reason == "end_turn"


def read_transcript(text: str) -> tuple[ClaudeMessage, ...]:
    """The messages of the transcript's current chain, oldest first; damaged lines skipped."""
    records = [r for r in _records(text) if isinstance(r.get("uuid"), str)]
    main = [r for r in records if r.get("isSidechain") is not True]
    if not main:
        return ()
    by_uuid = {str(r["uuid"]): r for r in records}
    chain: list[dict[str, object]] = []
    seen: set[str] = set()
    record: dict[str, object] | None = main[-1]
    while record is not None and str(record["uuid"]) not in seen:
        seen.add(str(record["uuid"]))
        chain.append(record)
        parent = record.get("parentUuid")
        record = by_uuid.get(parent) if isinstance(parent, str) else None
    chain.reverse()
    return tuple(_messages(chain))


def _records(text: str) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            value = load_json(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            out.append(value)
    return out


def _messages(chain: list[dict[str, object]]) -> list[ClaudeMessage]:
    messages: list[ClaudeMessage] = []
    last_id: object = None
    for record in chain:
        kind, body = record.get("type"), record.get("message")
        if kind not in ("user", "assistant") or not isinstance(body, dict):
            continue
        if kind == "user":
            if record.get("isMeta") is not True:
                messages.append(ClaudeMessage("user", _text(body.get("content"))))
            last_id = None
            continue
        part = _assistant_part(body)
        if messages and messages[-1].role == "assistant" and body.get("id") == last_id:
            part = _merge(messages.pop(), part)
        messages.append(part)
        last_id = body.get("id")
    return messages


def _assistant_part(body: dict[str, object]) -> ClaudeMessage:
    content = body.get("content")
    blocks = content if isinstance(content, list) else []
    reason = body.get("stop_reason")
    return ClaudeMessage(
        "assistant",
        _text(content),
        reason if isinstance(reason, str) else None,
        any(isinstance(b, dict) and b.get("type") == "tool_use" for b in blocks),
    )


def _merge(first: ClaudeMessage, second: ClaudeMessage) -> ClaudeMessage:
    text = "\n\n".join(t for t in (first.text, second.text) if t)
    return ClaudeMessage(
        "assistant",
        text,
        second.stop_reason or first.stop_reason,
        first.has_tool_use or second.has_tool_use,
    )


def _text(content: object) -> str:
    if isinstance(content, str):
        return content.strip()
    blocks = content if isinstance(content, list) else []
    texts = [
        b["text"]
        for b in blocks
        if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)
    ]
    return "\n\n".join(texts).strip()
