"""The ask entries we keep in a session: payloads, drafts and dismissals.

Custom entry types (protocols.md §3.5): ``ask:payload`` and ``ask:pending-dismissed`` exactly
as pi-ask writes them, plus ``ask:draft`` for the answers of a form still open. One ask has one
id (a UUID for asks we start, the tool call id for pi's): the payload's ``sourceEntryId``, and
the ``toolCallId`` of its drafts and of its dismissal.
"""

import time
from typing import Literal, NamedTuple

from pi_ask.contract.attachments import Attachment
from pi_ask.contract.kinds import JsonObject
from pi_ask.contract.payload import QUESTION_TYPES, QuestionType
from pi_ask.session.log import Entry
from pi_ask.state.model import Answer, AskState, Selection

PAYLOAD_TYPE = "ask:payload"
DRAFT_TYPE = "ask:draft"
DISMISSED_TYPE = "ask:pending-dismissed"
# An ask that ended ``no_terminal``: still resumable, but ``resume --list`` hides it after a day.
UNREACHED_TYPE = "ask:unreached"
PAYLOAD_VERSION = 1
DRAFT_VERSION = 1

PayloadSource = Literal["tool", "answer-extraction"]
PAYLOAD_SOURCES: tuple[PayloadSource, ...] = ("tool", "answer-extraction")

AnswerMap = tuple[tuple[str, Answer], ...]

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


class Draft(NamedTuple):
    """The answers of an open form at its last committed change."""

    ask_id: str
    answers: AnswerMap
    # Questions whose presented type differs from the payload's (a type change in the flow).
    presented_types: tuple[tuple[str, QuestionType], ...] = ()
    timestamp_ms: int = 0


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


def draft_data(ask_id: str, state: AskState) -> JsonObject:
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


def answer_to_json(answer: Answer) -> JsonObject:
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


def _attachments(value: object) -> tuple[Attachment, ...] | None:
    """A draft's attachment records, or ``None`` when they are not that shape."""
    if not isinstance(value, list):
        return None
    out: list[Attachment] = []
    for item in value:
        if not isinstance(item, dict):
            return None
        path, name, size, media = (item.get(k) for k in ("path", "name", "size", "media_type"))
        if not (isinstance(path, str) and isinstance(name, str) and isinstance(media, str)):
            return None
        if type(size) is not int or size < 0:
            return None
        out.append(Attachment(path, name, size, media))
    return tuple(out)


def answer_from_json(value: object) -> Answer | None:
    """Read back ``answer_to_json``; ``None`` when the value is not that shape."""
    if not isinstance(value, dict):
        return None
    selected = value.get("selected", [])
    if not isinstance(selected, list):
        return None
    selections: list[Selection] = []
    for item in selected:
        if not isinstance(item, dict):
            return None
        val, label, index = item.get("value"), item.get("label"), item.get("index")
        if not (isinstance(val, str) and isinstance(label, str) and type(index) is int):
            return None
        selections.append(Selection(val, label, index))
    custom_text = value.get("customText")
    note = value.get("note")
    if not (_optional_str(custom_text) and _optional_str(note)):
        return None
    notes = _option_notes(value.get("optionNotes", []))
    attached = _attachments(value.get("attachments", []))
    if notes is None or attached is None:
        return None
    return Answer(
        selected=tuple(selections),
        custom_text=custom_text if isinstance(custom_text, str) else None,
        custom_selected=value.get("customSelected") is True,
        note=note if isinstance(note, str) else None,
        option_notes=notes,
        attachments=attached,
    )


def _optional_str(value: object) -> bool:
    return value is None or isinstance(value, str)


def _option_notes(value: object) -> tuple[tuple[str, str], ...] | None:
    if not isinstance(value, list):
        return None
    pairs: list[tuple[str, str]] = []
    for pair in value:
        if not (isinstance(pair, list) and len(pair) == 2):
            return None
        key, note = pair
        if not (isinstance(key, str) and isinstance(note, str)):
            return None
        pairs.append((key, note))
    return tuple(pairs)


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


def read_draft(entry: Entry) -> Draft | None:
    """The draft of an ``ask:draft`` entry; ``None`` for other entries or a damaged draft."""
    data = entry.data
    if entry.custom_type != DRAFT_TYPE or not isinstance(data, dict):
        return None
    ask_id, answers = data.get("toolCallId"), data.get("answers")
    if not isinstance(ask_id, str) or not isinstance(answers, dict):
        return None
    pairs: list[tuple[str, Answer]] = []
    for qid, raw in answers.items():
        answer = answer_from_json(raw)
        if answer is None:
            return None
        pairs.append((qid, answer))
    types = data.get("types", {})
    presented = tuple(
        (qid, kind)
        for qid, raw_kind in (types.items() if isinstance(types, dict) else ())
        if (kind := _question_type(raw_kind)) is not None
    )
    stamp = data.get("timestamp")
    return Draft(ask_id, tuple(pairs), presented, stamp if type(stamp) is int else 0)


def _question_type(value: object) -> QuestionType | None:
    for kind in QUESTION_TYPES:
        if value == kind:
            return kind
    return None


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
