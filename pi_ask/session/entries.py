"""The ask entries we keep in a session: payloads, drafts and dismissals.

Custom entry types (protocols.md §3.5): ``ask:payload`` and ``ask:pending-dismissed`` exactly
as pi-ask writes them, plus ``ask:draft`` for the answers of a form still open. One ask has one
id (a UUID for asks we start, the tool call id for pi's): the payload's ``sourceEntryId``, and
the ``toolCallId`` of its drafts and of its dismissal.
"""

import time
from typing import TYPE_CHECKING, Literal, NamedTuple

from pi_ask.contract.kinds import JsonObject
from pi_ask.session.log import Entry

if TYPE_CHECKING:
    from pi_ask.state.model import Answer, AskState

PAYLOAD_TYPE = "ask:payload"
DRAFT_TYPE = "ask:draft"
DISMISSED_TYPE = "ask:pending-dismissed"
# An ask that ended ``no_terminal``: still resumable, but ``resume --list`` hides it after a day.
UNREACHED_TYPE = "ask:unreached"
PAYLOAD_VERSION = 1
DRAFT_VERSION = 1

PayloadSource = Literal["tool", "answer-extraction"]
PAYLOAD_SOURCES: tuple[PayloadSource, ...] = ("tool", "answer-extraction")

# Retention (docs/architecture.md "Session logs: what history costs"): replay and resume see
# the newest RECENT_ASKS asks of one of our logs, as far back as its last RECENT_BYTES reach
# (always at least the newest ask); a log past COMPACT_ABOVE bytes is cut down to that window
# when the next ask finishes. So no reader, and no append, ever costs more than the window.
RECENT_ASKS = 500
RECENT_BYTES = 8 * 1024 * 1024
COMPACT_ABOVE = 16 * 1024 * 1024


def now_ms() -> int:
    """The current time in epoch milliseconds, as entries store it."""
    return time.time_ns() // 1_000_000


class PayloadRecord(NamedTuple):
    """An ``ask:payload`` entry as stored; fields are checked by whoever uses them."""

    entry: Entry
    version: object
    source: object
    ask_id: str | None
    params: object
    timestamp_ms: int

    @property
    def is_current(self) -> bool:
        """True for version 1 with a known source: the only kind replay may open."""
        return self.version == PAYLOAD_VERSION and self.source in PAYLOAD_SOURCES


def is_payload_line(value: JsonObject) -> bool:
    """True for the raw object of an ``ask:payload`` entry: where an ask starts in a log."""
    return value.get("type") == "custom" and value.get("customType") == PAYLOAD_TYPE


def payload_data(params: object, source: PayloadSource, ask_id: str) -> JsonObject:
    """``data`` of an ``ask:payload`` entry."""
    return {
        "version": PAYLOAD_VERSION,
        "timestamp": now_ms(),
        "source": source,
        "sourceEntryId": ask_id,
        "params": params,
    }


def dismissed_data(ask_id: str) -> JsonObject:
    """``data`` of an ``ask:pending-dismissed`` entry."""
    return {"toolCallId": ask_id}


def unreached_data(ask_id: str) -> JsonObject:
    """``data`` of an ``ask:unreached`` entry: the ask reached no terminal, at this time."""
    return {"toolCallId": ask_id, "timestamp": now_ms()}


def draft_data(ask_id: str, state: "AskState") -> JsonObject:
    """``data`` of an ``ask:draft`` entry: every answer of ``state``, notes and text included."""
    out: JsonObject = {
        "version": DRAFT_VERSION,
        "timestamp": now_ms(),
        "toolCallId": ask_id,
        "answers": {qid: answer_to_json(answer) for qid, answer in state.answers},
    }
    types = {q.id: q.type for q in state.questions if q.type != q.requested_type}
    if types:
        out["types"] = types
    return out


def answer_to_json(answer: "Answer") -> JsonObject:
    """Serialize an answer completely: unlike the result form it keeps unselected notes and text."""
    out: JsonObject = {
        "selected": [
            {"value": s.value, "label": s.label, "index": s.number} for s in answer.selected
        ]
    }
    if answer.custom_text is not None:
        out["customText"] = answer.custom_text
    if answer.custom_selected:
        out["customSelected"] = True
    if answer.note is not None:
        out["note"] = answer.note
    if answer.option_notes:
        out["optionNotes"] = [[value, note] for value, note in answer.option_notes]
    if answer.attachments:
        out["attachments"] = [item.to_json() for item in answer.attachments]
    return out


def read_payload(entry: Entry) -> PayloadRecord | None:
    """The payload record of an ``ask:payload`` entry, or ``None`` for any other entry."""
    data = entry.data
    if entry.custom_type != PAYLOAD_TYPE or not isinstance(data, dict):
        return None
    ask_id = data.get("sourceEntryId")
    stamp = data.get("timestamp")
    return PayloadRecord(
        entry=entry,
        version=data.get("version"),
        source=data.get("source"),
        ask_id=ask_id if isinstance(ask_id, str) else None,
        params=data.get("params"),
        timestamp_ms=stamp if type(stamp) is int else 0,
    )


def read_unreached(entry: Entry) -> str | None:
    """The ask id an ``ask:unreached`` entry names, else ``None``."""
    data = entry.data
    if entry.custom_type != UNREACHED_TYPE or not isinstance(data, dict):
        return None
    ask_id = data.get("toolCallId")
    return ask_id if isinstance(ask_id, str) else None


def read_dismissed(entry: Entry) -> str | None:
    """The ask id an ``ask:pending-dismissed`` entry closes, else ``None``."""
    data = entry.data
    if entry.custom_type != DISMISSED_TYPE or not isinstance(data, dict):
        return None
    ask_id = data.get("toolCallId")
    return ask_id if isinstance(ask_id, str) else None
