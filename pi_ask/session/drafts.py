"""Drafts read back from a session log: the answers of an open form, as the engine holds them.

``entries`` writes them (``draft_data``); reading them back builds the engine's ``Answer``
values, which an ask that only records itself never needs: so they live here, and the
``no_terminal`` answer loads no engine state (python-port.md §8).
"""

from typing import NamedTuple

from pi_ask.contract.attachments import Attachment
from pi_ask.contract.payload import QUESTION_TYPES, QuestionType
from pi_ask.session.entries import DRAFT_TYPE
from pi_ask.session.log import Entry
from pi_ask.state.model import Answer, Selection

AnswerMap = tuple[tuple[str, Answer], ...]


class Draft(NamedTuple):
    """The answers of an open form at its last committed change."""

    ask_id: str
    answers: AnswerMap
    # Questions whose presented type differs from the payload's (a type change in the flow).
    presented_types: tuple[tuple[str, QuestionType], ...] = ()
    timestamp_ms: int = 0


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
